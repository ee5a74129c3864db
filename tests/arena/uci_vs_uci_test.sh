#!/usr/bin/env bash
# Our UCI binary against itself through the arena: 160 fast games must have no illegal
# move, and their PGN must pass pgn-extract. Guards against output races in the UCI
# session (a duplicated "bestmove" line, once in ~1 % of games, was read by the arena as
# the answer to the next "go"; 160 games see such a race with 80 % probability, and every
# CI run plays them again). 400 games took 300 s of a loaded 2-core machine.
set -euo pipefail
ARENA="$PWD/$1"
UCI="$PWD/$2"
WORK="${TEST_TMPDIR:-$(mktemp -d)}"
GAMES=160  # fewer under a sanitizer (5-20x slower code)
[[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && GAMES=30
cat >"$WORK/match.textproto" <<CONFIG
players { name: "u1" external { argv: "$UCI" } }
players { name: "u2" external { argv: "$UCI" } }
games: $GAMES
openings { file: "$PWD/configs/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: 1000 }
adjudication { resign_score_cp: 1000 resign_moves: 4 max_moves: 150 }
concurrency: 2
CONFIG
"$ARENA" "$WORK/match.textproto" --output_dir="$WORK/out" --progress=false | tee "$WORK/report.txt"
grep -q "^Match (unnamed): $GAMES of $GAMES games played" "$WORK/report.txt" || { echo "FAIL: games missing"; exit 1; }
if grep -qE "ILLEGAL_MOVE|ENGINE_CRASH|ENGINE_TIMEOUT" "$WORK/report.txt"; then
  grep TerminationDetails "$WORK/out/games.pgn" | head -3
  echo "FAIL: the UCI engine misbehaved"
  exit 1
fi
# The PGN export must satisfy an independent reader (when pgn-extract is installed).
PGN_EXTRACT=$(command -v pgn-extract || echo /usr/games/pgn-extract)
if [[ -x "$PGN_EXTRACT" ]]; then
  complaints=$("$PGN_EXTRACT" -s "$WORK/out/games.pgn" -o /dev/null 2>&1)
  [[ -z "$complaints" ]] || { echo "FAIL: pgn-extract complains:"; echo "$complaints" | head; exit 1; }
  echo "pgn-extract: no complaints about $GAMES games"
else
  echo "pgn-extract not installed: PGN check skipped"
fi
echo "uci vs uci: PASS"
