#!/usr/bin/env bash
# A Slurm cluster of several nodes on this machine, each node a network namespace with its
# own address and hostname: slurmctld on the host, one slurmd per namespace, joined by a
# bridge this script makes (10.213.57.0/24, no route beyond it: traffic goes only between
# the nodes and this machine). The run's directory is the shared filesystem. Root; Debian
# 12's slurmctld, slurmd, slurm-client, munge and iproute2.
#
#   bash tests/slurm/netns_cluster.sh up DIR N    starts N nodes (node1..nodeN); prints
#                                                 `export SLURM_CONF=DIR/slurm.conf`;
#                                                 first removes a bridge and namespaces
#                                                 of ours that a killed run left behind
#   bash tests/slurm/netns_cluster.sh kill DIR NODE     SIGKILLs everything on NODE (its
#                                                       slurmd and job steps), as a crash
#   bash tests/slurm/netns_cluster.sh revive DIR NODE   starts NODE's slurmd again
#   bash tests/slurm/netns_cluster.sh slow DIR NODE P   holds NODE (its slurmd and what it
#                                                       starts) to P % of one core
#   bash tests/slurm/netns_cluster.sh down DIR          stops every daemon, removes every
#                                                       namespace, link and the bridge
#   bash tests/slurm/netns_cluster.sh check             exit 0 if it can start here
#
# Exit codes: 0 done, 1 cannot start here or failed (the reason on stderr), 2 usage.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common_conf.sh"
action="${1:-}"
DIR="${2:-}"
SUBNET=10.213.57
BRIDGE=chessbr0
NS_PREFIX=chess-harness-
say() { echo "netns cluster: $*" >&2; }

check() {
  bash "$(dirname "$0")/cluster.sh" check || return 1
  command -v ip >/dev/null || { say "ip not installed (apt-get install iproute2)"; return 1; }
  command -v unshare >/dev/null || { say "unshare not installed (util-linux)"; return 1; }
  ip netns add "${NS_PREFIX}probe" 2>/dev/null ||
    { say "cannot make a network namespace here (ip netns add failed)"; return 1; }
  ip netns del "${NS_PREFIX}probe"
}

node_address() { echo "$SUBNET.$((10 + ${1#node}))"; }

start_slurmd() {
  local node=$1
  # Its own hostname (a UTS namespace) inside its own network namespace; slurmd
  # daemonizes, its children stay in both. nsenter, not `ip netns exec`, which mounts
  # a /sys without the cgroup filesystem slurmd needs.
  nsenter --net="/run/netns/$NS_PREFIX$node" unshare --uts -- sh -c \
    "hostname $node && exec slurmd -f '$DIR/slurm.conf' -N $node" ||
    { say "slurmd on $node did not start: $(tail -3 "$DIR/log/slurmd-$node.log" 2>/dev/null)"; return 1; }
}

write_conf() {
  local n=$1 host nodes=""
  host=$(hostname -s)
  for i in $(seq 1 "$n"); do
    nodes+="NodeName=node$i NodeHostname=node$i NodeAddr=$(node_address "node$i") CPUs=1 State=UNKNOWN"$'\n'
  done
  { common_slurm_conf; cat <<CONF; } >"$DIR/slurm.conf"
ClusterName=chess-harness-netns
SlurmctldHost=$host($SUBNET.1)
SlurmdParameters=config_overrides
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd-%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd-%n.log
SlurmdTimeout=10
MessageTimeout=5
$nodes
PartitionName=main Nodes=node[1-$n] Default=YES MaxTime=INFINITE State=UP
CONF
}

up() {
  local n=$1
  check || return 1
  if pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null; then
    say "slurmctld or slurmd is already running here (another cluster?); not starting a second"
    return 1
  fi
  remove_leftovers
  mkdir -p "$DIR"/{state,spool,log}
  bash "$(dirname "$0")/cluster.sh" munge || return 1
  ip link add "$BRIDGE" type bridge && ip addr add "$SUBNET.1/24" dev "$BRIDGE" &&
    ip link set "$BRIDGE" up || { say "cannot make the bridge $BRIDGE"; return 1; }
  for i in $(seq 1 "$n"); do
    local ns="${NS_PREFIX}node$i" link="chessv$i"
    ip netns add "$ns" && ip link add "$link" type veth peer name eth0 netns "$ns" &&
      ip link set "$link" master "$BRIDGE" && ip link set "$link" up &&
      ip -n "$ns" addr add "$(node_address "node$i")/24" dev eth0 &&
      ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up ||
      { say "cannot make node$i's namespace"; return 1; }
    mkdir -p "$DIR/spool/node$i"
  done
  write_conf "$n"
  export SLURM_CONF="$DIR/slurm.conf"
  slurmctld -f "$SLURM_CONF" ||
    { say "slurmctld did not start: $(tail -3 "$DIR/log/slurmctld.log")"; return 1; }
  for i in $(seq 1 "$n"); do start_slurmd "node$i" || return 1; done
  for _ in $(seq 1 120); do
    if [[ $(sinfo -h -N -o '%T' 2>/dev/null | grep -cE '^(idle|mixed|allocated)$') -eq $n ]]; then
      echo "export SLURM_CONF=$SLURM_CONF"
      say "up: $n nodes (node1..node$n at $SUBNET.11..), $SLURM_CONF"
      return 0
    fi
    sleep 0.5
  done
  say "the nodes did not become idle: $(sinfo -N 2>&1 | tail -4)"
  return 1
}

# A CPU quota on a cgroup of its own (v1's cpu controller, or v2's cpu.max).
cgroup_of() {
  if [[ -e /sys/fs/cgroup/cpu/cgroup.procs ]]; then
    echo "/sys/fs/cgroup/cpu/$NS_PREFIX$1"
  else
    echo "/sys/fs/cgroup/$NS_PREFIX$1"
  fi
}

slow_node() {
  local node=$1 percent=$2 group pid
  group=$(cgroup_of "$node")
  pid=$(cat "$DIR/slurmd-$node.pid" 2>/dev/null)
  [[ -n "$pid" ]] || { say "$node has no slurmd to slow"; return 1; }
  mkdir -p "$group" || { say "cannot make the cgroup $group"; return 1; }
  if [[ -e "$group/cpu.cfs_quota_us" ]]; then
    echo 100000 >"$group/cpu.cfs_period_us" && echo $((percent * 1000)) >"$group/cpu.cfs_quota_us"
  else
    echo "$((percent * 1000)) 100000" >"$group/cpu.max"
  fi || { say "cannot set a CPU quota on $group"; return 1; }
  echo "$pid" >"$group/cgroup.procs" || { say "cannot move $node's slurmd into $group"; return 1; }
}

kill_node() {
  local pids
  pids=$(ip netns pids "$NS_PREFIX$1" 2>/dev/null)
  [[ -n "$pids" ]] && kill -9 $pids 2>/dev/null
  rm -f "$DIR/slurmd-$1.pid"
}

# Every namespace, link and cgroup under our names, with what runs in them.
remove_network() {
  local ns group
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$NS_PREFIX"); do
    kill_node "${ns#"$NS_PREFIX"}"
    ip netns del "$ns" 2>/dev/null
  done
  # A veth goes with its namespace; the bridge and the cgroups are ours to remove.
  ip link del "$BRIDGE" 2>/dev/null
  for group in /sys/fs/cgroup/cpu/"$NS_PREFIX"* /sys/fs/cgroup/"$NS_PREFIX"*; do
    [[ -d "$group" ]] && rmdir "$group" 2>/dev/null
  done
  return 0
}

# A run killed before its `down` (a CI job cut off, a machine stopped) leaves the bridge
# and namespaces behind, and `ip link add` then fails with "File exists". No Slurm daemon
# runs here (up checked), so nothing uses them: they go.
remove_leftovers() {
  if ip link show "$BRIDGE" >/dev/null 2>&1 ||
    ip netns list 2>/dev/null | grep -q "^$NS_PREFIX"; then
    say "removing the bridge and namespaces an earlier run left behind"
    remove_network
  fi
}

down() {
  local pid
  remove_network
  pid=$(cat "$DIR/slurmctld.pid" 2>/dev/null)
  if [[ -n "$pid" ]]; then
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    rm -f "$DIR/slurmctld.pid"
  fi
  return 0
}

case "$action" in
  up) [[ -n "$DIR" && "${3:-}" =~ ^[1-9][0-9]?$ ]] || { echo "usage: netns_cluster.sh up DIR N" >&2; exit 2; }
      up "$3" || exit 1 ;;
  kill) kill_node "${3:?node}" ;;
  revive) export SLURM_CONF="$DIR/slurm.conf"; start_slurmd "${3:?node}" || exit 1 ;;
  slow) slow_node "${3:?node}" "${4:?percent}" || exit 1 ;;
  down) [[ -n "$DIR" ]] || exit 2; down; say "down" ;;
  check) check || exit 1 ;;
  *) echo "usage: netns_cluster.sh up|kill|revive|down|check DIR [N|NODE]" >&2; exit 2 ;;
esac
