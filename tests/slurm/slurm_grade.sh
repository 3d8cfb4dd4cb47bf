#!/usr/bin/env bash
# docs/slurm/submit.sh on a real one-node Slurm cluster started here: munged, slurmctld and slurmd
# with a slurm.conf generated in a temporary folder (this host, its CPUs and memory as `slurmd -C`
# reports them, ports picked free). A class of five is graded as a job array of 3 shards and a
# dependent merge job, and the merged reports must be byte for byte those of one `tilecamp grade`.
#   slurm_grade.sh TILECAMP SOURCE_DIR WORK
# Exits 77 (skipped) where Slurm cannot start: not root, or slurm-wlm or munge not installed.
set -euo pipefail
tilecamp=$1 source_dir=$2 work=$3
skip() { echo "SKIPPED: $*" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "a one-node Slurm cluster needs root to start its daemons (.ci/run runs as root)"
for program in munged munge slurmctld slurmd sbatch squeue sinfo scontrol; do
  command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] ||
    skip "$program not found: apt-get install -y slurm-wlm munge"
done
export PATH="$PATH:/usr/sbin"

rm -rf "$work"
mkdir -p "$work"
cluster=$(mktemp -d /tmp/tilecamp-slurm.XXXXXX)
chmod 755 "$cluster"  # munged wants every folder above its socket searchable
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" != 0 ] && [ "$status" != 77 ]; then
    for log in "$cluster"/*.log "$work"/slurm/logs/*.log; do [ -f "$log" ] && { echo "== $log"; tail -n 30 "$log"; }; done
  fi
  rm -rf "$cluster"
  exit "$status"
}
trap cleanup EXIT

mkdir -m 700 "$cluster/munge" "$cluster/state" "$cluster/spool"
head -c 1024 /dev/urandom >"$cluster/munge/munge.key"
chmod 600 "$cluster/munge/munge.key"
munged -f -F --socket="$cluster/munge/socket" --key-file="$cluster/munge/munge.key" --log-file="$cluster/munged.log" \
  --pid-file="$cluster/munge/munged.pid" --seed-file="$cluster/munge/seed" >>"$cluster/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$cluster/munge/socket" ] && break; sleep 0.1; done
munge -S "$cluster/munge/socket" -n | unmunge -S "$cluster/munge/socket" >/dev/null ||
  skip "munged did not start (see $cluster/munged.log)"

node=$(slurmd -C | head -n 1)  # NodeName=HOST CPUs=... RealMemory=...: this host as it is
name=${node#NodeName=}
name=${name%% *}
read -r ctld_port node_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
cat >"$cluster/slurm.conf" <<CONF
ClusterName=tilecamp-test
SlurmctldHost=$name(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$node_port
AuthType=auth/munge
AuthInfo=socket=$cluster/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=tilecamp Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$cluster/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >>"$cluster/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$name" >>"$cluster/slurmd.log" 2>&1 &
pids+=($!)
idle=""
for _ in $(seq 60); do
  idle=$(sinfo -h -o %t 2>/dev/null || true)
  [ "$idle" = idle ] && break
  sleep 0.5
done
[ "$idle" = idle ] || skip "the one-node cluster did not come up (node state '${idle}'; logs in $cluster)"
echo "a one-node Slurm cluster: $node"

# The class: two pass, one computes the wrong answer, one hands in the stub, one nothing.
solution="$source_dir/solutions/01-vector-add/kernel.cu"
for student in ada ben cleo dan eve; do mkdir -p "$work/roster/$student/exercises/01-vector-add"; done
cp "$solution" "$work/roster/ada/exercises/01-vector-add/kernel.cu"
{ echo "// ben"; cat "$solution"; } >"$work/roster/ben/exercises/01-vector-add/kernel.cu"
sed 's/a\[i\] + b\[i\]/a[i] - b[i]/' "$solution" >"$work/roster/cleo/exercises/01-vector-add/kernel.cu"
cp "$source_dir/exercises/01-vector-add/kernel.cu" "$work/roster/dan/exercises/01-vector-add/kernel.cu"
rmdir "$work/roster/eve/exercises/01-vector-add"
options=(--exercises 01-vector-add --backend emulator)

export TILECAMP="$tilecamp" TILECAMP_ROOT="$source_dir"
"$tilecamp" grade "$work/roster" --out "$work/whole" --seed 31337 "${options[@]}" >"$work/whole.log" 2>&1 || { cat "$work/whole.log"; exit 1; }

read -r array merge < <("$source_dir/docs/slurm/submit.sh" "$work/roster" "$work/slurm" 3 31337 --cpus 1 -- "${options[@]}")
echo "submitted the array job $array and the merge job $merge"
for _ in $(seq 240); do
  state=$(scontrol -o show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case $state in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break;; esac
  # A dependency that can never be met (a shard failed) leaves the merge pending for ever.
  scontrol -o show job "$merge" 2>/dev/null | grep -q "Reason=DependencyNeverSatisfied" && { state=NEVER; break; }
  sleep 1
done
[ "$state" = COMPLETED ] || { echo "the merge job ended as '$state', expected COMPLETED" >&2; exit 1; }

# Every report file of the one run, byte for byte, and no other.
status=0
(cd "$work/whole" && find . -type f ! -path './.state/*' | sort) >"$work/whole.files"
(cd "$work/slurm" && find . -type f ! -path './.state/*' ! -path './shard-*' ! -path './logs/*' | sort) >"$work/slurm.files"
diff "$work/whole.files" "$work/slurm.files" || { echo "the merged reports are not the same files" >&2; status=1; }
[ "$(wc -l <"$work/whole.files")" = 13 ] || { echo "expected 13 report files (3 + 2 x 5 students)" >&2; status=1; }
while read -r file; do
  cmp "$work/whole/$file" "$work/slurm/$file" || status=1
done <"$work/whole.files"
grep -q '^ada,2,pass,2,2$' "$work/slurm/grades.csv" || { echo "ada's row is not in the merged grades.csv" >&2; status=1; }
[ "$status" = 0 ] && echo "3 shards on Slurm, merged: the same $(wc -l <"$work/whole.files") report files as one run, byte for byte"
exit "$status"
