#!/usr/bin/env bash
# label_positions.py against Debian's Stockfish: scores from the side to move,
# the game result kept, a mate and malformed lines left out. Skips (passes,
# saying why) without Stockfish.
set -euo pipefail
SCRIPT="${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-chess_harness}/tests/strength/label_positions.py"
[[ -f "$SCRIPT" ]] || SCRIPT="$(dirname "$0")/label_positions.py"
if [[ ! -x /usr/games/stockfish ]]; then
  echo "SKIP: /usr/games/stockfish is not installed (apt install stockfish)"
  exit 0
fi
DIR="${TEST_TMPDIR:-$(mktemp -d)}"
cat >"$DIR/in.epd" <<'POSITIONS'
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; c9 "1/2-1/2";
6k1/5ppp/8/8/8/8/8/R5K1 w - - c9 "1-0";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - ce 7; c9 "0-1";
POSITIONS
python3 "$SCRIPT" "$DIR/in.epd" "$DIR/out.epd" --depth 4 --jobs 2 --chunk 1 2>/dev/null
cat "$DIR/out.epd"
fail() { echo "FAIL: $*"; exit 1; }
[[ $(wc -l <"$DIR/out.epd") -eq 2 ]] || fail "the mate in one is not left out"
ce() { sed -n "$1p" "$DIR/out.epd" | sed -E 's/.* ce (-?[0-9]+);.*/\1/'; }
start=$(ce 1)
knight=$(ce 2)
((start > -100 && start < 100)) || fail "start position scored $start"
((knight > 150)) || fail "Black to move, a knight up, scored $knight (side to move's view)"
grep -q '^rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ce -\?[0-9]*; hmvc 0; fmvn 1; c9 "1/2-1/2";$' \
  "$DIR/out.epd" || fail "opcodes not kept"
[[ $(grep -c ' ce ' "$DIR/out.epd") -eq 2 && $(grep -c 'ce 7;' "$DIR/out.epd") -eq 0 ]] ||
  fail "the old ce is not replaced"
echo "PASS"
