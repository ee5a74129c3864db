#!/usr/bin/env bash
# `tuner datagen` end to end: a run killed with SIGKILL and started again gives
# exactly the positions of a run never interrupted (none lost, none twice); the
# data exports to bullet's text format and imports back; a UCI program (our
# engine as a child process) generates data from its `info score`; bad input
# exits 2 naming the field, and an unwritable output exits 4.
set -uo pipefail
TUNER="$PWD/$1"
UCI="$PWD/$2"
SIMPLIFIED="$PWD/configs/engines/simplified.textproto"
WORK="${TEST_TMPDIR:-$(mktemp -d)}/datagen_cli"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
games=40
[[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && games=4

cat >gen.textproto <<CONFIG
player { name: "simplified" config_file: "$SIMPLIFIED"
         overrides { search { hash_mb: 1 } } }
games: $games
soft_nodes: 400
random_plies: 8
concurrency: 2
seed: 9
filters { keep_duplicates: true }
CONFIG

"$TUNER" datagen gen.textproto --output_dir=whole >whole.txt 2>&1; rc=$?
(( rc == 0 )) || fail "uninterrupted run: exit $rc: $(tail -3 whole.txt)"
grep -q "positions per core hour" whole.txt || fail "no cost line: $(cat whole.txt)"
grep -q "filtered and written in [0-9.]* s" whole.txt || fail "no writing time: $(cat whole.txt)"

# Killed once at least one game is in the log, then started again.
"$TUNER" datagen gen.textproto --output_dir=killed >/dev/null 2>&1 &
pid=$!
# The log starts with a file header and the match's header record (a few
# kilobytes: both players' configs); a game adds about 2.5 kilobytes. 12
# kilobytes are a few games, a tenth of the run.
for _ in $(seq 1 2000); do
  size=$(stat -c %s killed/games/games.log 2>/dev/null || echo 0)
  (( size > 12000 )) && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
"$TUNER" datagen gen.textproto --output_dir=killed >resumed.txt 2>&1; rc=$?
(( rc == 0 )) || fail "resumed run: exit $rc: $(tail -3 resumed.txt)"
played_after=$(grep -oP 'this run: \K[0-9]+' resumed.txt || echo 0)
(( played_after < games )) || fail "the resumed run played all $games games again"

# Same positions, labels and scores (the games may finish in another order).
"$TUNER" extract --out=whole.bullet.txt whole/data.bin >/dev/null || fail "export"
"$TUNER" extract --out=killed.bullet.txt killed/data.bin >/dev/null || fail "export"
n=$(wc -l <whole.bullet.txt)
(( n > 10 * games )) || fail "only $n positions from $games games"
cmp -s <(sort whole.bullet.txt) <(sort killed.bullet.txt) ||
  fail "the resumed run's positions differ: $(diff <(sort whole.bullet.txt) <(sort killed.bullet.txt) | head -3)"
head -1 whole.bullet.txt | grep -qE '^[^|]+ \| -?[0-9]+ \| (1\.0|0\.5|0\.0)$' ||
  fail "not bullet's format: $(head -1 whole.bullet.txt)"
# bullet's text back into our format: the same positions.
"$TUNER" extract --out=imported.bin whole.bullet.txt >/dev/null || fail "import"
"$TUNER" extract --out=again.txt imported.bin >/dev/null || fail "re-export"
cmp -s whole.bullet.txt again.txt || fail "bullet text -> ours -> bullet text changed it"

# bullet's binary records: datagen writes them; convert takes them through every
# format and back to the same bytes; they hold what the text holds, seen from the
# side to move.
"$TUNER" datagen gen.textproto --output_dir=whole --played_only --format=bulletformat \
  --out=whole.records >/dev/null 2>&1 || fail "datagen --format=bulletformat"
(( $(stat -c %s whole.records) == 32 * n )) ||
  fail "bulletformat: $(stat -c %s whole.records) bytes for $n positions"
"$TUNER" convert --out=r.bin whole.records >/dev/null || fail "bulletformat -> native"
"$TUNER" convert --out=r.txt --format=text r.bin >/dev/null || fail "native -> text"
"$TUNER" convert --out=r.bulletformat r.txt >/dev/null || fail "text -> bulletformat"
cmp -s whole.records r.bulletformat || fail "bulletformat -> native -> text -> bulletformat changed it"
"$TUNER" convert --out=w.bulletformat whole.bullet.txt >/dev/null || fail "text -> bulletformat"
cmp -s whole.records w.bulletformat || fail "datagen's records differ from its text's"
"$TUNER" convert --out=x.txt whole/games/games.log >convert_log.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "tuner extract" convert_log.txt || fail "convert of a log: exit $rc"
head -c 100 whole.records >torn.records
"$TUNER" convert --out=x.txt torn.records >torn.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "last record is torn" torn.txt && [[ ! -e x.txt ]] ||
  fail "a torn bulletformat file: exit $rc: $(cat torn.txt)"

# A UCI program: its scores are the labels.
cat >uci.textproto <<CONFIG
player { name: "uci" external { argv: "$UCI" options { key: "Hash" value: "1" } } }
games: 2
soft_nodes: 400
random_plies: 8
seed: 9
CONFIG
"$TUNER" datagen uci.textproto --output_dir=uci --out=uci.txt >uci.log 2>&1; rc=$?
(( rc == 0 )) || fail "UCI player: exit $rc: $(tail -3 uci.log)"
(( $(wc -l <uci.txt) > 20 )) || fail "UCI player: only $(wc -l <uci.txt) positions"

# One run at a time in an output directory: while another holds it, datagen
# refuses to start (exit 2) and the log stays as it was.
before=$(md5sum <whole/games/games.log)
flock whole/games sleep 5 &
holder=$!
sleep 0.3
"$TUNER" datagen gen.textproto --output_dir=whole >locked.txt 2>&1; rc=$?
wait "$holder"
(( rc == 2 )) && grep -q "another run" locked.txt || fail "a second writer: exit $rc: $(tail -2 locked.txt)"
[[ "$(md5sum <whole/games/games.log)" == "$before" ]] || fail "a refused run changed the log"

# A damaged log: refused, naming the way back, which keeps every intact game:
# --drop_damaged plays the damaged ones again (the same positions as before),
# with --played_only it leaves them out.
cp -r whole damaged
size=$(stat -c %s damaged/games/games.log)
# One byte's bits flipped (an overwrite could write what was there).
python3 -c "import sys; p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[int(sys.argv[2])] ^= 0xff; open(p, 'wb').write(b)" \
  damaged/games/games.log $((size * 2 / 3))
"$TUNER" datagen gen.textproto --output_dir=damaged >damaged.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q -- "--drop_damaged" damaged.txt || fail "a damaged log: exit $rc: $(tail -2 damaged.txt)"
"$TUNER" datagen gen.textproto --output_dir=damaged --played_only --drop_damaged \
  --out=intact.txt >intact.log 2>&1; rc=$?
(( rc == 0 )) && grep -q "left out 1 damaged records" intact.log ||
  fail "--played_only --drop_damaged: exit $rc: $(tail -3 intact.log)"
"$TUNER" datagen gen.textproto --output_dir=damaged --drop_damaged --out=replayed.txt \
  >replayed.log 2>&1; rc=$?
(( rc == 0 )) || fail "--drop_damaged: exit $rc: $(tail -3 replayed.log)"
[[ -f damaged/games/games.log.damaged ]] || fail "--drop_damaged kept no copy of the damaged log"
cmp -s <(sort whole.bullet.txt) <(sort replayed.txt) || fail "--drop_damaged: other positions than the undamaged run's"
(( $(wc -l <intact.txt) < $(wc -l <replayed.txt) )) || fail "--played_only kept the damaged game's positions"

# SIGTERM ends datagen and the engines it started (a UCI player here), and the run
# resumes: exit 143, no engine left.
sed 's/games: 2/games: 2000/' uci.textproto >long.textproto
"$TUNER" datagen long.textproto --output_dir=term >term.txt 2>&1 &
tuner=$!
for _ in $(seq 1 300); do [[ -n "$(pgrep -P "$tuner")" ]] && break; sleep 0.05; done
sleep 1
engines=$(pgrep -P "$tuner")
kill -TERM "$tuner"; wait "$tuner"; rc=$?
(( rc == 143 )) && grep -q "stopped by SIGTERM" term.txt || fail "datagen after SIGTERM: exit $rc: $(tail -2 term.txt)"
[[ -n "$engines" ]] || fail "datagen started no engine to end"
sleep 0.3
for pid in $engines; do
  # A zombie (state Z) is dead: whoever reaps orphans here has not yet.
  state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
  [[ -n "$state" && "$state" != Z ]] && fail "engine $pid outlived datagen's SIGTERM (state $state)"
done

# Bad input: exit 2, naming the field; an output that cannot be written: 4.
for nodes in 0 4611686018427387904; do
  sed "s/soft_nodes: 400/soft_nodes: $nodes/" gen.textproto >bad.textproto
  "$TUNER" datagen bad.textproto --output_dir=bad >bad.txt 2>&1; rc=$?
  (( rc == 2 )) && grep -q "soft_nodes: must be 1 to 2^50" bad.txt || fail "soft_nodes $nodes: exit $rc: $(cat bad.txt)"
done
"$TUNER" datagen gen.textproto >nodir.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "needs --output_dir" nodir.txt || fail "no --output_dir: exit $rc"
# No --out over an input: the config, the run's own log.
for out in gen.textproto whole/games/games.log; do
  cp "$out" before.copy
  "$TUNER" datagen gen.textproto --output_dir=whole --out="$out" >over.txt 2>&1; rc=$?
  (( rc == 2 )) && cmp -s "$out" before.copy || fail "--out=$out: exit $rc: $(tail -2 over.txt)"
done
"$TUNER" datagen gen.textproto --output_dir=whole --out=/proc/no/data.bin >io.txt 2>&1; rc=$?
(( rc == 4 )) || fail "unwritable --out: exit $rc, want 4: $(cat io.txt)"

if (( failures )); then exit 1; fi
echo "datagen_cli_test: PASS ($n positions; killed, then $played_after of $games games played on resume = uninterrupted; bullet text round trip)"
