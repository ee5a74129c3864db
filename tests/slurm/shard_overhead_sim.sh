#!/usr/bin/env bash
# Benchmark, not a test: the per-shard costs that docs/scale.md extrapolates from, on one
# machine. The same tiny-node-limit match played by one arena (concurrency 2) and as 64
# shards run two at a time; the difference per shard is what a shard costs beyond its
# games (process start, config and book, log header, fsyncs). Then the merge of the 64 logs.
#   bash tests/slurm/shard_overhead_sim.sh [ARENA] [SHARDS=64] [GAMES=1280]
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ARENA="${1:-}"
SHARDS="${2:-64}"
GAMES="${3:-1280}"
if [[ -z "$ARENA" ]]; then
  bazel build //arena >/dev/null 2>&1 || exit 1
  ARENA="$ROOT/bazel-bin/arena/arena"
fi
WORK=$(mktemp -d)
cat >"$WORK/m.textproto" <<CONFIG
players { name: "default" config_file: "$ROOT/configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "pesto" config_file: "$ROOT/configs/engines/pesto.textproto"
          overrides { search { hash_mb: 1 } } }
games: $GAMES
openings { file: "$ROOT/configs/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: 100 }
adjudication { max_moves: 60 }
seed: 1
CONFIG
now_ms() { date +%s%3N; }
start=$(now_ms)
"$ARENA" "$WORK/m.textproto" --output_dir="$WORK/one" --concurrency=2 --progress=false >/dev/null
one_ms=$(( $(now_ms) - start ))
start=$(now_ms)
seq 0 $((SHARDS - 1)) | xargs -P 2 -I{} "$ARENA" "$WORK/m.textproto" --shard={}/$SHARDS \
    --output_dir="$WORK/sharded/shard-{}" --concurrency=1 --progress=false >/dev/null
sharded_ms=$(( $(now_ms) - start ))
start=$(now_ms)
"$ARENA" merge "$WORK/sharded" --output_dir="$WORK/merged" >/dev/null 2>&1 || echo "merge failed"
merge_ms=$(( $(now_ms) - start ))
cmp -s <("$ARENA" summary "$WORK/one") <("$ARENA" summary "$WORK/merged") ||
  echo "WARNING: merged standings differ from the single run"
awk -v g=$GAMES -v s=$SHARDS -v o=$one_ms -v sh=$sharded_ms -v m=$merge_ms 'BEGIN {
  printf "%d games at nodes=100: one arena (c=2) %.2f s; %d shards two at a time %.2f s\n",
         g, o / 1000, s, sh / 1000
  printf "per game: %.2f ms of core time; per shard beyond its games: %.1f ms of core time\n",
         2 * o / g, 2 * (sh - o) / s
  printf "merge of %d shard logs (%d games): %.2f s\n", s, g, m / 1000 }'
rm -rf "$WORK"
