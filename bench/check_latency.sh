#!/bin/bash
# Check latency: `tilecamp check` of every exercise's solution on the emulator, REPEATS times each,
# in the sandbox and with --no-sandbox (a child process with the limits, without Landlock and
# seccomp): the median wall time per exercise and over all, every check compiling (the PTX cache
# off). Then what the PTX cache saves: an exercise's check and a cooperative-groups file's profile
# with the cache off, cold (empty: compiled, then kept) and warm (read back). Prints figures;
# asserts nothing.
#   bench/check_latency.sh TILECAMP [REPEATS (9)] [OTHER_TILECAMP]
# OTHER_TILECAMP, when given, is timed the same way with no option (e.g. a build from before the
# sandbox) for a third column.
set -eu
tilecamp=$(realpath "$1")
repeats=${2:-9}
other=${3:+$(realpath "$3")}
source=$(cd "$(dirname "$0")/.." && pwd)
export TILECAMP_ROOT="$source" NO_COLOR=1 TILECAMP_CACHE_DIR=off
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The wall time of one run of a command, in seconds.
timed() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
middle() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# The median of REPEATS runs of a command, in seconds.
median() {
  local times=()
  for ((r = 0; r < repeats; r++)); do times+=("$(timed "$@")"); done
  middle "${times[@]}"
}

ids=$(sed -n 's/^id = "\(.*\)"/\1/p' "$source/exercises/course.toml")
printf '%-28s %10s %12s%s\n' exercise sandbox no-sandbox "${other:+      other}"
all_sandbox=() all_plain=() all_other=()
for id in $ids; do
  check=(check "$id" --file "$source/solutions/$id/kernel.cu" --backend emulator --seed 1)
  sandboxed=$(median "$tilecamp" "${check[@]}")
  plain=$(median "$tilecamp" "${check[@]}" --no-sandbox)
  all_sandbox+=("$sandboxed") all_plain+=("$plain")
  line=$(printf '%-28s %9.3fs %11.3fs' "$id" "$sandboxed" "$plain")
  if [ -n "$other" ]; then
    theirs=$(median "$other" "${check[@]}")
    all_other+=("$theirs")
    line+=$(printf ' %10.3fs' "$theirs")
  fi
  echo "$line"
done
printf '%-28s %9.3fs %11.3fs' "median of the medians" "$(middle "${all_sandbox[@]}")" "$(middle "${all_plain[@]}")"
[ -n "$other" ] && printf ' %10.3fs' "$(middle "${all_other[@]}")"
echo

# LABEL COMMAND...: the median of the command with the PTX cache off, cold (emptied before each
# run) and warm, the three taking turns so that a busy machine slows them alike.
cache_figures() {
  local label=$1 off=() cold=() warm=()
  shift
  env TILECAMP_CACHE_DIR="$scratch/warm" "$@" >/dev/null 2>&1 || true
  for ((r = 0; r < repeats; r++)); do
    off+=("$(timed "$@")")
    rm -rf "$scratch/cold"
    cold+=("$(timed env TILECAMP_CACHE_DIR="$scratch/cold" "$@")")
    warm+=("$(timed env TILECAMP_CACHE_DIR="$scratch/warm" "$@")")
  done
  printf '%-44s %8.3fs %8.3fs %8.3fs\n' "$label" "$(middle "${off[@]}")" "$(middle "${cold[@]}")" "$(middle "${warm[@]}")"
}
echo
printf '%-44s %9s %9s %9s\n' "the PTX cache" off cold warm
cache_figures "check 02-transpose-tiled (its solution)" \
  "$tilecamp" check 02-transpose-tiled --file "$source/solutions/02-transpose-tiled/kernel.cu" --backend emulator --seed 1
cooperative=tests/data/public/cg_reduce_float.cu
read -ra run_line <<<"$(sed -n 's|^// run: tilecamp ||p' "$source/$cooperative")"
cache_figures "profile $(basename "$cooperative") (cooperative groups)" \
  bash -c 'cd "$0" && exec "$@"' "$source" "$tilecamp" "${run_line[@]}" --backend emulator
echo "($(nproc) cores, $repeats runs each)"
