#!/bin/bash
# Grades a class on a Slurm cluster: a job array of N shards, then the merge once all succeed.
#   submit.sh ROSTER OUT SHARDS SEED [--gpu] [--cpus N] [--sbatch "OPTIONS"] [-- GRADE_OPTIONS...]
# ROSTER and OUT must lie on a file system every node shares; TILECAMP (default: tilecamp on the
# PATH) and TILECAMP_ROOT (the course; default: the current folder) likewise. --gpu asks for one
# GPU per task (--gres=gpu:1) and grades on it (--backend gpu); --cpus is the CPUs per task
# (default 4, the grading jobs of a task); --sbatch passes more options to both sbatch calls
# (a partition, an account). Prints the two job ids. docs/slurm.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '3p' "$0" | sed 's/^# */usage: /' >&2; exit 2; }
[ $# -ge 4 ] || usage
roster=$1 out=$2 shards=$3 seed=$4
shift 4
case $shards in ''|*[!0-9]*) echo "submit.sh: SHARDS must be a number 1 or more, not '$shards'" >&2; exit 2;; esac
[ "$shards" -ge 1 ] || { echo "submit.sh: SHARDS must be 1 or more" >&2; exit 2; }
gpu=() cpus=4 extra=() grade_options=()
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) gpu=(--gres=gpu:1); grade_options+=(--backend gpu); shift;;
    --cpus) cpus=$2; shift 2;;
    --sbatch) read -r -a extra <<<"$2"; shift 2;;
    --) shift; grade_options+=("$@"); break;;
    *) usage;;
  esac
done
tilecamp=${TILECAMP:-$(command -v tilecamp || true)}
[ -x "$tilecamp" ] || { echo "submit.sh: set TILECAMP to the tilecamp program (not on the PATH)" >&2; exit 2; }
mkdir -p "$out/logs"
export TILECAMP=$(realpath "$tilecamp") TILECAMP_ROOT=$(realpath "${TILECAMP_ROOT:-.}")
export ROSTER=$(realpath "$roster") OUT=$(realpath "$out") SHARDS=$shards SEED=$seed GRADE_OPTIONS="${grade_options[*]}"
array=$(sbatch --parsable --array="0-$((shards - 1))" --cpus-per-task="$cpus" "${gpu[@]}" "${extra[@]}" \
  --output="$OUT/logs/shard-%a.log" --export=ALL "$here/grade-shard.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" "${extra[@]}" --output="$OUT/logs/merge.log" --export=ALL \
  "$here/merge.sbatch")
merge=${merge%%;*}
echo "$array $merge"
