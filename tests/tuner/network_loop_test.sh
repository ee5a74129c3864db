#!/usr/bin/env bash
# `tuner loop` with a network: each generation the best makes its own data, a
# perspective network is trained on it, and an SPRT decides. The record holds
# every generation's data sets and provenance; a rerun into the same directory
# resumes (nothing trained or played again) and ends with the same table; the
# config's mistakes exit 2 naming the field.
set -uo pipefail
TUNER="$PWD/$1"
UCI="$PWD/$2"
ROOT="$PWD"
WORK="${TEST_TMPDIR:-$(mktemp -d)}/network_loop"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# Shorter under a sanitizer (5-20x slower code).
games=16; [[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && games=4

# Data made before the loop, which every generation trains on besides its own.
cat >before.textproto <<CONFIG
player { name: "pesto" config_file: "$ROOT/configs/engines/pesto.textproto" }
games: 4
soft_nodes: 300
CONFIG
"$TUNER" datagen before.textproto --output_dir=before >/dev/null 2>&1 ||
  fail "datagen before the loop failed"
cat >loop.textproto <<CONFIG
name: "tiny-net"
start_config: "$ROOT/configs/engines/pesto.textproto"
book: "$ROOT/configs/openings/balanced.epd"
generations: 2
selfplay_nodes: 500
sprt_games: $games
concurrency: 2
datagen { games: $games soft_nodes: 300 random_plies: 8 seed: 5 }
held_out_games: 4
initial_data: "before/data.bin"
network {
  layout: PERSPECTIVE whole_evaluation: true hidden_size: 32 epochs: 2
  batch_size: 64 learning_rate: 0.01 schedule: COSINE weight_decay: 0.01 threads: 2
}
CONFIG
"$TUNER" loop loop.textproto --output_dir=run >first.txt 2>first.err ||
  fail "the network loop failed: $(tail -3 first.err)"
for g in 1 2; do
  [[ -s run/gen$g/data.bin && -s run/gen$g/held_out.bin ]] || fail "generation $g made no data"
  [[ -s run/gen$g.textproto ]] || fail "generation $g wrote no network"
  grep -q "layout: PERSPECTIVE" run/gen$g.textproto || fail "gen$g is not a perspective network"
done
[[ -n "$("$UCI" --config=run/gen1.textproto bench 2>&1 | grep -o '^[0-9]* nodes')" ]] ||
  fail "generation 1's network does not play"
# Generation 2 trains on both generations' data and the data made before; the record says so.
grep -c '^  data: "run/gen[12]/data.bin"' run/report.textproto | grep -qx 3 ||
  fail "the record lacks the data sets: $(grep 'data:' run/report.textproto)"
grep -c '^  data: ".*before/data.bin"' run/report.textproto | grep -qx 2 ||
  fail "the record lacks the data sets: $(grep 'data:' run/report.textproto)"
# Generation 2 trained on both generations' data, each named by its command and seed.
(( $(grep -o 'provenance: "data: datagen: self-play of [^;]*seed [0-9]*' run/report.textproto |
     sort -u | wc -l) >= 2 )) ||
  fail "the record lacks the provenance: $(grep provenance run/report.textproto | head -3)"
grep -q 'provenance: "settings: perspective, hidden 32' run/report.textproto ||
  fail "the record lacks the settings"

"$TUNER" report run --out=report.html >/dev/null 2>&1 || fail "no report of the run"
grep -q '<h2 id="networks">' report.html || fail "the report shows no networks"
grep -q 'settings: perspective, hidden 32' report.html || fail "the report lacks the provenance"

# A rerun resumes: no game played and no network trained again, the same table.
"$TUNER" loop loop.textproto --output_dir=run >again.txt 2>again.err ||
  fail "the resumed loop failed: $(tail -3 again.err)"
grep -q "the network trained before" again.err || fail "a network was trained again"
grep -q "training on" again.err && fail "the rerun trained"
cmp -s first.txt again.txt || fail "the resumed table differs: $(diff first.txt again.txt)"

refused() {  # NEEDLE CONFIG
  printf '%s\n' "$2" >bad.textproto
  "$TUNER" loop bad.textproto --output_dir=bad >bad.txt 2>&1
  local rc=$?
  (( rc == 2 )) || fail "expected exit 2 for '$1', got $rc: $(cat bad.txt)"
  grep -qF -- "$1" bad.txt || fail "message lacks '$1': $(cat bad.txt)"
}
refused "a network loop needs \`datagen\`" 'network { hidden_size: 32 }'
refused "loop config: network settings: hidden_size = 33" \
  'datagen { games: 2 } network { hidden_size: 33 }'
refused "loop config: held_out_games = 0 is below 2" \
  'datagen { games: 2 } network { hidden_size: 32 } held_out_games: 0'
refused "is not a PERSPECTIVE network of that size" "start_config: \"$ROOT/configs/engines/default.textproto\"
  datagen { games: 2 } network { layout: PERSPECTIVE hidden_size: 32 continue_from_start: true }"
(( failures == 0 )) || exit 1
echo "PASS: network loop"
