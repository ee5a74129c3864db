#!/bin/bash
# Benchmark (not a test): our perft against Stockfish's "go perft" in the same run.
#   bazel run //engine:perft_bench [-- --repeat=5]
# Both count the same trees with bulk counting at the last ply. Each figure is the best of
# --repeat runs; Stockfish's process start-up (NNUE loading) is measured and subtracted.
set -euo pipefail
perft="$(cd "$(dirname "$0")" && pwd)/perft"
[ -x "$perft" ] || perft="${RUNFILES_DIR:-$0.runfiles}/chess_harness/engine/perft"
stockfish="${STOCKFISH:-/usr/games/stockfish}"
repeat=3
for arg in "$@"; do
  case "$arg" in
    --repeat=*) repeat="${arg#*=}" ;;
    *) echo "usage: perft_bench [--repeat=N]" >&2; exit 2 ;;
  esac
done
[ -x "$stockfish" ] || { echo "perft_bench: $stockfish not found (apt-get install stockfish)" >&2; exit 2; }

now() { date +%s%N; }

best_ns() {  # runs "$@" $repeat times, prints the fastest wall time in ns
  local best=0 start elapsed
  for _ in $(seq "$repeat"); do
    start=$(now)
    "$@" >/dev/null
    elapsed=$(( $(now) - start ))
    if [ "$best" -eq 0 ] || [ "$elapsed" -lt "$best" ]; then best=$elapsed; fi
  done
  echo "$best"
}

sf_run() { printf '%s\n' "$1" "$2" quit | "$stockfish"; }

startup=$(best_ns sf_run "position startpos" "isready")
printf '%-10s %5s %12s %12s %12s %7s\n' position depth nodes "ours Mnps" "sf Mnps" ratio
while read -r name depth fen; do
  nodes=$("$perft" --fen="$fen" --depth="$depth" | sed -n 's/^Nodes searched: //p')
  sf_nodes=$(sf_run "position fen $fen" "go perft $depth" | sed -n 's/^Nodes searched: //p')
  if [ "$nodes" != "$sf_nodes" ]; then
    echo "perft_bench: node counts differ on $name: ours $nodes, stockfish $sf_nodes" >&2
    exit 1
  fi
  ours=$(best_ns "$perft" --fen="$fen" --depth="$depth")
  theirs=$(( $(best_ns sf_run "position fen $fen" "go perft $depth") - startup ))
  awk -v n="$nodes" -v o="$ours" -v t="$theirs" -v name="$name" -v d="$depth" 'BEGIN {
    printf "%-10s %5d %12d %12.1f %12.1f %6.2fx\n", name, d, n, n / o * 1e3, n / t * 1e3, t / o }'
done <<'POSITIONS'
startpos 6 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
kiwipete 5 r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
POSITIONS
echo "(ratio = Stockfish time / our time; start-up of $((startup / 1000000)) ms subtracted from Stockfish)"
