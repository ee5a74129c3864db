#!/usr/bin/env bash
# End to end on a Slurm cluster of three nodes, each in its own network namespace with its
# own address and hostname (tests/slurm/netns_cluster.sh): a sharded SPRT match plays
# across them; mid-run the node under shard 0 is killed (its slurmd and job steps,
# SIGKILL, as a crash); Slurm requeues the shard, which resumes from its log on another
# node; the merged result equals the single-machine run with the same seed, game for
# game. Then the node comes back and takes work again. Last, a clock match over a fast
# node and one held to a tenth of a core scales each node's clocks to its measured
# speed. Everything it made (namespaces, links, bridge, cgroups, daemons) is removed on
# exit, failed or not. Run by .ci/run as root;
# where the cluster cannot start, it says why and is skipped (exit 0, a SKIPPED line).
#   bash tests/slurm/cluster_test.sh [ARENA]
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ARENA="${1:-}"
if [[ -z "$ARENA" ]]; then
  bazel build //arena >/dev/null 2>&1 || { echo "FAIL: cannot build //arena"; exit 1; }
  ARENA="$ROOT/bazel-bin/arena/arena"
fi
NODES=3
if ! why=$(bash tests/slurm/netns_cluster.sh check 2>&1); then
  echo "SKIPPED: cluster_test: a cluster of namespaces cannot start here: $why"
  exit 0
fi
CLUSTER=$(mktemp -d /tmp/chess-harness-cluster.XXXXXX)
trap 'bash tests/slurm/netns_cluster.sh down "$CLUSTER" 2>/dev/null; rm -rf "$CLUSTER"' EXIT
if ! env_line=$(bash tests/slurm/netns_cluster.sh up "$CLUSTER" "$NODES" 2>"$CLUSTER/up.err"); then
  echo "FAIL: cluster_test: the cluster did not start: $(cat "$CLUSTER/up.err")"
  exit 1
fi
eval "$env_line"
WORK="$CLUSTER/work"
mkdir -p "$WORK"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
moves_only() { "$ARENA" pgn "$1" | grep -v '^\[Date ' | sed -e 's/{[^}]*}//g'; }
games_in() { "$ARENA" summary "$1" 2>/dev/null | grep -oP '^Match [^:]*: \K[0-9]+' || echo 0; }

# A node-limited SPRT of two engines close in strength, so that its cap, not a verdict
# (whose timing differs from run to run), ends it: the same games wherever they are
# played. Three shards of 20 games, about 10 s each on one core.
cat >"$WORK/m.textproto" <<CONFIG
name: "cluster"
players { name: "default" config_file: "$ROOT/configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "stockfish_taught"
          config_file: "$ROOT/configs/engines/stockfish_taught.textproto"
          overrides { search { hash_mb: 1 } } }
games: 60
openings { file: "$ROOT/configs/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: 3000 }
adjudication { max_moves: 80 }
sprt { elo0: 0 elo1: 5 }
seed: 9
CONFIG
"$ARENA" "$WORK/m.textproto" --output_dir="$WORK/single" --progress=false >/dev/null
"$ARENA" slurm "$WORK/m.textproto" --shards=$NODES --output_dir="$WORK/sharded" --wait \
    >/dev/null 2>"$WORK/submit.err" &
submitter=$!

# Shard 0 running with some games played but far from its 40: kill its node.
job="" node="" killed_at=0
for _ in $(seq 1 600); do
  job=$(grep -oP 'shards: job \K[0-9]+' "$WORK/submit.err" 2>/dev/null)
  if [[ -n "$job" ]]; then
    node=$(squeue -h -j "${job}_0" -t RUNNING -o %N 2>/dev/null)
    if [[ -n "$node" ]] && (( $(games_in "$WORK/sharded/shard-0") >= 4 )); then
      bash tests/slurm/netns_cluster.sh kill "$CLUSTER" "$node"
      for i in $(seq 0 $((NODES - 1))); do
        killed_at=$((killed_at + $(games_in "$WORK/sharded/shard-$i")))
      done
      break
    fi
  fi
  sleep 0.2
done
[[ -n "$node" ]] || fail "shard 0 never ran"
(( $(games_in "$WORK/sharded/shard-0") < 20 )) || fail "shard 0 ended before its node was killed"
echo "killed $node (running shard 0 of job $job) at $killed_at games"

# Slurm marks the node down once it misses SlurmdTimeout (10 s) and requeues the shard;
# a requeued job waits 121 s for its begin time, which the test brings forward.
for _ in $(seq 1 300); do
  state=$(squeue -h -j "${job}_0" -o '%T %r' 2>/dev/null)
  [[ "$state" == "PENDING BeginTime" ]] && scontrol update JobId="${job}_0" StartTime=now 2>/dev/null
  [[ "$state" == RUNNING* || -z "$state" ]] && (( $(grep -c '^resuming: ' \
      "$WORK"/sharded/shard-0/slurm-*.out 2>/dev/null) >= 1 )) && break
  sleep 0.5
done
wait "$submitter"; rc=$?
(( rc == 0 )) || fail "arena slurm --wait: exit $rc: $(tail -3 "$WORK/submit.err")"
sinfo -h -N -o '%N %T' | grep -q "^$node down" ||
  fail "$node is not down after its crash: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
grep -q '^resuming: ' "$WORK"/sharded/shard-0/slurm-*.out ||
  fail "shard 0 did not resume from its log: $(cat "$WORK"/sharded/shard-0/slurm-*.out)"
resumed_on=$(grep -hoP '^slurm start: shard 0 on \K[^ ]+' "$WORK"/sharded/shard-0/slurm-*.out | tail -1)
[[ -n "$resumed_on" && "$resumed_on" != "$node" ]] ||
  fail "shard 0 resumed on '$resumed_on', not on another node than $node"
"$ARENA" summary "$WORK/sharded/merged" >"$WORK/merged.txt"
"$ARENA" summary "$WORK/single" >"$WORK/single.txt"
same=yes
cmp -s "$WORK/single.txt" "$WORK/merged.txt" ||
  { same=no; fail "merged standings differ: $(diff "$WORK/single.txt" "$WORK/merged.txt")"; }
cmp -s <(moves_only "$WORK/single") <(moves_only "$WORK/sharded/merged") ||
  { same=no; fail "merged games differ from the single-machine games"; }
grep -q duplicate "$WORK/merged.txt" && { same=no; fail "duplicate games"; }
echo "merged: $(head -1 "$WORK/merged.txt"), shard 0 resumed on $resumed_on"
"$ARENA" status "$WORK/sharded" >"$WORK/status.txt" || fail "arena status failed"
grep -qE "^  shard 0  $resumed_on +20 of 20 games  done \(started 2 times\)$" "$WORK/status.txt" ||
  fail "arena status does not show shard 0 requeued onto $resumed_on: $(cat "$WORK/status.txt")"
grep -A4 '^shards:' "$WORK/status.txt"

# The node comes back (ReturnToService=2) and takes work again: under its own name.
bash tests/slurm/netns_cluster.sh revive "$CLUSTER" "$node" || fail "$node did not come back"
for _ in $(seq 1 120); do
  sinfo -h -N -o '%N %T' | grep -qE "^$node idle" && break
  sleep 0.5
done
sbatch --wait -w "$node" -o "$WORK/back.out" --wrap hostname >/dev/null 2>&1 ||
  fail "$node took no job after coming back: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
[[ "$(cat "$WORK/back.out" 2>/dev/null)" == "$node" ]] ||
  fail "the job on $node ran elsewhere: '$(cat "$WORK/back.out" 2>/dev/null)'"

# Machines of different speed: node3 held to a tenth of a core. A clock match over node1
# and node3 (node2 drained), its clocks scaled to each node's measured speed: the slow
# node's games get clocks several times longer (at least twice node1's, even when other
# work on this machine slows node1 too), and every game records its factor.
scontrol update NodeName=node2 State=DRAIN Reason=speed-test >/dev/null 2>&1
bash tests/slurm/netns_cluster.sh slow "$CLUSTER" node3 10 || fail "node3 could not be slowed"
cat >"$WORK/clock.textproto" <<CONFIG
name: "clock"
players { name: "default" config_file: "$ROOT/configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "pesto" config_file: "$ROOT/configs/engines/pesto.textproto"
          overrides { search { hash_mb: 1 } } }
games: 4
openings { file: "$ROOT/configs/openings/balanced.epd" order: SHUFFLED }
time_control { base_ms: 1000 increment_ms: 10 }
adjudication { max_moves: 16 }
clock_reference_nps: 500000
seed: 10
CONFIG
"$ARENA" slurm "$WORK/clock.textproto" --shards=2 --output_dir="$WORK/clock" --wait \
    >/dev/null 2>"$WORK/clock.err" || fail "the clock match failed: $(tail -3 "$WORK/clock.err")"
scale_on() {  # the clock scale of the games of the shard that ran on node $1
  local i
  for i in 0 1; do
    grep -q "^slurm start: shard $i on $1 " "$WORK"/clock/shard-$i/slurm-*.out 2>/dev/null &&
      "$ARENA" pgn "$WORK/clock/shard-$i" | grep -oP '^\[ClockScale "\K[0-9.]+' | sort -u
  done
}
fast=$(scale_on node1) slow=$(scale_on node3)
if [[ $(wc -w <<<"$fast") -ne 1 || $(wc -w <<<"$slow") -ne 1 ]]; then
  fail "want one clock scale a node, node1: '$fast', node3: '$slow'"
else
  awk -v f="$fast" -v s="$slow" 'BEGIN { exit !(s >= 2 * f) }' ||
    fail "node3 at a tenth of a core got clocks x$slow, node1 x$fast"
  echo "clocks: node1 x$fast, node3 (10 % of a core) x$slow"
fi
"$ARENA" summary "$WORK/clock/merged" | grep -q "^Clocks scaled to each machine: x" ||
  fail "the summary does not show the clock scales"

if ((failures)); then echo "$failures failure(s)"; exit 1; fi
echo "cluster: $NODES nodes, node $node killed at $killed_at games, merged = single machine: $same"
