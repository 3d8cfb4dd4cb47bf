#!/bin/bash
# Grading throughput: a synthetic class graded by `tilecamp grade` on the emulator, every
# exercise of the course, and the wall time it took. Prints figures; asserts nothing.
#   bench/grade_roster.sh TILECAMP [STUDENTS (100)] [JOBS (one per core)]
# (or `make bench_grade` in the build folder). Each student submits, per exercise, the solution
# (6 in 10), one of the plausible wrong solutions of tests/data/wrong (2 in 10), the untouched
# stub (1 in 10) or nothing (1 in 10); every file carries the student's name in a comment, so no
# two students hand in the same bytes.
set -eu
tilecamp=$(realpath "$1")
students=${2:-100}
jobs=${3:-$(nproc)}
source=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/tilecamp-bench-grade.XXXXXX)
trap 'rm -rf "$work"' EXIT

ids=$(sed -n 's/^id = "\(.*\)"/\1/p' "$source/exercises/course.toml")
submitted=0
for ((s = 0; s < students; s++)); do
  student=$(printf 'student%03d' "$s")
  e=0
  for id in $ids; do
    variant=$(((s * 7 + e * 3) % 10))
    e=$((e + 1))
    wrong=("$source/tests/data/wrong/$id"/*.cu)
    case $variant in
      [0-5]) file="$source/solutions/$id/kernel.cu" ;;
      [6-7]) file=${wrong[$((s % ${#wrong[@]}))]} ;;
      8) file="$source/exercises/$id/kernel.cu" ;;
      9) continue ;;
    esac
    mkdir -p "$work/roster/$student/exercises/$id"
    { cat "$file"; echo "// handed in by $student"; } >"$work/roster/$student/exercises/$id/kernel.cu"
    submitted=$((submitted + 1))
  done
done

echo "grading $students students x $(wc -w <<<"$ids") exercises ($submitted submissions) on the emulator, $jobs jobs, $(nproc) cores"
start=$(date +%s.%N)
TILECAMP_ROOT="$source" NO_COLOR=1 "$tilecamp" grade "$work/roster" --out "$work/reports" --backend emulator \
  --seed 1 --jobs "$jobs" >"$work/summary.txt" 2>"$work/progress.txt" || { cat "$work/progress.txt"; exit 1; }
seconds=$(awk "BEGIN { print $(date +%s.%N) - $start }")
cat "$work/summary.txt" | sed -n '/^exercise/,/^$/p'
awk -v s="$seconds" -v n="$submitted" -v j="$jobs" \
  'BEGIN { printf "graded in %.1f s: %.2f s per submission, %.2f s of one job each\n", s, s / n, s * j / n }'
