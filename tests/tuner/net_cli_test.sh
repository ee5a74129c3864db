#!/usr/bin/env bash
# `tuner net` end to end: a network trained on top of `gen1` from scratch
# and one that goes on from `gen1`'s own (continue_from_start): with no
# epochs that is `gen1` again, move for move; settings that cannot continue
# (another hidden size, a start config without a network) are refused with
# exit 2, naming the field.
set -uo pipefail
TUNER="$PWD/$1"
UCI="$PWD/$2"
START="$PWD/tests/data/engines/gen1.textproto"
PESTO="$PWD/configs/engines/pesto.textproto"
WORK="${TEST_TMPDIR:-$(mktemp -d)}/net_cli"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A few positions with made-up scores, enough for a batch or two.
for i in $(seq 1 40); do
  cat <<DATA
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce $((i % 7 - 3)); c9 "1/2-1/2";
r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - ce $((20 + i)); c9 "1-0";
8/5k2/8/3P4/8/8/5K2/8 w - - ce $((150 + i)); c9 "1-0";
4k3/8/8/8/8/8/4q3/4K3 w - - ce -$((900 + i)); c9 "0-1";
DATA
done >data.epd

settings() {  # HIDDEN EPOCHS CONTINUE
  printf 'hidden_size: %s\nepochs: %s\nbatch_size: 32\ncontinue_from_start: %s\nresult_weight: 0\n' \
    "$1" "$2" "$3" >settings.textproto
}
bench() { "$UCI" --config="$1" bench 2>&1 | grep -o '^[0-9]* nodes'; }

settings 64 0 true
"$TUNER" net --data=data.epd --start="$START" --out=same.textproto \
  --settings=settings.textproto >same.txt 2>&1 || fail "0 epochs from gen1: $(tail -2 same.txt)"
grep -q "^start network: train" same.txt || fail "no start network loss: $(cat same.txt)"
want=$(bench "$START"); got=$(bench same.textproto)
echo "bench: gen1 $want, gen1's network gone on 0 epochs $got"
[[ -n "$want" && "$want" == "$got" ]] || fail "the network changed with no epochs: $want vs $got"

settings 64 2 true
"$TUNER" net --data=data.epd --start="$START" --out=more.textproto \
  --settings=settings.textproto >more.txt 2>&1 || fail "2 epochs from gen1: $(tail -2 more.txt)"
grep -q "^positions 160 " more.txt || fail "unexpected summary: $(cat more.txt)"
[[ -n "$(bench more.textproto)" ]] || fail "the continued network does not play"

settings 32 1 false
"$TUNER" net --data=data.epd --start="$START" --out=fresh.textproto \
  --settings=settings.textproto >fresh.txt 2>&1 || fail "a fresh 32-unit network: $(tail -2 fresh.txt)"
grep -q "^start network" fresh.txt && fail "a fresh network reported a start network"
# Each network says what trained it; one that goes on from another keeps its lines.
grep -q 'provenance: "data: ' fresh.textproto ||
  fail "no data in the provenance: $(grep provenance fresh.textproto)"
grep -q 'provenance: "start: random weights (seed ' fresh.textproto ||
  fail "no start in the provenance: $(grep provenance fresh.textproto)"
grep -q 'provenance: "start: the network of ' more.textproto ||
  fail "a continued network does not name its start: $(grep provenance more.textproto)"

refused() {  # START NEEDLE
  "$TUNER" net --data=data.epd --start="$1" --out=refused.textproto \
    --settings=settings.textproto >refused.txt 2>&1
  local rc=$?
  (( rc == 2 )) || fail "expected exit 2 for $2, got $rc: $(cat refused.txt)"
  grep -qF -- "$2" refused.txt || fail "message lacks '$2': $(cat refused.txt)"
  [[ -e refused.textproto ]] && fail "a refused run wrote its --out"
  echo "refused: $(head -1 refused.txt)"
}
settings 96 1 true
"$TUNER" net --data=data.epd --start="$START" --out=wide.textproto \
  --settings=settings.textproto >wide.txt 2>&1 || fail "widened to 96 units: $(tail -2 wide.txt)"
grep -q "hidden_size: 96" wide.textproto || fail "the widened network is not 96 units"
[[ -n "$(bench wide.textproto)" ]] || fail "the widened network does not play"
settings 32 1 true
refused "$START" "a network can be widened, not narrowed"
settings 64 1 true
refused "$PESTO" "no eval.network to continue from"

# A perspective network as the whole evaluation: it plays, says so in its
# provenance, and goes on only from a perspective network of its size.
cat >perspective.textproto <<'SETTINGS'
layout: PERSPECTIVE
whole_evaluation: true
hidden_size: 64
epochs: 2
batch_size: 32
schedule: COSINE
weight_decay: 0.01
threads: 2
SETTINGS
"$TUNER" net --data=data.epd --start="$PESTO" --out=whole.textproto \
  --settings=perspective.textproto >whole.txt 2>&1 || fail "a perspective network: $(tail -2 whole.txt)"
grep -q "a score of 0: train" whole.txt || fail "no zero baseline: $(cat whole.txt)"
grep -q "positions/s" whole.txt || fail "no training speed: $(cat whole.txt)"
grep -q "layout: PERSPECTIVE" whole.textproto || fail "not a perspective network"
grep -q "whole_evaluation: true" whole.textproto || fail "not the whole evaluation"
grep -q 'provenance: "settings: perspective, hidden 64, .*the whole evaluation"' whole.textproto ||
  fail "the provenance lacks the layout: $(grep provenance whole.textproto)"
[[ -n "$(bench whole.textproto)" ]] || fail "the perspective network does not play"
# The same from a spool on disk, 50 positions a block (a set larger than memory).
{ cat perspective.textproto; printf 'stream_block_positions: 50\nking_buckets: [%s]\noutput_buckets: 8\n' \
    "$(python3 -c "print(','.join(str(s // 32) for s in range(64)))")"; } >streamed.textproto
"$TUNER" net --data=data.epd --start="$PESTO" --out=streamed_net.textproto \
  --settings=streamed.textproto >streamed.txt 2>&1 || fail "a streamed, bucketed network: $(tail -2 streamed.txt)"
grep -q "^160 positions in 4 blocks on disk" streamed.txt || fail "not streamed: $(head -2 streamed.txt)"
grep -q "output_buckets: 8" streamed_net.textproto || fail "the streamed network lost its buckets"
[[ -n "$(bench streamed_net.textproto)" ]] || fail "the streamed, bucketed network does not play"
printf 'continue_from_start: true\n' >>perspective.textproto
"$TUNER" net --data=data.epd --start=whole.textproto --out=whole2.textproto \
  --settings=perspective.textproto >whole2.txt 2>&1 || fail "perspective continued: $(tail -2 whole2.txt)"
grep -q "^start network: train" whole2.txt || fail "no start network loss: $(cat whole2.txt)"
cp perspective.textproto settings.textproto
refused "$START" "is not a PERSPECTIVE network of that size"

# Malformed lines are reported, not skipped without a word; a dataset with no
# valid position is refused (it once wrote an untrained network, exit 0).
settings 32 1 false
{ echo "not a position"; head -4 data.epd; } >mixed.epd
"$TUNER" net --data=mixed.epd --start="$START" --out=mixed.textproto \
  --settings=settings.textproto >mixed.txt 2>&1 || fail "a mixed dataset: $(tail -2 mixed.txt)"
grep -q "^mixed.epd:1: " mixed.txt || fail "the malformed line went unreported: $(cat mixed.txt)"
printf 'junk\nmore junk\n' >junk.epd
cp "$START" refused.textproto && before=$(md5sum <refused.textproto)
"$TUNER" net --data=junk.epd --start="$START" --out=refused.textproto \
  --settings=settings.textproto >junk.txt 2>&1
rc=$?
(( rc == 2 )) || fail "expected exit 2 for a dataset without a position, got $rc: $(cat junk.txt)"
grep -q "no valid training position" junk.txt || fail "message: $(cat junk.txt)"
[[ "$(md5sum <refused.textproto)" == "$before" ]] || fail "a refused run changed its --out"
rm -f refused.textproto
# An output that cannot be written is an I/O error: exit 4, as in every program.
"$TUNER" net --data=data.epd --start="$START" --out=/proc/no/such/net.textproto \
  --settings=settings.textproto >io.txt 2>&1
rc=$?
(( rc == 4 )) || fail "expected exit 4 for an unwritable --out, got $rc: $(tail -2 io.txt)"

# No output replaces an input: --out naming --data, --valid or --start, or an
# extract input, is refused (exit 2) and the input stays as it was.
before=$(md5sum <data.epd)
for args in "--data=data.epd --out=data.epd" "--data=data.epd --valid=data.epd --out=./data.epd"; do
  "$TUNER" net $args --start="$START" --settings=settings.textproto >same_out.txt 2>&1; rc=$?
  (( rc == 2 )) && grep -q "is also an input" same_out.txt || fail "net $args: exit $rc: $(tail -2 same_out.txt)"
done
"$TUNER" texel --data=data.epd --out=data.epd --start="$START" >same_out.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "is also an input" same_out.txt || fail "texel --out=its data: exit $rc: $(tail -2 same_out.txt)"
"$TUNER" extract --out=data.epd data.epd >same_out.txt 2>&1; rc=$?
(( rc == 2 )) || fail "extract --out=its input: exit $rc: $(tail -2 same_out.txt)"
[[ "$(md5sum <data.epd)" == "$before" ]] || fail "an output replaced the training set"
"$TUNER" net --data=/tmp --start="$START" --out=dir.textproto --settings=settings.textproto >dir.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "is a directory" dir.txt || fail "--data=/tmp: exit $rc: $(tail -2 dir.txt)"

# A data set whose writer stopped mid-chunk: the loss is reported with exit 2 and
# nothing is written over; --accept_torn copies the whole chunks.
for i in $(seq 1 1100); do head -4 data.epd; done >big.epd
"$TUNER" extract --out=big.bin big.epd >/dev/null 2>&1 || fail "extract big.epd"
head -c -100 big.bin >torn.bin
echo "the user's file" >kept.txt
"$TUNER" extract --out=kept.txt torn.bin >torn.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "torn: .* bytes after its 1 whole chunks (4096 positions)" torn.txt ||
  fail "a torn set: exit $rc: $(cat torn.txt)"
[[ "$(cat kept.txt)" == "the user's file" ]] || fail "a torn set replaced the output"
"$TUNER" extract --accept_torn --out=whole.txt torn.bin >accepted.txt 2>&1; rc=$?
(( rc == 0 )) && grep -q "torn" accepted.txt && [[ "$(wc -l <whole.txt)" == 4096 ]] ||
  fail "--accept_torn: exit $rc, $(wc -l <whole.txt) lines: $(cat accepted.txt)"
head -c 100 big.bin >first.bin
"$TUNER" extract --out=kept.txt first.bin >first.txt 2>&1; rc=$?
(( rc == 2 )) && [[ "$(cat kept.txt)" == "the user's file" ]] ||
  fail "a set torn in its first chunk: exit $rc: $(cat first.txt)"
"$TUNER" extract --out=kept.txt junk.epd >junk_extract.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "no valid training position" junk_extract.txt &&
  [[ "$(cat kept.txt)" == "the user's file" ]] || fail "extract of no position: exit $rc: $(cat junk_extract.txt)"

(( failures == 0 )) && echo PASS
exit $(( failures > 0 ))
