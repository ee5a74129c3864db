#!/usr/bin/env bash
# End to end on a real (one-node, local) Slurm cluster, through sbatch: a sharded
# node-limited match merges to the single-machine result; an SPRT over all shards stops
# every shard; a shard requeued mid-run (killed and started again) loses nothing and plays
# nothing twice; the tuner's SPSA iterations (through sbatch, and as srun job steps inside
# an allocation), its loop and its data generation give on Slurm exactly what they give
# in process. Run by
# .ci/run as root. Where Slurm cannot start, it says why and is skipped (exit 0 with a
# SKIPPED line), never passed silently.
#   bash tests/slurm/slurm_test.sh [ARENA TUNER UCI]
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ARENA="${1:-}"
TUNER="${2:-}"
UCI="${3:-}"
if [[ -z "$ARENA" || -z "$TUNER" || -z "$UCI" ]]; then
  bazel build //arena //tuner //engine:uci >/dev/null 2>&1 ||
    { echo "FAIL: cannot build //arena //tuner //engine:uci"; exit 1; }
  ARENA="$ROOT/bazel-bin/arena/arena"
  TUNER="$ROOT/bazel-bin/tuner/tuner"
  UCI="$ROOT/bazel-bin/engine/uci"
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
WORK=$(mktemp -d /tmp/chess-harness-slurm-work.XXXXXX)
failures=0
# The cluster's directory always goes; the games stay only when a check failed.
trap 'bash tests/slurm/cluster.sh down "$CLUSTER" 2>/dev/null; rm -rf "$CLUSTER"
      if ((failures)); then echo "games kept in $WORK"; else rm -rf "$WORK"; fi' EXIT
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
    >/dev/null 2>"$WORK/submit.err"; rc=$?
(( rc == 0 )) || fail "arena slurm --wait: exit $rc: $(cat "$WORK/submit.err")"
# The shards ran the run's own copy of the binary, not the path inside Bazel's cache.
[[ -x "$WORK/sharded/bin/arena" ]] || fail "no copy of the arena binary in the run's directory"
grep -q "^exec '$WORK/sharded/bin/arena' " "$WORK/sharded/shards.sbatch" ||
  fail "the shards do not run the run's copy: $(grep '^exec' "$WORK/sharded/shards.sbatch")"
"$ARENA" summary "$WORK/single" >"$WORK/single.txt"
"$ARENA" summary "$WORK/sharded/merged" >"$WORK/merged.txt"
cmp -s "$WORK/single.txt" "$WORK/merged.txt" ||
  fail "merged standings differ: $(diff "$WORK/single.txt" "$WORK/merged.txt")"
cmp -s <(moves_only "$WORK/single") <(moves_only "$WORK/sharded/merged") ||
  fail "merged games differ from the single-machine games"
echo "sharded match: $(head -1 "$WORK/merged.txt")"

# 2. An SPRT over all shards stops every shard. At 300 nodes a move the SPRT against
# `material` crosses its bound after 154 games, as at 1,000 (the section: 16 s, not 24).
sed -e 's/games: 16/games: 2000/' -e 's|pesto.textproto|material.textproto|' \
    -e 's/nodes: 1000/nodes: 300/' \
    -e 's/seed: 3/seed: 4\nsprt { elo0: 0 elo1: 10 alpha: 0.05 beta: 0.05 }/' \
    "$WORK/m.textproto" >"$WORK/sprt.textproto"
"$ARENA" slurm "$WORK/sprt.textproto" --shards=4 --output_dir="$WORK/sprt" --wait \
    >/dev/null 2>"$WORK/sprt.err"; rc=$?
(( rc == 0 )) || fail "SPRT match: exit $rc, want 0 (H1): $(cat "$WORK/sprt.err")"
"$ARENA" summary "$WORK/sprt/merged" >"$WORK/sprt.txt"
grep -q "H1 accepted" "$WORK/sprt.txt" || fail "no H1: $(cat "$WORK/sprt.txt")"
played=$(grep -oP '^Match slurm: \K[0-9]+' "$WORK/sprt.txt")
(( played < 2000 )) || fail "the SPRT did not stop the shards ($played games)"
for i in 0 1 2 3; do
  grep -q "the SPRT over all shards accepted H1" "$WORK"/sprt/shard-$i/slurm-*.out ||
    fail "shard $i did not stop on the SPRT: $(tail -2 "$WORK"/sprt/shard-$i/slurm-*.out)"
done
echo "SPRT over shards: $(grep -m1 'SPRT:' "$WORK/sprt.txt" | xargs), $played games"

# 3. A shard requeued mid-run (killed, then started again) loses nothing. Each shard
# plays 16 games of ~0.5 s, so the requeue lands seconds before the shard could end.
# (20,000 nodes a move made games of 5 s with the network `default`: the section took
# 500 s of both cores' time.)
sed -e 's/games: 16/games: 64/' -e 's/nodes: 1000/nodes: 2000/' -e 's/seed: 3/seed: 5/' \
    "$WORK/m.textproto" \
    >"$WORK/requeue.textproto"
"$ARENA" "$WORK/requeue.textproto" --output_dir="$WORK/requeue-single" --progress=false >/dev/null
"$ARENA" slurm "$WORK/requeue.textproto" --shards=4 --output_dir="$WORK/requeue" --wait \
    >/dev/null 2>"$WORK/requeue.err" &
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

# 4. The tuner on Slurm: SPSA iterations (each a 2-shard match) through sbatch and as srun
# job steps inside an allocation, and a loop generation, end exactly where they end in
# process: node-limited games are the same games wherever they are played.
cat >"$WORK/spsa.textproto" <<CONFIG
engine_config: "$ROOT/configs/engines/default.textproto"
book: "$ROOT/configs/openings/balanced.epd"
iterations: 3
pairs_per_iteration: 4
nodes: 500
parameters { name: "lmr_base_x100" min: 0 max: 200 c_end: 10 }
parameters { name: "aspiration_window_cp" min: 10 max: 100 c_end: 5 }
CONFIG
spsa() { "$TUNER" spsa "$WORK/spsa.textproto" --state="$WORK/$1.state" --work_dir="$WORK/$1" \
           --arena="$ARENA" "${@:2}"; }
spsa spsa-local >/dev/null 2>&1 || fail "tuner spsa in process failed"
spsa spsa-sbatch --shards=2 >"$WORK/spsa-sbatch.txt" 2>&1 ||
  fail "tuner spsa --shards=2: $(tail -3 "$WORK/spsa-sbatch.txt")"
sbatch --wait --ntasks=2 --output="$WORK/spsa-srun.txt" --wrap="$(printf '%q ' \
    "$TUNER" spsa "$WORK/spsa.textproto" --state="$WORK/spsa-srun.state" \
    --work_dir="$WORK/spsa-srun" --arena="$ARENA" --shards=2 --srun)" >/dev/null ||
  fail "tuner spsa --srun in an allocation: $(tail -3 "$WORK/spsa-srun.txt")"
for mode in sbatch srun; do
  [[ -s "$WORK/spsa-$mode/iteration-3/shard-1/games.log" ]] ||
    fail "spsa through $mode: shard 1 of iteration 3 played nothing"
  # One copy of the arena for the run, not one an iteration.
  [[ -x "$WORK/spsa-$mode/bin/arena" ]] || fail "spsa through $mode: no run copy of the arena"
  ls -d "$WORK/spsa-$mode"/iteration-*/bin 2>/dev/null | grep -q . &&
    fail "spsa through $mode: an iteration has its own copy of the arena"
  cmp -s "$WORK/spsa-local/final.textproto" "$WORK/spsa-$mode/final.textproto" ||
    fail "spsa through $mode ended elsewhere than in process: $(diff \
      "$WORK/spsa-local/final.textproto" "$WORK/spsa-$mode/final.textproto")"
done
cat >"$WORK/loop.textproto" <<CONFIG
name: "tiny"
start_config: "$ROOT/configs/engines/simplified.textproto"
book: "$ROOT/configs/openings/balanced.epd"
generations: 1
selfplay_games: 16
selfplay_nodes: 1000
texel { epochs: 20 learning_rate: 2.0 threads: 1 seed: 1 }
sprt_games: 16
concurrency: 2
CONFIG
"$TUNER" loop "$WORK/loop.textproto" --output_dir="$WORK/loop-local" >"$WORK/loop-local.txt" \
    2>/dev/null || fail "tuner loop in process failed"
"$TUNER" loop "$WORK/loop.textproto" --output_dir="$WORK/loop-slurm" --shards=2 \
    --arena="$ARENA" >"$WORK/loop-slurm.txt" 2>/dev/null || fail "tuner loop on Slurm failed"
[[ -s "$WORK/loop-slurm/gen1/sprt/merged/games.log" ]] || fail "the loop's SPRT was not merged"
cmp -s "$WORK/loop-local.txt" "$WORK/loop-slurm.txt" ||
  fail "tuner loop on Slurm differs: $(diff "$WORK/loop-local.txt" "$WORK/loop-slurm.txt")"
# The network loop: its data generation and its SPRT sharded, the same table.
cat >"$WORK/netloop.textproto" <<CONFIG
name: "tiny-net"
start_config: "$ROOT/configs/engines/pesto.textproto"
book: "$ROOT/configs/openings/balanced.epd"
generations: 1
selfplay_nodes: 500
sprt_games: 8
concurrency: 2
datagen { games: 8 soft_nodes: 300 seed: 5 }
held_out_games: 4
network { layout: PERSPECTIVE whole_evaluation: true hidden_size: 32 epochs: 1 threads: 1 }
CONFIG
"$TUNER" loop "$WORK/netloop.textproto" --output_dir="$WORK/netloop-local" \
    >"$WORK/netloop-local.txt" 2>/dev/null || fail "the network loop in process failed"
"$TUNER" loop "$WORK/netloop.textproto" --output_dir="$WORK/netloop-slurm" --shards=2 \
    --arena="$ARENA" >"$WORK/netloop-slurm.txt" 2>/dev/null || fail "the network loop on Slurm failed"
cmp -s "$WORK/netloop-local.txt" "$WORK/netloop-slurm.txt" ||
  fail "the network loop on Slurm differs: $(diff "$WORK/netloop-local.txt" "$WORK/netloop-slurm.txt")"
echo "tuner: spsa through sbatch and srun, the loop and the network loop, on Slurm = in process"
# The loop for another engine (our uci as a UCI program): its data and its SPRT sharded.
python3 tests/tuner/bullet_reference.py write 32 3 "$WORK/start.bin" || fail "no start network"
cat >"$WORK/engineloop.textproto" <<CONFIG
name: "engine-net"
book: "$ROOT/configs/openings/balanced.epd"
generations: 1
selfplay_nodes: 500
sprt_games: 8
concurrency: 2
external { engine { argv: "$UCI" options { key: "Hash" value: "1" } } start_network: "$WORK/start.bin" }
datagen { games: 8 soft_nodes: 300 seed: 5 }
held_out_games: 4
network { layout: PERSPECTIVE whole_evaluation: true hidden_size: 32 epochs: 1 threads: 1 }
CONFIG
"$TUNER" loop "$WORK/engineloop.textproto" --output_dir="$WORK/engineloop-slurm" --shards=2 \
    --arena="$ARENA" >"$WORK/engineloop-slurm.txt" 2>"$WORK/engineloop-slurm.err" ||
  fail "the loop for another engine on Slurm failed: $(tail -3 "$WORK/engineloop-slurm.err")"
[[ -s "$WORK/engineloop-slurm/gen1.bin" && -s "$WORK/engineloop-slurm/gen1.bin.provenance" ]] ||
  fail "the loop for another engine on Slurm wrote no network file"
[[ -s "$WORK/engineloop-slurm/gen1/sprt/merged/games.log" ]] ||
  fail "the loop for another engine: its SPRT was not merged"
echo "tuner: the loop for another engine on Slurm: $(tail -1 "$WORK/engineloop-slurm.txt")"

# 5. Data generation sharded on Slurm: the same positions as in process.
cat >"$WORK/datagen.textproto" <<CONFIG
player { name: "simplified" config_file: "$ROOT/configs/engines/simplified.textproto"
         overrides { search { hash_mb: 1 } } }
games: 8
soft_nodes: 500
random_plies: 8
concurrency: 1
seed: 6
filters { keep_duplicates: true }
CONFIG
"$TUNER" datagen "$WORK/datagen.textproto" --output_dir="$WORK/datagen-local" \
    --out="$WORK/datagen-local.txt" >/dev/null 2>&1 || fail "tuner datagen in process failed"
"$TUNER" datagen "$WORK/datagen.textproto" --output_dir="$WORK/datagen-slurm" --shards=2 \
    --arena="$ARENA" --out="$WORK/datagen-slurm.txt" >"$WORK/datagen-slurm.log" 2>&1 ||
  fail "tuner datagen on Slurm failed: $(tail -3 "$WORK/datagen-slurm.log")"
[[ -s "$WORK/datagen-slurm/games/shard-1/games.log" ]] || fail "datagen shard 1 played nothing"
[[ -s "$WORK/datagen-local.txt" ]] || fail "datagen in process wrote no positions"
cmp -s <(sort "$WORK/datagen-local.txt") <(sort "$WORK/datagen-slurm.txt") ||
  fail "datagen on Slurm differs from in process"
echo "datagen: $(wc -l <"$WORK/datagen-slurm.txt") positions on 2 Slurm shards = in process"

if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "slurm_test: PASS (matches, SPRT, requeue, the tuner and datagen through sbatch and srun on a local cluster)"
