#!/usr/bin/env bash
# Drives the UCI binary through pipes as a GUI would: handshake, isready during a search,
# stop of an infinite search, bestmove in edge cases, garbage input, quit.
set -uo pipefail
UCI="$1"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# Sanitized builds run several times slower, beside other sanitized tests: every wait
# below is this many times longer for them.
wait_scale=1
[[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && wait_scale=6

coproc ENGINE { "$UCI"; }
engine_pid=$ENGINE_PID  # bash unsets ENGINE_PID as soon as the process ends
send() { echo "$1" >&"${ENGINE[1]}"; }
# expect PATTERN [SECONDS]: reads lines until one matches; fails on timeout or EOF.
expect() {
  local limit=$(( ${2:-10} * wait_scale ))
  local line deadline=$((SECONDS + limit))
  while ((SECONDS < deadline)); do
    if ! IFS= read -r -t 1 line <&"${ENGINE[0]}"; then
      [[ -n "${ENGINE_PID:-}" ]] && kill -0 "$ENGINE_PID" 2>/dev/null && continue
      fail "engine exited while waiting for '$1'"
      return 1
    fi
    LAST_LINE="$line"
    [[ "$line" =~ $1 ]] && return 0
  done
  fail "timed out waiting for '$1'"
  return 1
}

send uci;                         expect '^option name Threads type spin default 1 min 1 max 1024$'
                                  expect '^option name Clear Hash type button$'
                                  expect '^uciok$'
send isready;                     expect '^readyok$'
send "setoption name Hash value 8"
send "setoption name No Such Option value 3"; expect '^info string'
send ucinewgame
send "position startpos moves e2e4 e7e5"
send "go depth 5";                expect '^bestmove [a-h][1-8][a-h][1-8]'
# Clear Hash takes no value and answers nothing: the next line is readyok.
send "setoption name Clear Hash"; send isready
expect '.'; [[ "$LAST_LINE" == readyok ]] || fail "Clear Hash answered: $LAST_LINE"

# isready answered during an infinite search, stop ends it with a legal move.
send "position startpos"
send "go infinite"
sleep 0.3
send isready;                     expect '^readyok$' 2
send stop;                        expect '^bestmove [a-h][1-8][a-h][1-8]' 5

# Stopped at once, and a position with a single legal move.
send "go infinite"; send stop;    expect '^bestmove [a-h][1-8][a-h][1-8]' 5
send "position fen k7/8/8/8/8/8/q7/7K w - - 0 1"
send "go wtime 1000 btime 1000";  expect '^bestmove h1g1( ponder [a-h][1-8][a-h][1-8])?$' 5
# Mate found and reported as "score mate 1".
send "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
send "go depth 6";                expect 'score mate 1 ' 5; expect '^bestmove a1a8$' 5
# Checkmated and stalemated positions still get an answer.
send "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
send "go depth 3";                expect '^bestmove 0000$' 5

# Pondering: no bestmove before ponderhit or stop, whatever the clock says; after
# ponderhit the clock counts again. The bestmove names the reply to ponder on.
send "position startpos moves e2e4"
send "go ponder wtime 200 btime 200"
sleep 1
send isready;                     expect '^(readyok|bestmove.*)$' 2
[[ "$LAST_LINE" == readyok ]] || fail "pondering search answered early: $LAST_LINE"
send ponderhit;                   expect '^bestmove [a-h][1-8][a-h][1-8] ponder [a-h][1-8][a-h][1-8]$' 5
send "go ponder wtime 200 btime 200"; sleep 0.3
send stop;                        expect '^bestmove [a-h][1-8][a-h][1-8]' 5
# MultiPV: that many lines per depth, numbered, the best first.
send "setoption name MultiPV value 3"
send "position startpos"
send "go depth 4";                expect '^info depth 4 .*multipv 3 ' 5; expect '^bestmove' 5
send "setoption name MultiPV value 0"; expect '^info string error: .*multi_pv' 2
send "setoption name MultiPV value 1"
# Threads: Lazy SMP up to the machine's cores; 0 is refused.
send "setoption name Threads value 2"
send "go depth 6";                expect '^bestmove [a-h][1-8][a-h][1-8]' 10
send "setoption name Threads value 0"; expect '^info string error: .*threads' 2
send "setoption name Threads value 1025"; expect '^info string error: .*threads' 2
send "setoption name Threads value 1"
# Chess960: Shredder-FEN in, castling as king takes own rook, go perft as Stockfish
# answers it (the same counts with UCI_Chess960 on).
send "setoption name UCI_Chess960 value true"
send "position fen 6k1/8/8/8/8/8/8/RK5R w AH - 0 1 moves b1a1"
send d;                           expect '^info string fen 6k1/8/8/8/8/8/8/2KR3R b - - 1 1$' 2
send "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
send "go perft 3";                expect '^Nodes searched: 12189$' 10
send "go depth 4";                expect '^bestmove [a-h][1-8][a-h][1-8]' 5
send "setoption name UCI_Chess960 value false"
send "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
                                  expect '^info string error: .*needs Chess960' 2
send "position startpos"
send "go perft 4";                expect '^Nodes searched: 197281$' 10
# A long perft runs as a search does: isready answered, stop ends it.
send "go perft 8"; sleep 0.2
send isready;                     expect '^readyok$' 2
send stop;                        expect '^info string perft stopped' 5

# Limited strength: UCI_Elo on Stockfish's scale, a shallow search of 4 lines.
send "setoption name UCI_LimitStrength value true"
send "setoption name UCI_Elo value 1500"
send "position startpos"
send "go depth 20";               expect '^info depth [1-9] .*multipv 4 ' 5; expect '^bestmove' 5
send "setoption name UCI_Elo value 100"; expect '^info string error: .*elo' 2
send "setoption name UCI_LimitStrength value false"
send "setoption name Skill Level value 21"; expect '^info string error: .*skill_level' 2

# searchmoves: only the moves listed.
send "position startpos"
send "go depth 5 searchmoves a2a3 h2h3"; expect '^bestmove (a2a3|h2h3)' 5

# Syzygy tablebases (../shared beside the checkout): the tables' verdict as the score.
send "setoption name SyzygyPath value /no/such/tables"; expect '^info string error: .*/no/such/tables'
# A path of 10,000 entries (once a minute's block): each directory read once.
long_path=$(printf '/tmp:%.0s' $(seq 10000))
send "setoption name SyzygyPath value ${long_path%:}"; send isready; expect '^readyok$' 5
send "setoption name SyzygyPath value <empty>"
shared_tb=""
if [[ -f configs/engines/default.textproto ]]; then
  shared_tb="$(dirname "$(readlink -f configs/engines/default.textproto)")/../../../shared/tablebases/syzygy"
fi
if [[ -d "$shared_tb" ]]; then
  send "setoption name SyzygyPath value $shared_tb"
  expect '^info string Found 35 tablebases, up to 4 pieces$'
  send "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
  send "go depth 4";              expect 'score cp 30000 .*tbhits [1-9]' 5
                                  expect '^bestmove' 5
  send "setoption name SyzygyPath value <empty>"; send isready; expect '^readyok$'
else
  echo "SKIP: ../shared/tablebases is absent; no tablebase search checked"
fi

# Garbage never kills the engine. After a rejected position, "go" answers the
# null move, never a move of the position before.
send "position startpos moves e2e4"
send "position fen not a fen";    expect '^info string'
send "go depth 3";                expect '^bestmove' 5
[[ "$LAST_LINE" == "bestmove 0000" ]] || fail "go after a rejected fen: $LAST_LINE"
send "position startpos moves e2e5"; expect '^info string'
send "go depth 3";                expect '^bestmove' 5
[[ "$LAST_LINE" == "bestmove 0000" ]] || fail "go after a rejected move: $LAST_LINE"
send "position startpos"
send "go depth banana";           expect '^info string error: go'
send "go movetime 50";            expect '^bestmove' 5
send "flibbertigibbet";           expect '^info string'
send "position fen 8/8/8/8/8/8/8/K6k w - - 2147483647 2147483647"; expect '^info string error.*halfmove'
send "go wtime 1000 winc 9223372036854775807"; expect '^bestmove' 5
send "setoption name Move Overhead value 9223372036854775807"; expect '^info string error'
# The advertised maximum Hash: a smaller table and a word about it, never a crash.
# (Not under TSan, whose allocator writes every page of a table that size.)
if [[ "${CHESS_HARNESS_SANITIZED:-}" != tsan ]]; then
  send "setoption name Hash value 65536"; send isready
  # On a machine with less than 128 GiB the table is smaller, and the engine says so.
  expect '^(info string Hash 65536 MB could not be allocated; using [0-9]+ MB|readyok)$' 10
  [[ "$LAST_LINE" == readyok ]] || expect '^readyok$' 10
  send "setoption name Hash value 16"
fi
send "setoption name ConfigFile value /no/such/file"; expect '^info string.*no/such/file'
send isready;                     expect '^readyok$'

# Fast time control: must answer well inside the clock. Judged by the CPU time the
# engine spent (all its threads, from /proc): wall time also counts the waits for a core
# on a loaded machine, which made this check fail when nothing was wrong.
cpu_ms() {
  local fields
  read -r -a fields <"/proc/$engine_pid/stat" || return 1
  echo $(( (fields[13] + fields[14]) * 1000 / $(getconf CLK_TCK) ))
}
send "position startpos"
send isready;                     expect '^readyok$'
cpu_before=$(cpu_ms)
start=$(date +%s%N)
send "go wtime 100 btime 100 winc 10 binc 10"; expect '^bestmove' 5
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
cpu_after=$(cpu_ms)
if [[ -n "$cpu_before" && -n "$cpu_after" ]]; then
  (( cpu_after - cpu_before < 100 )) ||
    fail "used $((cpu_after - cpu_before)) ms of CPU (${elapsed_ms} ms of wall time) on a 100 ms clock"
else
  echo "SKIP: the engine's CPU time is not readable from /proc/$engine_pid/stat"
fi

send quit
wait "$engine_pid" 2>/dev/null; rc=$?
(( rc == 0 )) || fail "exit code $rc after quit"

# End of input during any search stops it at once, prints bestmove and exits
# (as "quit" would): infinite, a depth that would take hours, huge clocks. "At once"
# is 5 s, scaled as every wait is.
hung_s=$((10 * wait_scale)) prompt_s=$((5 * wait_scale))
for go in "go infinite" "go depth 60" "go" "go wtime 999999999999 btime 999999999999" \
    "go movetime 999999999999" "go perft 9"; do
  start=$(date +%s)
  out=$(printf 'position startpos\n%s\n' "$go" | timeout "$hung_s" "$UCI"); rc=$?
  (( rc == 0 )) || fail "'$go' then end of input: exit code $rc (124: hung)"
  [[ "$go" == "go perft"* ]] || grep -q '^bestmove [a-h][1-8][a-h][1-8]' <<<"$out" ||
    fail "'$go' then end of input: no bestmove"
  (( $(date +%s) - start < prompt_s )) || fail "'$go' then end of input: took $(( $(date +%s) - start )) s"
done
# A bad config file exits with 2 and says where.
bad=$(mktemp); printf 'search {\n  hash_mb: -1\n}\n' >"$bad"
"$UCI" --config="$bad" </dev/null 2>"$bad.err"; rc=$?
(( rc == 2 )) || fail "bad config exit code $rc, want 2"
grep -q "$bad:2:" "$bad.err" || fail "bad config error lacks file:line: $(cat "$bad.err")"

if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "UCI session test passed"
