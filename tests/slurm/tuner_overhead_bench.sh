#!/usr/bin/env bash
# Benchmark, not a test: what Slurm costs the tuner's SPSA, where every iteration is one
# small match and waits for it. The same iterations (2 shards of 1 CPU, or concurrency 2
# in process) played in process, as srun job steps inside an allocation, and through
# `arena slurm --wait` (sbatch per iteration) on the local one-node cluster, measured in
# the same run: seconds per iteration and the ratio to in process. Root; starts and stops
# the cluster.
#   bash tests/slurm/tuner_overhead_bench.sh [ITERATIONS=10] [PAIRS=8] [NODES=5000]
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ITERATIONS="${1:-10}"
PAIRS="${2:-8}"
NODES="${3:-5000}"
bazel build //arena //tuner >/dev/null 2>&1 || { echo "cannot build //arena //tuner"; exit 1; }
ARENA="$ROOT/bazel-bin/arena/arena"
TUNER="$ROOT/bazel-bin/tuner/tuner"
CLUSTER=$(mktemp -d /tmp/chess-harness-slurm-bench.XXXXXX)
env_line=$(bash tests/slurm/cluster.sh up "$CLUSTER") || { echo "Slurm cannot start here"; exit 1; }
eval "$env_line"
trap 'bash tests/slurm/cluster.sh down "$CLUSTER" 2>/dev/null; rm -rf "$CLUSTER"' EXIT
WORK=$(mktemp -d /tmp/chess-harness-tuner-bench.XXXXXX)
cat >"$WORK/spsa.textproto" <<CONFIG
engine_config: "$ROOT/configs/engines/default.textproto"
book: "$ROOT/configs/openings/balanced.epd"
iterations: $ITERATIONS
pairs_per_iteration: $PAIRS
nodes: $NODES
concurrency: 2
parameters { name: "lmr_base_x100" min: 0 max: 200 c_end: 10 }
parameters { name: "aspiration_window_cp" min: 10 max: 100 c_end: 5 }
CONFIG
now_ms() { date +%s%3N; }
run() {  # name command...
  local start; start=$(now_ms)
  "${@:2}" >"$WORK/$1.txt" 2>&1 || { echo "$1 failed: $(tail -3 "$WORK/$1.txt")"; exit 1; }
  echo $(( $(now_ms) - start ))
}
common=(spsa "$WORK/spsa.textproto" --arena="$ARENA")
local_ms=$(run local "$TUNER" "${common[@]}" --state="$WORK/l.state" --work_dir="$WORK/l")
# Timed inside the allocation, as a user of salloc sees it: the allocation's own wait is
# paid once per run, not per iteration (and sbatch --wait adds up to 30 s of polling).
sbatch --wait --ntasks=2 --output="$WORK/srun.out" --wrap="start=\$(date +%s%3N); $(printf '%q ' \
  "$TUNER" "${common[@]}" --state="$WORK/r.state" --work_dir="$WORK/r" --shards=2 \
  --srun) && echo srun_ms=\$(( \$(date +%s%3N) - start ))" >/dev/null
srun_ms=$(grep -oP '^srun_ms=\K[0-9]+' "$WORK/srun.out") ||
  { echo "srun failed: $(tail -3 "$WORK/srun.out")"; exit 1; }
sbatch_ms=$(run sbatch "$TUNER" "${common[@]}" --state="$WORK/s.state" --work_dir="$WORK/s" \
  --shards=2)
cmp -s "$WORK/l/final.textproto" "$WORK/r/final.textproto" &&
  cmp -s "$WORK/l/final.textproto" "$WORK/s/final.textproto" ||
  echo "WARNING: the three runs ended in different places"
printf 'SPSA, %d iterations of %d pairs at %d nodes (2 CPUs)\n' "$ITERATIONS" "$PAIRS" "$NODES"
printf '%-34s %12s %7s\n' "where" "s/iteration" "ratio"
for row in "in process:$local_ms" "srun steps in an allocation:$srun_ms" \
           "sbatch per iteration:$sbatch_ms"; do
  ms=${row##*:}
  awk -v n="${row%:*}" -v ms="$ms" -v it="$ITERATIONS" -v base="$local_ms" \
    'BEGIN { printf "%-34s %12.2f %6.2fx\n", n, ms / 1000 / it, ms / base }'
done
rm -rf "$WORK"
