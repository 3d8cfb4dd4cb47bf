#!/bin/bash
# Lesson 5's SGEMM solutions timed on a GPU at growing sizes, each against the naive baseline, as
# `tilecamp check --backend gpu` times them: the course is copied and each exercise's
# gpu_performance size replaced. Prints the speedup and both medians; asserts nothing. Needs a GPU.
# (The CPU reference of the re-validation takes seconds at 2048 and about a minute at 4096.)
#   bench/sgemm_sizes.sh TILECAMP [SIZES ("1024 2048 4096")]
set -eu
tilecamp=$(realpath "$1")
sizes=${2:-1024 2048 4096}
source=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/tilecamp-bench-sgemm.XXXXXX)
trap 'rm -rf "$work"' EXIT
printf '%-6s %-28s %8s  %s\n' size exercise seconds "speedup over naive (from check)"
for n in $sizes; do
  rm -rf "$work/course" && mkdir -p "$work/course" && cp -r "$source/exercises" "$source/lessons" "$work/course/"
  for id in 05-sgemm-tiled 05-sgemm-register-blocked; do
    sed -i "s/^gpu_performance = .*/gpu_performance = [$n, $n, $n]/" "$work/course/exercises/$id/exercise.toml"
    start=$(date +%s.%N)
    out=$(TILECAMP_ROOT="$work/course" NO_COLOR=1 "$tilecamp" check "$id" --backend gpu --seed 1 \
          --file "$source/solutions/$id/kernel.cu" 2>&1) || true
    seconds=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }")
    line=$(grep -A1 "(speedup >=" <<<"$out" | tail -1 | sed 's/^ *//')
    printf '%-6s %-28s %8s  %s\n' "$n" "$id" "$seconds" "${line:-$(tail -3 <<<"$out" | tr '\n' ' ')}"
  done
done
