#!/bin/bash
# Benchmark (not a test): `uci bench` nodes/s of engine configs against the first (the
# anchor) in the same run, each run in turn so that a machine's drift touches all alike:
# what a network costs per node.
#   bash engine/network_bench.sh [RUNS] [DEPTH] [CONFIG...]
# Defaults: 5 runs of `bench 12` (about a second each) of tests/data/engines/gen1.textproto
# (64 units over the side to move, computed afresh, added to the linear evaluation) and
# tests/data/engines/gen2.textproto (256 units per side, updated move by move, the whole
# evaluation).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
depth="${2:-12}"
shift $(( $# < 2 ? $# : 2 ))
configs=("$@")
(( ${#configs[@]} )) || configs=(tests/data/engines/gen1.textproto tests/data/engines/gen2.textproto)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bazel build //engine:uci >/dev/null 2>&1
cp -f bazel-bin/engine/uci "$work/uci"
declare -a total
for i in "${!configs[@]}"; do total[$i]=0; done
for run in $(seq "$runs"); do
  for i in "${!configs[@]}"; do
    rate=$("$work/uci" --config="${configs[$i]}" bench "$depth" 2>&1 |
      awk '/ nodes .* nps$/ {print $3}')
    total[$i]=$(( ${total[$i]} + rate ))
    echo "run $run ${configs[$i]}: $rate nps"
  done
done
for i in "${!configs[@]}"; do
  awk -v c="${configs[$i]}" -v t="${total[$i]}" -v a="${total[0]}" -v r="$runs" \
    'BEGIN { printf "%s: mean %d nps, %.3f of the first\n", c, t / r, t / a }'
done
