#!/usr/bin/env bash
# network_data.py end to end, small: self-play, extraction, a held-out split
# and Stockfish's labels; run again, it skips the steps done; stopped while
# labelling, it labels only the rest; with --new_book, from its own openings,
# and with --judge_games, other games' positions held out too; with --previous,
# an earlier run's labels trained on and held out beside its own.
# Skips (passes, saying why) without Stockfish.
set -euo pipefail
ARENA="$PWD/$1"
TUNER="$PWD/$2"
SCRIPT="$PWD/tests/strength/network_data.py"
BOOK="$PWD/configs/openings/balanced.epd"
CONFIG="$PWD/configs/engines/default.textproto"
if [[ ! -x /usr/games/stockfish ]]; then
  echo "SKIP: /usr/games/stockfish is not installed (apt install stockfish)"
  exit 0
fi
OUT="${TEST_TMPDIR:-$(mktemp -d)}/network_data"
rm -rf "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
make_data() {
  python3 "$SCRIPT" "$OUT" --games 4 --nodes 300 --book "$BOOK" --seed 3 \
    --depth 2 --jobs 2 --valid_fraction 0.25 --config "$CONFIG" \
    --arena "$ARENA" --tuner "$TUNER"
}
make_data >"$OUT.cmd" 2>"$OUT.err" || fail "first run: $(tail -5 "$OUT.err")"
grep -q "tuner net --data=$OUT/train_labelled.epd --valid=$OUT/valid_labelled.epd" \
  "$OUT.cmd" || fail "no tuner net command: $(cat "$OUT.cmd")"
positions=$(wc -l <"$OUT/positions.epd")
train=$(wc -l <"$OUT/train.epd")
valid=$(wc -l <"$OUT/valid.epd")
echo "positions $positions, distinct: train $train, valid $valid"
((train > 50 && valid > 10)) || fail "too few positions: $train + $valid"
((train + valid <= positions)) || fail "more distinct positions than positions"
keys() { cut -d' ' -f1-4 "$@" | sort; }
[[ -z $(comm -12 <(keys "$OUT/train.epd") <(keys "$OUT/valid.epd")) ]] ||
  fail "a position is both trained on and held out"
[[ $(keys "$OUT/train.epd" | uniq -d | wc -l) -eq 0 ]] || fail "train.epd repeats a position"
for name in train valid; do
  labelled=$(grep -c ' ce -\?[0-9]*; .*c9 "' "$OUT/${name}_labelled.epd")
  ((labelled > 0)) || fail "$name: nothing labelled"
  ((labelled <= $(wc -l <"$OUT/$name.epd"))) || fail "$name: more labels than positions"
done

# Again: every step's output is there, so nothing is redone.
before=$(md5sum "$OUT/train_labelled.epd")
make_data >/dev/null 2>"$OUT.err2" || fail "second run: $(tail -5 "$OUT.err2")"
for step in self-play extraction split labelling; do
  grep -q "$step skipped" "$OUT.err2" || fail "second run redid $step"
done
[[ $(md5sum "$OUT/train_labelled.epd") == "$before" ]] || fail "second run changed the labels"

# Stopped while labelling the held-out positions: two of them done.
total=$(wc -l <"$OUT/valid_labelled.epd")
head -2 "$OUT/valid_labelled.epd" >"$OUT/valid_labelled.partial.epd"
rm "$OUT/valid_labelled.epd"
make_data >/dev/null 2>"$OUT.err3" || fail "resumed run: $(tail -5 "$OUT.err3")"
grep -q "2 positions of valid labelled before: resumed" "$OUT.err3" || fail "not resumed"
[[ $(wc -l <"$OUT/valid_labelled.epd") -eq $total ]] ||
  fail "resumed labels: $(wc -l <"$OUT/valid_labelled.epd") lines, not $total"
[[ $(keys "$OUT/valid_labelled.epd" | uniq -d | wc -l) -eq 0 ]] || fail "a position labelled twice"
[[ ! -e "$OUT/valid_labelled.partial.epd" && ! -e "$OUT/valid.rest.epd" ]] ||
  fail "work files left behind"

# Stopped twice: once after two labels, then after one more in the resumed run.
sed -n 1,2p "$OUT/valid_labelled.epd" >"$OUT/valid_labelled.partial.epd"
sed -n 3p "$OUT/valid_labelled.epd" >"$OUT/valid_labelled.more.epd"
rm "$OUT/valid_labelled.epd"
make_data >/dev/null 2>"$OUT.err4" || fail "run after two stops: $(tail -5 "$OUT.err4")"
grep -q "3 positions of valid labelled before: resumed" "$OUT.err4" ||
  fail "the resumed run's labels were not kept"
[[ $(wc -l <"$OUT/valid_labelled.epd") -eq $total ]] ||
  fail "labels after two stops: $(wc -l <"$OUT/valid_labelled.epd") lines, not $total"
[[ $(keys "$OUT/valid_labelled.epd" | uniq -d | wc -l) -eq 0 ]] || fail "a position labelled twice"
[[ ! -e "$OUT/valid_labelled.more.epd" ]] || fail "work files left behind"

# New openings from `arena book`, games against Stockfish at UCI_Elo 2000, at
# most 5 positions a game; the first run's games judge the network too, and its
# labels are trained on and held out too (--previous), so only its held-out
# positions can judge.
NEW="$OUT.new_book"
rm -rf "$NEW"
python3 "$SCRIPT" "$NEW" --games 4 --nodes 300 --new_book 3 --book_plies 6 \
  --max_per_game 5 --opponent_elo 2000 --opponent_nodes 1000 --seed 4 --depth 2 \
  --jobs 2 --valid_fraction 0.25 \
  --judge_games "$OUT/games/games.log" --previous "$OUT" --config "$CONFIG" --arena "$ARENA" \
  --tuner "$TUNER" >"$NEW.cmd" 2>"$NEW.err" || fail "--new_book run: $(tail -5 "$NEW.err")"
grep -q -- "--data=$NEW/train_labelled.epd,$OUT/train_labelled.epd --valid=$NEW/valid_labelled.epd,$NEW/judge_labelled.epd,$OUT/valid_labelled.epd .*network_continue.textproto" "$NEW.cmd" ||
  fail "judge_labelled.epd or --previous not in the command: $(cat "$NEW.cmd")"
(($(wc -l <"$NEW/judge_labelled.epd") > 0)) || fail "no judge positions"
[[ -z $(comm -12 <(keys "$NEW/train.epd" "$OUT/train_labelled.epd") <(keys "$NEW/judge.epd")) ]] ||
  fail "a judge position is trained on"
[[ $(wc -l <"$NEW/book.epd") -eq 3 ]] || fail "book.epd: $(wc -l <"$NEW/book.epd") lines, not 3"
grep -q "file: \"$NEW/book.epd\"" "$NEW/selfplay.textproto" || fail "self-play not from book.epd"
grep -q 'value: "2000"' "$NEW/selfplay.textproto" || fail "no Stockfish at UCI_Elo 2000"
[[ $(grep -c '^\[Black "stockfish-2000"\]' "$NEW/games/games.pgn") -eq 2 ]] ||
  fail "Stockfish did not play Black twice: $(grep Termination "$NEW/games/games.pgn")"
! grep -q "did not start" "$NEW/games/games.pgn" || fail "Stockfish did not start"
((5 < $(wc -l <"$NEW/positions.epd") && $(wc -l <"$NEW/positions.epd") <= 20)) ||
  fail "--max_per_game 5 of 4 games gave $(wc -l <"$NEW/positions.epd") positions"
[[ -s "$NEW/train_labelled.epd" && -s "$NEW/valid_labelled.epd" ]] || fail "--new_book: no labels"
echo "PASS"
