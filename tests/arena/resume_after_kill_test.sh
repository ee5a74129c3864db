#!/usr/bin/env bash
# Kills the arena with SIGKILL at random moments, resumes it each time, and checks that
# the finished match holds exactly the scheduled games, none twice, and the same games as
# an uninterrupted run.
set -euo pipefail
ARENA="$PWD/$1"
CONFIGS="$PWD/configs"
WORK="${TEST_TMPDIR:-$(mktemp -d)}"
# Short games (a third of a second each), so that the kills below land while games
# finish and their records are written. Under a sanitizer the code is 5-20x slower:
# fewer, shorter games, the same checks.
GAMES=24 NODES=3000
[[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && GAMES=12 NODES=800
cat >"$WORK/match.textproto" <<CONFIG
name: "resume"
players { name: "default" config_file: "$CONFIGS/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "pesto-noisy" config_file: "$CONFIGS/engines/pesto.textproto"
          overrides { search { hash_mb: 1 eval_noise_cp: 10 } } }
games: $GAMES
openings { file: "$CONFIGS/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: $NODES }
adjudication { max_moves: 100 }
concurrency: 2
seed: 11
CONFIG

moves_only() {  # the games without timings, which differ between runs
  "$ARENA" pgn "$1/games.log" | grep -v '^\[Date ' | sed -e 's/{[^}]*}//g'
}

start_ns=$(date +%s%N)
"$ARENA" "$WORK/match.textproto" --output_dir="$WORK/straight" --progress=false >/dev/null
# The kills land within a quarter of the time an uninterrupted run takes (at least
# 0.2 s), so that several land before the match ends: a fixed span would outlast the
# whole match on a fast machine (24 games took under a second on one). A quarter, not a
# third: on a machine whose load falls after the uninterrupted run, the killed runs go
# faster than it did (with a third, a run loaded by another job saw only 2 kills).
straight_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
(( straight_ms >= 200 )) || straight_ms=200

RANDOM=42
kills=0
for attempt in $(seq 1 40); do
  "$ARENA" "$WORK/match.textproto" --output_dir="$WORK/killed" --progress=false \
      >/dev/null 2>&1 &
  pid=$!
  delay_ms=$(( (RANDOM * 32768 + RANDOM) % (straight_ms / 4) ))
  sleep "$(printf '%d.%03d' $(( delay_ms / 1000 )) $(( delay_ms % 1000 )))"
  if kill -9 "$pid" 2>/dev/null; then
    kills=$((kills + 1))
    wait "$pid" 2>/dev/null || true
  else
    wait "$pid" || { echo "FAIL: the arena failed on its own"; exit 1; }
    break
  fi
done
"$ARENA" "$WORK/match.textproto" --output_dir="$WORK/killed" --progress=false \
    >"$WORK/final.txt"
echo "killed $kills times (an uninterrupted run took $straight_ms ms)"
cat "$WORK/final.txt"
grep -q "^Match resume: $GAMES of $GAMES games played" "$WORK/final.txt" ||
  { echo "FAIL: not exactly $GAMES games"; exit 1; }
"$ARENA" summary "$WORK/killed/games.log" | grep -q "duplicate" &&
  { echo "FAIL: duplicate games in the log"; exit 1; }
(( kills >= 3 )) || { echo "FAIL: the arena was killed only $kills times"; exit 1; }
if ! diff <(moves_only "$WORK/straight") <(moves_only "$WORK/killed") >"$WORK/diff.txt"; then
  echo "FAIL: resumed games differ from an uninterrupted run"; head -20 "$WORK/diff.txt"; exit 1
fi
echo "resume after SIGKILL: PASS"
