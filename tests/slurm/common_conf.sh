# Sourced by cluster.sh and netns_cluster.sh: the slurm.conf lines both clusters share
# (root daemons, munge, CPUs as the unit, a drained node back in service when it returns).
common_slurm_conf() {
  cat <<CONF
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MaxArraySize=10001
KillWait=5
CONF
}
