#!/usr/bin/env bash
# SPSA of another program's UCI options: a fake engine whose strength is its
# Skill option walks upwards from 20; a misnamed option, an out-of-range one and
# a non-spin one are refused before any game; and our own UCI binary tuned as
# an external engine runs end to end.
set -uo pipefail
TUNER="$PWD/$1"
SKILL="$PWD/$2"
UCI="$PWD/$3"
BOOK="$PWD/configs/openings/balanced.epd"
WORK="${TEST_TMPDIR:-$(mktemp -d)}/external_spsa"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# A sanitized engine on a loaded machine may need more than the default 10 s to start.
STARTUP=""
[[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && STARTUP="startup_timeout_ms: 60000"

config() {  # PARAMETER_LINE [ENGINE] [ITERATIONS]
  cat <<CONFIG
engine { argv: "${2:-$SKILL}" options { key: "Skill" value: "20" } $STARTUP }
book: "$BOOK"
iterations: ${3:-30}
pairs_per_iteration: 2
nodes: 300
concurrency: 2
seed: 5
$1
CONFIG
}

config 'parameters { name: "Skill" min: 0 max: 100 c_end: 10 r_end: 0.05 }' >skill.textproto
"$TUNER" spsa skill.textproto --state=skill.state --work_dir=skill >skill.txt 2>&1; rc=$?
(( rc == 0 )) || fail "spsa of Skill: exit $rc: $(tail -3 skill.txt)"
final=$(grep -o 'value: "[0-9]*"' skill/final.textproto | head -1 | grep -o '[0-9]*')
echo "Skill: 20 -> ${final:-?} after 30 iterations"
tail -3 skill.txt
[[ -n "$final" ]] && (( final >= 30 )) || fail "Skill did not walk up from 20: ${final:-none}"

config 'parameters { name: "Skil" min: 0 max: 100 c_end: 10 }' >typo.textproto
"$TUNER" spsa typo.textproto --state=typo.state --work_dir=typo >typo.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q 'parameter Skil: the engine has no such option (its spin options: Skill)' typo.txt \
    || fail "misnamed option: exit $rc: $(cat typo.txt)"
[[ -e typo/iteration-1 ]] && fail "games were played before the check"

config 'parameters { name: "Skill" min: 0 max: 200 c_end: 10 }' >range.textproto
"$TUNER" spsa range.textproto --state=range.state --work_dir=range >range.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "outside the engine's range \[0, 100\]" range.txt \
    || fail "out of range: exit $rc: $(cat range.txt)"

config 'parameters { name: "Style" min: 0 max: 1 c_end: 1 }' >combo.textproto
"$TUNER" spsa combo.textproto --state=combo.state --work_dir=combo >combo.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "a combo option; only spin options" combo.txt \
    || fail "combo option: exit $rc: $(cat combo.txt)"

# Our own UCI binary as someone else's engine: two iterations of lmr_base_x100.
cat >ours.textproto <<CONFIG
engine { argv: "$UCI" options { key: "Hash" value: "1" } $STARTUP }
book: "$BOOK"
iterations: 2
pairs_per_iteration: 1
nodes: 500
concurrency: 2
parameters { name: "lmr_base_x100" min: 0 max: 200 c_end: 10 }
CONFIG
"$TUNER" spsa ours.textproto --state=ours.state --work_dir=ours >ours.txt 2>&1; rc=$?
(( rc == 0 )) && grep -q 'key: "lmr_base_x100"' ours/final.textproto \
    || fail "our UCI binary as an external engine: exit $rc: $(tail -3 ours.txt)"

if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "external SPSA test: PASS"
