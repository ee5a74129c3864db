#!/usr/bin/env bash
# Benchmark, not a test: what Slurm costs. The same games played by one arena with
# concurrency N and by N shards of concurrency 1 through sbatch on the local one-node
# cluster (submission, scheduling, N logs and the merge job included), measured in the
# same run; prints games/hour of both and their ratio. Root; starts and stops the cluster.
#   bash tests/slurm/overhead_bench.sh [ARENA] [SECONDS_PER_RUN=30]
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ARENA="${1:-}"
SECONDS_PER_RUN="${2:-30}"
if [[ -z "$ARENA" ]]; then
  bazel build //arena >/dev/null 2>&1 || exit 1
  ARENA="$ROOT/bazel-bin/arena/arena"
fi
CLUSTER=$(mktemp -d /tmp/chess-harness-slurm-bench.XXXXXX)
env_line=$(bash tests/slurm/cluster.sh up "$CLUSTER") || { echo "Slurm cannot start here"; exit 1; }
eval "$env_line"
trap 'bash tests/slurm/cluster.sh down "$CLUSTER" 2>/dev/null; rm -rf "$CLUSTER"' EXIT
WORK=$(mktemp -d /tmp/chess-harness-slurm-bench-work.XXXXXX)
now_ms() { date +%s%3N; }
printf '%-6s %3s %7s %14s %14s %7s\n' nodes N games "arena g/h" "slurm g/h" ratio
# Games per core per run, sized from the arena's measured speed (about 55 games/s
# per core at 1000 nodes, 6 at 10000) to last SECONDS_PER_RUN.
for nodes in 1000 10000; do
  for n in 1 2; do
    per_core=$(( nodes == 1000 ? 55 : 6 ))
    games=$(( per_core * n * SECONDS_PER_RUN / 2 * 2 ))
    cat >"$WORK/m-$nodes-$n.textproto" <<CONFIG
players { name: "default" config_file: "$ROOT/configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "pesto" config_file: "$ROOT/configs/engines/pesto.textproto"
          overrides { search { hash_mb: 1 } } }
games: $games
openings { file: "$ROOT/configs/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: $nodes }
adjudication { max_moves: 150 }
seed: 9
CONFIG
    start=$(now_ms)
    "$ARENA" "$WORK/m-$nodes-$n.textproto" --output_dir="$WORK/local-$nodes-$n" \
        --concurrency=$n --progress=false >/dev/null
    local_ms=$(( $(now_ms) - start ))
    # Timed from submission until the merge job has left the queue, polled every
    # 0.1 s (sbatch --wait polls every few seconds, which would be measured too).
    start=$(now_ms)
    "$ARENA" slurm "$WORK/m-$nodes-$n.textproto" --shards=$n --cpus_per_shard=1 \
        --output_dir="$WORK/slurm-$nodes-$n" >/dev/null 2>"$WORK/submit.err"
    merge_job=$(grep -oP 'merge: job \K[0-9]+' "$WORK/submit.err")
    while squeue -h -j "$merge_job" 2>/dev/null | grep -q .; do sleep 0.1; done
    slurm_ms=$(( $(now_ms) - start ))
    grep -q "games played" "$WORK"/slurm-$nodes-$n/merge-*.out || echo "slurm run failed"
    awk -v nodes=$nodes -v n=$n -v g=$games -v l=$local_ms -v s=$slurm_ms 'BEGIN {
      printf "%-6d %3d %7d %14.0f %14.0f %6.3fx\n", nodes, n, g, g * 3600000 / l,
             g * 3600000 / s, l / s }'
  done
done
rm -rf "$WORK"
