#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests and for trying `arena slurm` before
# you have a cluster. Root, no systemd; Debian 12's slurmctld, slurmd, slurm-client, munge.
#
#   source <(bash tests/slurm/cluster.sh up [DIR])   starts it; prints `export SLURM_CONF=...`
#   bash tests/slurm/cluster.sh down [DIR]           stops it
#   bash tests/slurm/cluster.sh check                exit 0 if it can start here, else says why
#   bash tests/slurm/cluster.sh munge                starts munged (netns_cluster.sh uses it)
#
# DIR (default /tmp/chess-harness-slurm) holds slurm.conf, state, spool, logs and pid files.
# Exit codes: 0 up/down, 1 cannot start here (the reason on stderr).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common_conf.sh"
action="${1:-up}"
DIR="${2:-/tmp/chess-harness-slurm}"
CONF="$DIR/slurm.conf"
say() { echo "slurm cluster: $*" >&2; }

check() {
  [[ $(id -u) -eq 0 ]] || { say "needs root (slurmd runs jobs as their users)"; return 1; }
  for b in slurmctld slurmd sbatch squeue munged; do
    command -v "$b" >/dev/null 2>&1 || [[ -x /usr/sbin/$b ]] ||
      { say "$b not installed (apt-get install slurmctld slurmd slurm-client munge)"; return 1; }
  done
  id munge >/dev/null 2>&1 || { say "no munge user (is the munge package installed?)"; return 1; }
}

# munge: a key, its runtime directory, the daemon as user munge (shared by every
# node of a cluster on this machine: its socket is a file).
start_munge() {
  if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge
  if ! pgrep -x munged >/dev/null; then
    runuser -u munge -- /usr/sbin/munged || { say "munged did not start"; return 1; }
  fi
}

up() {
  check || return 1
  mkdir -p "$DIR"/{state,spool,log}
  start_munge || return 1
  local host cpus
  host=$(hostname -s)
  cpus=$(nproc)
  { common_slurm_conf; cat <<CONF; } >"$CONF"
ClusterName=chess-harness
SlurmctldHost=$host
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$CONF"
  down_quietly
  # Another cluster's daemons on this machine would take the ports: leave them be.
  if pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null; then
    say "slurmctld or slurmd is already running here (another cluster?); not starting a second"
    return 1
  fi
  slurmctld -f "$CONF" || { say "slurmctld did not start: $(tail -3 "$DIR/log/slurmctld.log")"; return 1; }
  slurmd -f "$CONF" || { say "slurmd did not start: $(tail -3 "$DIR/log/slurmd.log")"; return 1; }
  for _ in $(seq 1 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
      echo "export SLURM_CONF=$CONF"
      say "up: 1 node, $cpus CPUs ($CONF)"
      return 0
    fi
    sleep 0.5
  done
  say "the node did not become idle: $(sinfo 2>&1 | tail -2)"
  return 1
}

down_quietly() {
  local pid
  for daemon in slurmd slurmctld; do
    pid=$(cat "$DIR/$daemon.pid" 2>/dev/null)
    [[ -n "$pid" ]] || continue
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null
    rm -f "$DIR/$daemon.pid"
  done
}

case "$action" in
  up) up ;;
  down) down_quietly; say "down" ;;
  check) check ;;
  munge) check && start_munge ;;
  *) echo "usage: cluster.sh up|down|check|munge [DIR]" >&2; exit 2 ;;
esac
