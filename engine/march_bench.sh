#!/bin/bash
# Benchmark (not a test): `uci bench` nodes/s of the portable build (.bazelrc's default,
# -march=x86-64-v3) against `--config=native` (-march=native) in the same run, the two
# binaries run alternately so that a machine's drift touches both alike.
#   bash engine/march_bench.sh [RUNS] [DEPTH]   (default 5 runs each of `bench 12`, about
#                                               a second each: `bench`'s default is too short
#                                               to time on a noisy machine)
# Both must print the same bench signature (node count): the code searches alike.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
depth="${2:-12}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for config in portable native; do
  flags=()
  [[ $config == native ]] && flags=(--config=native)
  bazel build "${flags[@]}" //engine:uci >/dev/null 2>&1
  cp -f bazel-bin/engine/uci "$work/uci-$config"
done
nps() { "$work/uci-$1" bench "$depth" 2>&1 | awk '/ nodes .* nps$/ {print $1, $3}'; }
declare -A total=([portable]=0 [native]=0)
signature=""
for i in $(seq "$runs"); do
  for config in portable native; do
    read -r nodes rate < <(nps "$config")
    [[ -z $signature ]] && signature=$nodes
    [[ $nodes == "$signature" ]] || { echo "bench signatures differ: $signature vs $nodes"; exit 1; }
    total[$config]=$(( ${total[$config]} + rate ))
    echo "run $i $config: $rate nps"
  done
done
echo "bench $depth: $signature nodes; mean nps portable $(( ${total[portable]} / runs )), native $(( ${total[native]} / runs ))"
awk -v p="${total[portable]}" -v n="${total[native]}" \
  'BEGIN { printf "portable / native: %.3f\n", p / n }'
