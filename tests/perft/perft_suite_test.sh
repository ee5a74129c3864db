#!/bin/bash
# Runs the perft binary on the project's suites (standard, then Chess960); it exits
# non-zero on any differing count.
# Under a sanitizer (5-20x slower code) the depth-5 counts, millions of nodes each, are
# left out: depth 4 already reaches every move kind of every position.
set -eu
perft="$1"
suite="$2"
max_depth=99
[[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && max_depth=4
"$perft" --epd="$suite" --max_depth="$max_depth"
# Chess960 and double Chess960: Shredder-FEN and X-FEN, king takes own rook.
[[ $# -ge 3 ]] && "$perft" --chess960 --epd="$3" --max_depth="$max_depth"
