#!/usr/bin/env bash
# The arena command line against bad input and hostile surroundings: a program or
# config named "./x" is a path, not a PATH search; names and engine output that
# would break a PGN are sanitised (pgn-extract reads exactly the games written);
# `pgn` and `summary` take a directory and exit 2 on a damaged log; the git lookup
# runs no shell; an output directory that cannot be made is an I/O error (4).
set -uo pipefail
ARENA="$PWD/$1"
FAKE="$PWD/$2"
UCI="$PWD/$3"
WORK="${TEST_TMPDIR:-$(mktemp -d)}/cli"
# ../shared beside the checkout, found through a runfile's real path.
SHARED_TB=""
[[ -f configs/engines/default.textproto ]] &&
  SHARED_TB="$(dirname "$(readlink -f configs/engines/default.textproto)")/../../../shared/tablebases/syzygy"
rm -rf "$WORK"; mkdir -p "$WORK"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cd "$WORK"
cp "$FAKE" ./uci   # a program called "uci" beside the config
cat >m.textproto <<'CONFIG'
name: "evil\nname\"]\n[Result \"0-1"
players { name: "ours\nsecond line" config { search { hash_mb: 1 } } }
players { name: "garbage" external { argv: "./uci" argv: "garbage" } }
games: 4
time_control { nodes: 200 }
output_dir: "out"
CONFIG
# No shell anywhere: a workspace path with a quote cannot run a command.
BUILD_WORKSPACE_DIRECTORY="x'; touch pwned; echo '" "$ARENA" ./m.textproto --progress=false \
    >report.txt 2>&1; rc=$?
(( rc == 0 )) || fail "arena ./m.textproto: exit $rc: $(tail -3 report.txt)"
[[ -e pwned ]] && fail "BUILD_WORKSPACE_DIRECTORY ran a shell command"
grep -q "ILLEGAL_MOVE 4" report.txt || fail "./uci was not the program beside the config: $(cat report.txt)"

pgn=out/games.pgn
iconv -f UTF-8 -t UTF-8 "$pgn" >/dev/null 2>&1 || fail "games.pgn is not valid UTF-8"
if LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]' "$pgn"; then fail "control bytes in games.pgn"; fi
tags=$(grep -c '^\[' "$pgn"); bad_tags=$(grep '^\[' "$pgn" | grep -vcE '^\[[A-Za-z]+ ".*"\]$')
(( bad_tags == 0 )) || fail "$bad_tags malformed tag lines of $tags"
PGN_EXTRACT=$(command -v pgn-extract || echo /usr/games/pgn-extract)
if [[ -x "$PGN_EXTRACT" ]]; then
  read_games=$("$PGN_EXTRACT" -s "$pgn" 2>/dev/null | grep -c '^\[Event ')
  (( read_games == 4 )) || fail "pgn-extract read $read_games games, 4 written"
  complaints=$("$PGN_EXTRACT" -s "$pgn" -o /dev/null 2>&1)
  [[ -z "$complaints" ]] || fail "pgn-extract complains: $(head -3 <<<"$complaints")"
else
  echo "pgn-extract not installed: that check skipped"
fi

# pgn and summary take the output directory as well as the log.
"$ARENA" pgn out >dir.pgn; rc=$?
(( rc == 0 )) || fail "pgn DIR: exit $rc"
cmp -s dir.pgn "$pgn" || fail "pgn DIR differs from games.pgn"
"$ARENA" summary out >/dev/null || fail "summary DIR: exit $?"
# Anchors from the command line: ours won every game, so no finite rating; a
# name that is no player's is bad input.
"$ARENA" summary out --anchors=garbage=1000 >anchored.txt || fail "summary --anchors: exit $?"
grep -q "not measurable yet (all won, all lost or without variance) from 4 games" anchored.txt ||
  fail "summary --anchors: $(tail -4 anchored.txt)"
"$ARENA" summary out --anchors=nobody=1 >/dev/null 2>&1; rc=$?
(( rc == 2 )) || fail "summary with an anchor that is no player: exit $rc, want 2"
"$ARENA" pgn . >/dev/null 2>&1; rc=$?
(( rc == 2 )) || fail "pgn on a directory without a log: exit $rc, want 2"

# A flipped byte in the header: pgn and summary exit 2, nothing is printed as if
# the log were empty, and resuming leaves the file alone.
cp out/games.log good.log
python3 - <<'PY'
data = bytearray(open("out/games.log", "rb").read())
data[40] ^= 0x10
open("out/games.log", "wb").write(data)
PY
cp out/games.log damaged.log
"$ARENA" pgn out/games.log >/dev/null 2>err.txt; rc=$?
(( rc == 2 )) || fail "pgn with a damaged header: exit $rc, want 2"
grep -q "header" err.txt || fail "pgn with a damaged header: $(cat err.txt)"
"$ARENA" summary out/games.log >/dev/null 2>&1; rc=$?
(( rc == 2 )) || fail "summary with a damaged header: exit $rc, want 2"
"$ARENA" ./m.textproto --progress=false >/dev/null 2>&1; rc=$?
(( rc == 2 )) || fail "resume with a damaged header: exit $rc, want 2"
cmp -s out/games.log damaged.log || fail "resume rewrote a log with a damaged header"

# An output directory that cannot be created is an I/O error.
"$ARENA" ./m.textproto --output_dir=m.textproto/out --progress=false >/dev/null 2>&1; rc=$?
(( rc == 4 )) || fail "uncreatable output directory: exit $rc, want 4"

# Shards: I/N checked; two shards and their merge equal the whole match.
cat >s.textproto <<'CONFIG'
players { name: "a" config { search { hash_mb: 1 } } }
players { name: "b" config { search { hash_mb: 1 eval_noise_cp: 20 } } }
games: 8
time_control { nodes: 300 }
adjudication { max_moves: 40 }
CONFIG
for bad in 2/2 -1/2 1 a/b 0/0; do
  "$ARENA" s.textproto --shard=$bad --output_dir=bad >/dev/null 2>&1; rc=$?
  (( rc == 2 )) || fail "--shard=$bad: exit $rc, want 2"
done
"$ARENA" s.textproto --output_dir=whole --progress=false >/dev/null || fail "whole match"
for i in 0 1; do
  "$ARENA" s.textproto --shard=$i/2 --output_dir=shards/shard-$i --progress=false >/dev/null ||
    fail "shard $i/2"
done
"$ARENA" merge shards --output_dir=merged >merged.txt 2>merge.err || fail "merge: $(cat merge.err)"
"$ARENA" summary whole >whole.txt
cmp -s merged.txt whole.txt || fail "merged standings differ: $(diff merged.txt whole.txt)"
"$ARENA" summary shards/shard-0 shards/shard-1 >inmemory.txt
cmp -s inmemory.txt whole.txt || fail "summary of two shards differs from the whole match"
moves_only() { "$ARENA" pgn "$1" | grep -v '^\[Date ' | sed -e 's/{[^}]*}//g'; }
cmp -s <(moves_only merged) <(moves_only whole) || fail "merged PGN differs from the whole match's"
"$ARENA" status shards/shard-0 >status.txt || fail "status: exit $?"
grep -q "^4 of 8 games played, 4 missing, from 1 logs" status.txt || fail "status: $(head -2 status.txt)"
"$ARENA" merge shards/shard-0 shards/shard-0 --output_dir=merged >/dev/null 2>&1; rc=$?
(( rc == 2 )) || fail "merging a shard twice: exit $rc, want 2"
"$ARENA" merge shards --output_dir=whole >/dev/null 2>&1; rc=$?
(( rc == 2 )) || fail "merge over a match log: exit $rc, want 2"

# fastchess's command line: translated, written as OUTPUT_DIR/match.textproto,
# played; the same command again resumes (nothing left to play); an option we do
# not support is refused by name with exit code 2.
fastchess=(-engine "cmd=$UCI" name=a option.Hash=1 -engine "cmd=$UCI" name=b
  -each nodes=300 -rounds 2 -repeat -concurrency 2 -maxmoves 60 -srand 3
  -pgnout file=fc.pgn --output_dir=fc --progress=false)
"$ARENA" "${fastchess[@]}" >fc.txt 2>&1; rc=$?
(( rc == 0 )) || fail "fastchess options: exit $rc: $(tail -3 fc.txt)"
grep -q "Match a vs b: 4 of 4 games played" fc.txt || fail "fastchess options: $(head -3 fc.txt)"
grep -q "nodes: 300" fc/match.textproto || fail "fastchess options: no match.textproto"
[[ "$(grep -c '^\[Event' fc.pgn)" == 4 ]] || fail "-pgnout: $(ls)"
"$ARENA" run "${fastchess[@]}" >fc2.txt 2>&1
grep -q "resuming: 4 games in the log, 0 to play" fc2.txt || fail "fastchess rerun: $(head -3 fc2.txt)"
# -pgnout appends, as fastchess does, each game once: the rerun added none.
[[ "$(grep -c '^\[Event' fc.pgn)" == 4 ]] || fail "-pgnout after a rerun: $(grep -c '^\[Event' fc.pgn) games"
# It never replaces the match's own files, nor a file the run did not create.
cp fc/games.log games.log.before
for own in fc/games.log fc/match.textproto fc/result.textproto fc; do
  "$ARENA" "${fastchess[@]/file=fc.pgn/file=$own}" >own.txt 2>&1; rc=$?
  (( rc == 2 )) || fail "-pgnout file=$own: exit $rc: $(tail -2 own.txt)"
done
cmp -s fc/games.log games.log.before || fail "-pgnout file=fc/games.log changed the log"
printf 'a file of the user\n' >mine.pgn
"$ARENA" "${fastchess[@]/file=fc.pgn/file=mine.pgn}" >mine.txt 2>&1; rc=$?
(( rc == 0 )) || fail "-pgnout to an existing file: exit $rc: $(tail -2 mine.txt)"
[[ "$(head -1 mine.pgn)" == "a file of the user" && "$(grep -c '^\[Event' mine.pgn)" == 4 ]] ||
  fail "-pgnout replaced an existing file: $(head -3 mine.pgn)"
"$ARENA" "${fastchess[@]}" -recover >fc3.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "^-recover: not supported" fc3.txt || fail "-recover: exit $rc: $(cat fc3.txt)"

# A moves/time clock, as CCRL's 40/15 but short: 5 moves in 1 s, repeating. The
# engine hears movestogo and its time comes back every 5 moves: no game is lost
# on time, and PGN's TimeControl says 5/1+0. The games take their clock's time: under
# a sanitizer, 11 moves (two refills) instead of 16.
mt_moves=16; [[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && mt_moves=11
"$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each tc=5/1 timemargin=100 \
    -rounds 1 -repeat -maxmoves $mt_moves -pgnout file=mt.pgn --output_dir=mt --progress=false \
    >mt.txt 2>&1; rc=$?
(( rc == 0 )) || fail "tc=5/1: exit $rc: $(tail -3 mt.txt)"
# (Not under a sanitizer, whose 5-20x slower code has no time to spare.)
[[ -z "${CHESS_HARNESS_SANITIZED:-}" ]] && grep -q "TIME_FORFEIT" mt.txt &&
  fail "tc=5/1: a game lost on time: $(cat mt.txt)"
grep -q '^\[TimeControl "5/1+0"\]' mt.pgn || fail "tc=5/1: $(grep TimeControl mt.pgn)"

# Tablebase adjudication, fastchess's -tb: from two 5-piece endings a capture
# reaches the 3-piece tables, whose verdict ends the game (a win, a draw) in the
# log, the summary and the PGN; a missing directory is exit 2.
if [[ -d "$SHARED_TB" ]]; then
  printf '%s\n' "4k3/8/8/8/8/8/4r3/3QK3 w - -" "k7/8/8/8/8/8/Pr6/K7 w - -" >tb.epd
  "$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each tc=inf nodes=2000 \
      -rounds 2 -repeat -openings file=tb.epd format=epd order=sequential \
      -tb "$SHARED_TB" -pgnout file=tb.pgn --output_dir=tb --progress=false >tb.txt 2>&1; rc=$?
  (( rc == 0 )) || fail "-tb: exit $rc: $(tail -3 tb.txt)"
  grep -q "Terminations: ADJUDICATED_TABLEBASE 4" tb.txt || fail "-tb: $(tail -4 tb.txt)"
  [[ "$(grep -c 'TerminationDetails "Syzygy tablebases: White wins"' tb.pgn)" == 2 &&
     "$(grep -c 'TerminationDetails "Syzygy tablebases: a draw"' tb.pgn)" == 2 ]] ||
    fail "-tb: PGN $(grep Termination tb.pgn)"
  # Damaged copies (once an abort at the first adjudication, and again at every
  # resume): left out and named; the match is played and adjudicated by the rest.
  mkdir tbd && cp "$SHARED_TB"/* tbd/ && chmod u+w tbd/*
  truncate -s 16 tbd/KQvKR.rtbw
  dd if=/dev/zero of=tbd/KRvKP.rtbw bs=1 seek=4 count=60000 conv=notrunc 2>/dev/null
  "$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each tc=inf nodes=2000 \
      -rounds 2 -repeat -openings file=tb.epd format=epd order=sequential \
      -tb tbd --output_dir=tbd-out --progress=false >tbd.txt 2>&1; rc=$?
  (( rc == 0 )) || fail "-tb with damaged tables: exit $rc: $(tail -3 tbd.txt)"
  grep -q 'tablebases: ".*/tbd/KQvKR.rtbw" skipped: its size (16 bytes)' tbd.txt &&
    grep -q 'tablebases: ".*/tbd/KRvKP.rtbw" skipped: damaged' tbd.txt ||
    fail "-tb with damaged tables: not named: $(head -5 tbd.txt)"
else
  echo "SKIP: ../shared/tablebases is absent; tablebase adjudication not played"
fi
"$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each tc=inf nodes=200 \
    -rounds 1 -repeat -tb /no/such/tables --output_dir=notb --progress=false >notb.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "/no/such/tables\" is not a directory" notb.txt ||
  fail "-tb with a missing directory: exit $rc: $(cat notb.txt)"

# Unpaired games (fastchess's -rounds N without -repeat): N single games, colours
# alternating, judged per game with a note that pentanomial needs pairs.
"$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each tc=inf nodes=500 \
    -rounds 3 -maxmoves 30 --output_dir=single --progress=false >single.txt 2>&1; rc=$?
(( rc == 0 )) || fail "unpaired: exit $rc: $(tail -3 single.txt)"
grep -q "Games: 3 " single.txt && grep -q "Statistics per game (trinomial)" single.txt ||
  fail "unpaired: $(cat single.txt)"

# Chess960 (-variant fischerandom) from Shredder-FEN positions: UCI engines told
# UCI_Chess960, in-process players alike; the PGN names the variant and every start,
# and pgn-extract reads every game, castling included. A standard match refuses the book.
printf '%s\n' "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -" \
  "nrkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/BRKNQBRN w GBfb -" >b960.epd
"$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each tc=inf nodes=1500 \
    -rounds 2 -repeat -openings file=b960.epd format=epd order=sequential \
    -variant fischerandom -maxmoves 60 -pgnout file=c960.pgn --output_dir=c960 \
    --progress=false >c960.txt 2>&1; rc=$?
(( rc == 0 )) || fail "-variant fischerandom: exit $rc: $(tail -3 c960.txt)"
grep -q "variant: CHESS960" c960/match.textproto || fail "no variant: $(cat c960/match.textproto)"
[[ "$(grep -c '^\[Variant "Chess960"\]' c960.pgn)" == 4 ]] || fail "Chess960 PGN: $(head -12 c960.pgn)"
c960_read=$("$PGN_EXTRACT" -s c960.pgn 2>/dev/null | grep -c '^\[Event ')
c960_complaints=$("$PGN_EXTRACT" -s c960.pgn -o /dev/null 2>&1)
[[ "$c960_read" == 4 && -z "$c960_complaints" ]] ||
  fail "pgn-extract read $c960_read Chess960 games of 4: $c960_complaints"
cat >c960.textproto <<CONFIG
players { name: "a" config { search { hash_mb: 1 } } }
players { name: "b" config { search { hash_mb: 1 } } }
games: 2
time_control { nodes: 1500 }
adjudication { max_moves: 60 }
openings { file: "b960.epd" }
variant: CHESS960
CONFIG
"$ARENA" ./c960.textproto --output_dir=c960b --progress=false >c960b.txt 2>&1; rc=$?
(( rc == 0 )) || fail "in-process Chess960: exit $rc: $(tail -3 c960b.txt)"
"$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each tc=inf nodes=500 \
    -rounds 1 -repeat -openings file=b960.epd format=epd --output_dir=c960c \
    --progress=false >c960c.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "needs Chess960" c960c.txt ||
  fail "a Chess960 book in a standard match: exit $rc: $(cat c960c.txt)"

# -use-affinity: a game of a 2-thread engine gets 2 cores of its own (games at once:
# as many as the cores hold); asking for more cores than there are is exit 2.
"$ARENA" -engine "cmd=$UCI" name=smp option.Threads=2 -engine "cmd=$UCI" name=one \
    -each tc=inf nodes=3000 -rounds 1 -repeat -use-affinity --output_dir=aff \
    --progress=false >aff.txt 2>&1; rc=$?
(( rc == 0 )) || fail "-use-affinity: exit $rc: $(tail -3 aff.txt)"
"$ARENA" -engine "cmd=$UCI" name=smp option.Threads=1024 -engine "cmd=$UCI" name=one \
    -each tc=inf nodes=3000 -rounds 1 -repeat -concurrency 2 -use-affinity \
    --output_dir=aff2 --progress=false >aff2.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "need 2048 cores" aff2.txt ||
  fail "-use-affinity beyond the cores: exit $rc: $(cat aff2.txt)"

# A user's own match.textproto is never overwritten: neither in a named
# --output_dir nor through -event .., which once made the working directory
# the output directory.
mkdir -p mine && echo 'name: "mine"' >mine/match.textproto && cp mine/match.textproto own.textproto
"$ARENA" "${fastchess[@]/--output_dir=fc/--output_dir=mine}" >mine.txt 2>&1; rc=$?
(( rc == 2 )) || fail "a user's match.textproto in --output_dir: exit $rc: $(cat mine.txt)"
cmp -s mine/match.textproto own.textproto || fail "a user's match.textproto was overwritten"
(cd mine && "$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each nodes=50 \
    -rounds 1 -repeat -maxmoves 10 -event .. --progress=false >../event.txt 2>&1); rc=$?
(( rc == 0 )) || fail "-event ..: exit $rc: $(tail -3 event.txt)"
cmp -s mine/match.textproto own.textproto || fail "-event .. overwrote the user's match.textproto"
[[ -e mine/fastchess-out/_../match.textproto ]] || fail "-event ..: $(ls -R mine | head)"
# A newline in a fastchess argument would end match.textproto's comment line.
"$ARENA" -engine "cmd=$UCI" name=a -engine "cmd=$UCI" name=b -each nodes=50 \
    -event $'x\nplayers { name: "c" external { argv: "touch" argv: "pwned" } }' \
    --output_dir=nl --progress=false >nl.txt 2>&1; rc=$?
(( rc == 2 )) || fail "a newline in -event: exit $rc: $(cat nl.txt)"
[[ -e nl/match.textproto || -e pwned ]] && fail "a newline in -event wrote a config or ran a program"
# Slurm: the evil name of m.textproto (newlines) never reaches an #SBATCH line,
# nor does an --sbatch option with a newline.
"$ARENA" slurm m.textproto --shards=2 --output_dir="$WORK/slurm" --dry_run >slurm.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "control character" slurm.txt || fail "slurm, a name with a newline: exit $rc: $(cat slurm.txt)"
printf 'name: "ok"\nplayers { name: "a" config {} }\nplayers { name: "b" config {} }\ngames: 2\ntime_control { nodes: 100 }\n' >ok.textproto
"$ARENA" slurm ok.textproto --shards=2 --output_dir="$WORK/slurm" --dry_run \
    --sbatch=$'--partition=x\ntouch pwned' >slurm2.txt 2>&1; rc=$?
(( rc == 2 )) || fail "slurm, an --sbatch option with a newline: exit $rc: $(cat slurm2.txt)"
"$ARENA" slurm ok.textproto --shards=2 --output_dir="$WORK/slurm" --dry_run >slurm3.txt 2>&1
grep -q "^exec '$WORK/slurm/bin/arena' " slurm3.txt || fail "the shards do not run the run's copy: $(cat slurm3.txt)"

# One run at a time in an output directory; SIGTERM ends a run and its engines (even
# ones that outlive the end of their input) and leaves a log the same command resumes.
long=(-engine "cmd=$FAKE" args=deaf name=a -engine "cmd=$FAKE" args=deaf name=b
  -each tc=inf nodes=1 -rounds 100000 -repeat -maxmoves 20 --output_dir=term --progress=false)
"$ARENA" "${long[@]}" >term1.txt 2>&1 &
first=$!
for _ in $(seq 200); do [[ -s term/games.log ]] && break; sleep 0.1; done
sleep 0.5
"$ARENA" "${long[@]}" >term2.txt 2>&1; rc=$?
(( rc == 2 )) && grep -q "another run" term2.txt || fail "a second run in one directory: exit $rc: $(tail -2 term2.txt)"
kill -TERM "$first"
wait "$first"; rc=$?
(( rc == 143 )) || fail "SIGTERM: exit $rc: $(tail -2 term1.txt)"
grep -q "stopped by SIGTERM" term1.txt || fail "SIGTERM: $(tail -2 term1.txt)"
sleep 0.5
pgrep -f "$FAKE deaf" >/dev/null && { fail "SIGTERM left engines running: $(pgrep -af "$FAKE deaf")"; pkill -KILL -f "$FAKE deaf"; }
"$ARENA" summary term >term3.txt 2>&1; rc=$?
(( rc == 0 || rc == 1 )) || fail "the log after SIGTERM: exit $rc: $(tail -2 term3.txt)"
# The engines the termination ended lost no game for it.
grep -q "ENGINE_CRASH\|ENGINE_TIMEOUT" term3.txt && fail "SIGTERM recorded engine failures: $(grep Terminations term3.txt)"

if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "cli test: PASS"
