#!/bin/bash
# Check latency: `tilecamp check` of every exercise's solution on the emulator, REPEATS times each,
# in the sandbox and with --no-sandbox (a child process with the limits, without Landlock and
# seccomp): the median wall time per exercise and over all. Prints figures; asserts nothing.
#   bench/check_latency.sh TILECAMP [REPEATS (9)] [OTHER_TILECAMP]
# OTHER_TILECAMP, when given, is timed the same way with no option (e.g. a build from before the
# sandbox) for a third column.
set -eu
tilecamp=$(realpath "$1")
repeats=${2:-9}
other=${3:+$(realpath "$3")}
source=$(cd "$(dirname "$0")/.." && pwd)
export TILECAMP_ROOT="$source" NO_COLOR=1

# The median of REPEATS runs of a command, in seconds.
median() {
  local times=()
  for ((r = 0; r < repeats; r++)); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(awk "BEGIN { print $end - $start }")")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
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
middle() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf '%-28s %9.3fs %11.3fs' "median of the medians" "$(middle "${all_sandbox[@]}")" "$(middle "${all_plain[@]}")"
[ -n "$other" ] && printf ' %10.3fs' "$(middle "${all_other[@]}")"
echo
echo "($(nproc) cores, $repeats runs each)"
