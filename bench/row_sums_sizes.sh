#!/bin/bash
# 04-row-sums on a GPU at two shapes of the same 256 MiB matrix, as `tilecamp check --backend gpu`
# times it against its baseline (a thread per row): the solution, the stub (bank conflicts), and
# the two kernels without a tile (tests/data/wrong/04-row-sums). Prints each speedup line;
# asserts nothing. Needs a GPU.
#   bench/row_sums_sizes.sh TILECAMP [SHAPES ("4096,16384 1024,65536")]
set -eu
tilecamp=$(realpath "$1")
shapes=${2:-4096,16384 1024,65536}
source=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/tilecamp-bench-rows.XXXXXX)
trap 'rm -rf "$work"' EXIT
printf '%-12s %-28s  %s\n' "width,height" kernel "speedup over a thread per row (from check)"
for shape in $shapes; do
  rm -rf "$work/course" && mkdir -p "$work/course" && cp -r "$source/exercises" "$source/lessons" "$work/course/"
  sed -i "s/^gpu_performance = .*/gpu_performance = [${shape/,/, }]/" "$work/course/exercises/04-row-sums/exercise.toml"
  for file in solutions/04-row-sums/kernel.cu exercises/04-row-sums/kernel.cu \
              tests/data/wrong/04-row-sums/no-shared-memory.cu tests/data/wrong/04-row-sums/warp-shuffle.cu; do
    out=$(TILECAMP_ROOT="$work/course" NO_COLOR=1 "$tilecamp" check 04-row-sums --backend gpu --seed 1 \
          --file "$source/$file" 2>&1) || true
    line=$(grep -A1 "(speedup >=" <<<"$out" | tr -s ' ' | tr '\n' ' ')
    printf '%-12s %-28s  %s\n' "$shape" "$(basename "$(dirname "$file")")/$(basename "$file")" "${line:-$(tail -3 <<<"$out" | tr '\n' ' ')}"
  done
done
