#!/usr/bin/env bash
# bullet's network file both ways, end to end: a network another tool wrote
# (tests/tuner/bullet_reference.py, bullet's formula with nothing of ours)
# evaluates in our engine through EvalFile exactly as that formula says, on
# positions of a book nobody here chose; `default` exported and played through
# EvalFile searches the same tree; import and export give back the same bytes;
# bad files get exit 2 and a clear message, and nothing is overwritten.
set -uo pipefail
TUNER="$PWD/$1"
UCI="$PWD/$2"
REFERENCE="$PWD/$3"
DEFAULT="$PWD/configs/engines/default.textproto"
PESTO="$PWD/configs/engines/pesto.textproto"
BOOK="$(dirname "$(readlink -f "$DEFAULT")")/../../../shared/books/2moves_v1.epd.zip"
WORK="${TEST_TMPDIR:-$(mktemp -d)}/bullet_network"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Positions: every 200th opening of a public book (skipped, saying why, when
# ../shared is absent), and a few of ours that reach the endgame.
cat >fens.txt <<'FENS'
8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 5 50
r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 4 9
6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 30
FENS
if [[ -f "$BOOK" ]]; then
  python3 -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); lines = z.read(z.namelist()[0]).decode().splitlines(); print('\n'.join(' '.join(l.split()[:4]) + ' 0 1' for l in lines[::200]))" \
    "$BOOK" >>fens.txt
else
  echo "SKIP (book positions): $BOOK is absent; checking $(wc -l <fens.txt) positions of ours"
fi
evaluations() {  # CONFIG_OPTIONS... < FENS: each position's Final evaluation
  { printf '%s\n' "$@"; while read -r fen; do printf 'position fen %s\neval\n' "$fen"; done; echo quit; } |
    "$UCI" | grep -oP '^Final evaluation: \K-?[0-9]+'
}

# Someone else's network, QA 255, QB 64, scale 400 (EvalFile's defaults), and
# QB 128, scale 300 (the options).
python3 "$REFERENCE" write 64 7 theirs.bin || fail "the reference wrote no network"
for q in "255 64 400" "255 128 300"; do
  read -r qa qb scale <<<"$q"
  python3 "$REFERENCE" eval theirs.bin $qa $qb $scale <fens.txt >want.txt
  evaluations "setoption name EvalFile value theirs.bin" "setoption name EvalFileQB value $qb" \
    "setoption name EvalFileScale value $scale" <fens.txt >got.txt
  n=$(wc -l <want.txt)
  (( n >= 3 )) && cmp -s want.txt got.txt ||
    fail "QA $qa QB $qb scale $scale: $(diff want.txt got.txt | head -4) ($n positions)"
  echo "QA $qa QB $qb scale $scale: $n positions evaluate as bullet's formula says"
done

# With king buckets (4, by rank pairs; mirrored) and bullet's MaterialCount<8>.
layout=$(python3 -c "print(','.join(str(s // 16) for s in range(64)))")
python3 "$REFERENCE" write 32 8 buckets.bin "$layout" 8 || fail "the reference wrote no bucketed network"
python3 "$REFERENCE" eval buckets.bin 255 64 400 "$layout" 8 <fens.txt >want.txt
evaluations "setoption name EvalFileKingBuckets value $layout" "setoption name EvalFileOutputBuckets value 8" \
  "setoption name EvalFile value buckets.bin" <fens.txt >got.txt
cmp -s want.txt got.txt || fail "buckets: $(diff want.txt got.txt | head -4)"
echo "4 king buckets, 8 output buckets: $(wc -l <want.txt) positions evaluate as bullet's formula says"
"$TUNER" import-net --king_buckets="$layout" --output_buckets=8 --out=buckets.textproto buckets.bin \
  >/dev/null 2>&1 || fail "import-net of a bucketed file"
"$TUNER" export-net --out=buckets_again.bin buckets.textproto >/dev/null 2>&1 || fail "export of the bucketed import"
cmp -s buckets.bin buckets_again.bin || fail "a bucketed file changed through import and export"
"$TUNER" import-net --out=nobuckets.textproto buckets.bin >bad.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "with no buckets" bad.txt || fail "a bucketed file read without its buckets: exit $rc: $(cat bad.txt)"

# default exported: exactly with QB 256 (the same bench through EvalFile), and
# with bullet's usual QB 64 rounded, the difference measured and printed.
bench() { "$UCI" "$@" bench 2>&1 | grep -o '^[0-9]* nodes'; }
"$TUNER" export-net --qb=256 --out=default.bin "$DEFAULT" >export.txt 2>&1 || fail "export-net: $(cat export.txt)"
grep -q "^exact: evaluates every position as" export.txt || fail "not exact: $(cat export.txt)"
grep -q "exported: bullet's quantised format, QA 255, QB 256, scale 400, no king buckets, 8 output buckets; from default exactly" default.bin.provenance ||
  fail "no provenance beside the file: $(tail -1 default.bin.provenance)"
want=$(bench --config="$DEFAULT")
# pesto's engine searches with its own settings (default's aspiration windows are
# narrower): the same tree is that of pesto's config with default's network in it.
"$TUNER" import-net --qb=256 --output_buckets=8 --start="$PESTO" --out=pesto_default_net.textproto default.bin >/dev/null 2>&1 ||
  fail "import-net into pesto's config"
want_in_pesto=$(bench --config=pesto_default_net.textproto)
got=$({ printf 'setoption name EvalFileOutputBuckets value 8\nsetoption name EvalFile value default.bin\nsetoption name EvalFileQB value 256\nbench\nquit\n'; } |
  "$UCI" --config="$PESTO" 2>&1 | grep -o '^[0-9]* nodes')
echo "bench: pesto with default's network $want_in_pesto, default's export through EvalFile (in pesto's engine) $got"
[[ -n "$want_in_pesto" && "$want_in_pesto" == "$got" ]] ||
  fail "EvalFile of default's export searched another tree: $want_in_pesto vs $got"
"$TUNER" export-net --out=default64.bin "$DEFAULT" >export64.txt 2>&1 || fail "export-net QB 64: $(cat export64.txt)"
grep -qP "^output layer x0.25, rounded: on 10000 positions .* differs by [0-9.]+ cp on average, [0-9]+ cp at most \(a QB of 256 holds it exactly\)" export64.txt ||
  fail "QB 64 said no difference: $(cat export64.txt)"
echo "$(tail -1 export64.txt)"

# Back and forth: the same bytes, the same tree.
"$TUNER" import-net --qb=256 --output_buckets=8 --out=imported.textproto default.bin >import.txt 2>&1 || fail "import-net: $(cat import.txt)"
"$TUNER" export-net --qb=256 --out=again.bin imported.textproto >/dev/null 2>&1 || fail "export of the import"
cmp -s default.bin again.bin || fail "import then export changed the file"
[[ "$(bench --config=imported.textproto)" == "$want" ]] || fail "the imported config searches another tree"
"$TUNER" import-net --out=theirs.textproto theirs.bin >/dev/null 2>&1 || fail "import-net of theirs.bin"
python3 "$REFERENCE" eval theirs.bin 255 64 400 <fens.txt >want.txt
{ while read -r fen; do printf 'position fen %s\neval\n' "$fen"; done <fens.txt; echo quit; } |
  "$UCI" --config=theirs.textproto | grep -oP '^Final evaluation: \K-?[0-9]+' >got.txt
cmp -s want.txt got.txt || fail "the imported config evaluates otherwise than bullet's formula"

# Bad files: exit 2 naming the problem; EvalFile keeps the evaluation it had.
head -c 1000 theirs.bin >truncated.bin
echo "the user's config" >kept.textproto
for bad in truncated.bin default.bin.provenance; do
  "$TUNER" import-net --out=kept.textproto "$bad" >bad.txt 2>&1; rc=$?
  (( rc == 2 )) && grep -q "is no (768 -> N) x 2 -> 1 network" bad.txt ||
    fail "import-net of $bad: exit $rc: $(cat bad.txt)"
done
[[ "$(cat kept.textproto)" == "the user's config" ]] || fail "a refused import wrote its --out"
"$TUNER" import-net --out=kept.textproto missing.bin >bad.txt 2>&1; rc=$?
(( rc == 2 || rc == 4 )) && grep -q "missing.bin" bad.txt || fail "import-net of a missing file: exit $rc"
before=$(echo "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 5 50" | evaluations "setoption name EvalFile value theirs.bin")
out=$({ printf 'setoption name EvalFile value theirs.bin\nsetoption name EvalFile value truncated.bin\n'
        printf 'position fen 8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 5 50\neval\nquit\n'; } | "$UCI")
grep -q "info string error: EvalFile: truncated.bin: 1000 bytes is no" <<<"$out" || fail "EvalFile of a truncated file: $out"
grep -q "^Final evaluation: $before$" <<<"$out" || fail "a bad EvalFile changed the evaluation: $out"
"$TUNER" export-net --out=pesto.bin "$PESTO" >bad.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "no eval.network" bad.txt || fail "export-net of a config without a network: exit $rc"
cp "$DEFAULT" own.textproto
"$TUNER" export-net --out=own.textproto own.textproto >bad.txt 2>&1; rc=$?
(( rc == 2 )) && cmp -s own.textproto "$DEFAULT" || fail "export-net over its config: exit $rc"

(( failures == 0 )) && echo PASS
exit $(( failures > 0 ))
