#!/usr/bin/env bash
# End to end on a real (one-node, local) Slurm cluster, through sbatch: a sharded
# node-limited match merges to the single-machine result; an SPRT over all shards stops
# every shard; a shard requeued mid-run (killed and started again) loses nothing and plays
# nothing twice. Run by .ci/run as root. Where Slurm cannot start, it says why and is
# skipped (exit 0 with a SKIPPED line), never passed silently.
#   bash tests/slurm/slurm_test.sh [ARENA]
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ARENA="${1:-}"
if [[ -z "$ARENA" ]]; then
  bazel build //arena >/dev/null 2>&1 || { echo "FAIL: cannot build //arena"; exit 1; }
  ARENA="$ROOT/bazel-bin/arena/arena"
fi
if ! why=$(bash tests/slurm/cluster.sh check 2>&1); then
  echo "SKIPPED: slurm_test: Slurm cannot start here: $why"
  exit 0
fi
CLUSTER=$(mktemp -d /tmp/chess-harness-slurm-test.XXXXXX)
if ! env_line=$(bash tests/slurm/cluster.sh up "$CLUSTER" 2>"$CLUSTER/up.err"); then
  echo "SKIPPED: slurm_test: the local cluster did not start: $(cat "$CLUSTER/up.err")"
  exit 0
fi
eval "$env_line"
trap 'bash tests/slurm/cluster.sh down "$CLUSTER" 2>/dev/null' EXIT
WORK=$(mktemp -d /tmp/chess-harness-slurm-work.XXXXXX)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
moves_only() { "$ARENA" pgn "$1" | grep -v '^\[Date ' | sed -e 's/{[^}]*}//g'; }

# 1. Four shards through sbatch = one machine, number for number.
cat >"$WORK/m.textproto" <<CONFIG
name: "slurm"
players { name: "default" config_file: "$ROOT/configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "pesto" config_file: "$ROOT/configs/engines/pesto.textproto"
          overrides { search { hash_mb: 1 } } }
games: 16
openings { file: "$ROOT/configs/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: 1000 }
adjudication { max_moves: 80 }
seed: 3
CONFIG
"$ARENA" "$WORK/m.textproto" --output_dir="$WORK/single" --progress=false >/dev/null
"$ARENA" slurm "$WORK/m.textproto" --shards=4 --output_dir="$WORK/sharded" --wait \
    2>"$WORK/submit.err"; rc=$?
(( rc == 0 )) || fail "arena slurm --wait: exit $rc: $(cat "$WORK/submit.err")"
"$ARENA" summary "$WORK/single" >"$WORK/single.txt"
"$ARENA" summary "$WORK/sharded/merged" >"$WORK/merged.txt"
cmp -s "$WORK/single.txt" "$WORK/merged.txt" ||
  fail "merged standings differ: $(diff "$WORK/single.txt" "$WORK/merged.txt")"
cmp -s <(moves_only "$WORK/single") <(moves_only "$WORK/sharded/merged") ||
  fail "merged games differ from the single-machine games"
echo "sharded match: $(head -1 "$WORK/merged.txt")"

# 2. An SPRT over all shards stops every shard.
sed -e 's/games: 16/games: 2000/' -e 's|pesto.textproto|material.textproto|' \
    -e 's/seed: 3/seed: 4\nsprt { elo0: 0 elo1: 10 alpha: 0.05 beta: 0.05 }/' \
    "$WORK/m.textproto" >"$WORK/sprt.textproto"
"$ARENA" slurm "$WORK/sprt.textproto" --shards=4 --output_dir="$WORK/sprt" --wait \
    2>"$WORK/sprt.err"; rc=$?
(( rc == 0 )) || fail "SPRT match: exit $rc, want 0 (H1): $(cat "$WORK/sprt.err")"
"$ARENA" summary "$WORK/sprt/merged" >"$WORK/sprt.txt"
grep -q "H1 accepted" "$WORK/sprt.txt" || fail "no H1: $(cat "$WORK/sprt.txt")"
played=$(grep -oP '^Match slurm: \K[0-9]+' "$WORK/sprt.txt")
(( played < 2000 )) || fail "the SPRT did not stop the shards ($played games)"
for i in 0 1 2 3; do
  grep -q "stopped: the SPRT over all shards accepted H1" "$WORK"/sprt/shard-$i/slurm-*.out ||
    fail "shard $i did not stop on the SPRT: $(tail -2 "$WORK"/sprt/shard-$i/slurm-*.out)"
done
echo "SPRT over shards: $(grep -m1 'SPRT:' "$WORK/sprt.txt" | xargs), $played games"

# 3. A shard requeued mid-run (killed, then started again) loses nothing. Each shard
# plays 16 games of ~0.3 s, so the requeue lands seconds before the shard could end.
sed -e 's/games: 16/games: 64/' -e 's/nodes: 1000/nodes: 20000/' -e 's/seed: 3/seed: 5/' \
    "$WORK/m.textproto" \
    >"$WORK/requeue.textproto"
"$ARENA" "$WORK/requeue.textproto" --output_dir="$WORK/requeue-single" --progress=false >/dev/null
"$ARENA" slurm "$WORK/requeue.textproto" --shards=4 --output_dir="$WORK/requeue" --wait \
    2>"$WORK/requeue.err" &
submitter=$!
job=""
for _ in $(seq 1 300); do
  job=$(grep -oP 'shards: job \K[0-9]+' "$WORK/requeue.err" 2>/dev/null)
  if [[ -n "$job" && -s "$WORK/requeue/shard-0/games.log" ]] &&
     squeue -h -j "${job}_0" -t RUNNING 2>/dev/null | grep -q .; then
    games=$("$ARENA" summary "$WORK/requeue/shard-0" 2>/dev/null | grep -oP '^Match slurm \(shard 0/4\): \K[0-9]+')
    (( ${games:-0} >= 1 )) && break
  fi
  sleep 0.2
done
if [[ -n "$job" ]]; then
  (( ${games:-0} < 16 )) || fail "shard 0 ended before it could be requeued (${games} games)"
  echo "requeue: shard 0 requeued after ${games} of 16 games"
  scontrol requeue "${job}_0" || fail "scontrol requeue ${job}_0"
  # A requeued job waits for its begin time; release it now.
  sleep 1; scontrol update JobId="${job}_0" StartTime=now 2>/dev/null
else
  fail "shard 0 never ran"
fi
wait "$submitter"; rc=$?
(( rc == 0 )) || fail "requeued match: exit $rc: $(cat "$WORK/requeue.err")"
grep -q "^resuming: " "$WORK"/requeue/shard-0/slurm-*.out ||
  fail "shard 0 was not resumed after the requeue: $(cat "$WORK"/requeue/shard-0/slurm-*.out)"
"$ARENA" summary "$WORK/requeue/merged" | grep -q "duplicate" && fail "duplicate games"
cmp -s <("$ARENA" summary "$WORK/requeue-single") <("$ARENA" summary "$WORK/requeue/merged") ||
  fail "requeued match differs from the single-machine match"
echo "requeue: shard 0 killed and resumed; merged = single machine"

if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "slurm_test: PASS (3 jobs through sbatch on a local cluster)"
