#!/usr/bin/env bash
# Benchmark, not a test: what several nodes cost against one. The same node-limited match,
# 2 shards through sbatch, on the one-node cluster (tests/slurm/cluster.sh, both cores one
# node) and on two nodes in network namespaces (tests/slurm/netns_cluster.sh, a core
# each), timed from submission until the merge job has left the queue; alternating, RUNS
# times each. Prints games/hour of both and the ratio. Root; starts and stops each cluster.
#   bash tests/slurm/cluster_overhead_bench.sh [ARENA] [RUNS=3] [GAMES=1600]
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ARENA="${1:-}"
RUNS="${2:-3}"
GAMES="${3:-1600}"
if [[ -z "$ARENA" ]]; then
  bazel build //arena >/dev/null 2>&1 || exit 1
  ARENA="$ROOT/bazel-bin/arena/arena"
fi
WORK=$(mktemp -d /tmp/chess-harness-cluster-bench.XXXXXX)
ONE="$WORK/one" SEVERAL="$WORK/several"
mkdir -p "$ONE" "$SEVERAL"
trap 'bash tests/slurm/cluster.sh down "$ONE" 2>/dev/null
      bash tests/slurm/netns_cluster.sh down "$SEVERAL" 2>/dev/null; rm -rf "$WORK"' EXIT
cat >"$WORK/m.textproto" <<CONFIG
players { name: "default" config_file: "$ROOT/configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "pesto" config_file: "$ROOT/configs/engines/pesto.textproto"
          overrides { search { hash_mb: 1 } } }
games: $GAMES
openings { file: "$ROOT/configs/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: 1000 }
adjudication { max_moves: 150 }
seed: 9
CONFIG
now_ms() { date +%s%3N; }
# One timed run on the cluster whose slurm.conf is $1; prints milliseconds.
timed_run() {
  local out="$WORK/run-$2" start merge_job
  rm -rf "$out"
  start=$(now_ms)
  SLURM_CONF="$1" "$ARENA" slurm "$WORK/m.textproto" --shards=2 --cpus_per_shard=1 \
      --output_dir="$out" >/dev/null 2>"$WORK/submit.err" || { echo "submit failed" >&2; return 1; }
  merge_job=$(grep -oP 'merge: job \K[0-9]+' "$WORK/submit.err")
  while SLURM_CONF="$1" squeue -h -j "$merge_job" 2>/dev/null | grep -q .; do sleep 0.1; done
  grep -q "games played" "$out"/merge-*.out || { echo "run failed" >&2; return 1; }
  echo $(( $(now_ms) - start ))
}
printf '%-4s %14s %14s %7s\n' run "1 node g/h" "2 nodes g/h" ratio
for run in $(seq 1 "$RUNS"); do
  bash tests/slurm/cluster.sh up "$ONE" >/dev/null 2>&1 || { echo "the one-node cluster did not start"; exit 1; }
  one_ms=$(timed_run "$ONE/slurm.conf" one) || exit 1
  bash tests/slurm/cluster.sh down "$ONE" 2>/dev/null
  bash tests/slurm/netns_cluster.sh up "$SEVERAL" 2 >/dev/null 2>&1 || { echo "the 2-node cluster did not start"; exit 1; }
  several_ms=$(timed_run "$SEVERAL/slurm.conf" several) || exit 1
  bash tests/slurm/netns_cluster.sh down "$SEVERAL" 2>/dev/null
  awk -v r=$run -v g=$GAMES -v a=$one_ms -v b=$several_ms 'BEGIN {
    printf "%-4d %14.0f %14.0f %6.3fx\n", r, g * 3600000 / a, g * 3600000 / b, a / b }'
done
