#!/usr/bin/env bash
# `tuner loop` for another engine's network (here our own `uci` as a UCI
# program, knowing nothing of the tuner): its games make the data (its own
# scores), a network is trained from its current file and written in bullet's
# format, and an SPRT of the engine with the new file against the old decides.
# The file is bullet's (the reference formula evaluates it as the engine
# does), its provenance lies beside it, a rerun resumes without playing or
# training again, and a config's mistakes exit 2 naming the field.
set -uo pipefail
TUNER="$PWD/$1"
UCI="$PWD/$2"
REFERENCE="$PWD/$3"
ROOT="$PWD"
WORK="${TEST_TMPDIR:-$(mktemp -d)}/external_network_loop"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
games=${LOOP_TEST_GAMES:-200}
[[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && games=8

python3 "$REFERENCE" write 32 3 start.bin || fail "no start network"
cat >loop.textproto <<CONFIG
name: "engine-net"
book: "$ROOT/configs/openings/balanced.epd"
generations: 1
selfplay_nodes: 2000
sprt_games: $games
concurrency: 2
external {
  name: "uci"
  engine { argv: "$UCI" options { key: "Hash" value: "1" } }
  start_network: "start.bin"
}
datagen { games: $games soft_nodes: 2000 random_plies: 8 seed: 3 }
held_out_games: 8
network {
  layout: PERSPECTIVE whole_evaluation: true hidden_size: 32 epochs: 4
  batch_size: 256 learning_rate: 0.002 schedule: COSINE weight_decay: 0.01 threads: 2
  mirror_files: true
}
CONFIG
start=$(date +%s)
"$TUNER" loop loop.textproto --output_dir=run >first.txt 2>first.err ||
  fail "the loop failed: $(tail -3 first.err)"
echo "one generation, $games games of data and up to $games of SPRT: $(( $(date +%s) - start )) s"
cat first.txt
[[ -s run/gen1.bin ]] || fail "generation 1 wrote no network file"
grep -q "^data: datagen: self-play of \"uci\"" run/gen1.bin.provenance ||
  fail "no provenance beside the file: $(head -3 run/gen1.bin.provenance)"
grep -q "^start: the network of .*start.bin" run/gen1.bin.provenance ||
  fail "the provenance does not name the start: $(grep start run/gen1.bin.provenance)"
grep -q 'config: "run/gen1.bin"' run/report.textproto || fail "the record lacks the file"
# The engine's own scores label the data.
"$TUNER" extract --out=data.txt run/gen1/data.bin >/dev/null 2>&1 || fail "the data does not read"
(( $(wc -l <data.txt) > 5 * games )) || fail "only $(wc -l <data.txt) positions from $games games"
# bullet's file: the reference formula evaluates it as the engine does.
printf '%s\n' "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 4 9" \
  "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 5 50" >fens.txt
want=$(python3 "$REFERENCE" eval run/gen1.bin 255 64 400 <fens.txt | tr '\n' ' ')
got=$({ echo "setoption name EvalFile value run/gen1.bin"
        while read -r fen; do printf 'position fen %s\neval\n' "$fen"; done <fens.txt; echo quit; } |
      "$UCI" | grep -oP '^Final evaluation: \K-?[0-9]+' | tr '\n' ' ')
[[ -n "$want" && "$want" == "$got" ]] || fail "gen1.bin: the engine says $got, bullet's formula $want"
if grep -q "accepted: true" run/report.textproto; then
  cmp -s run/gen1.bin run/best.bin || fail "an accepted network is not best.bin"
fi

# A rerun resumes: nothing played or trained again, the same table.
"$TUNER" loop loop.textproto --output_dir=run >again.txt 2>again.err || fail "the rerun failed: $(tail -3 again.err)"
cmp -s first.txt again.txt || fail "the rerun ended with another table: $(diff first.txt again.txt)"
grep -q "the network trained before" again.err || fail "the rerun trained again"

# Mistakes: exit 2, naming the field.
refused() {  # SED NEEDLE
  sed "$1" loop.textproto >bad.textproto
  "$TUNER" loop bad.textproto --output_dir=bad >bad.txt 2>&1; rc=$?
  (( rc == 2 )) && grep -qF -- "$2" bad.txt || fail "$1: exit $rc: $(tail -2 bad.txt)"
}
refused 's/start_network: "start.bin"//' "external.start_network"
refused 's/hidden_size: 32/hidden_size: 64/' "network.hidden_size = 64, but"
refused 's/start.bin/missing.bin/' "missing.bin"
refused 's/whole_evaluation: true//' "layout PERSPECTIVE and whole_evaluation"

(( failures == 0 )) && echo PASS
exit $(( failures > 0 ))
