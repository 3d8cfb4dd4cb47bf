#!/bin/bash
# The cost model's calibration corpus, timed on a GPU and modelled by the emulator at the same,
# real size: `tilecamp profile --sample --backend gpu --json` for each kernel gives both the
# measured median (CUDA events, L2 flushed, 20+ runs) and the modelled time from a sample of the
# grid's blocks. Prints a table and writes the JSON of every run, one per line, to OUT_FILE.
#   bench/model_calibration.sh TILECAMP OUT_FILE [--backend emulator]
# ONLY=REGEX in the environment limits the run to the rows whose label matches.
# On a machine without a GPU, --backend emulator gives the modelled column only.
#
# Rows are "fit" (the model's parameters are fitted to them) or "held-out" (never fitted: they
# test the fit); each names the family whose baseline its speedup is measured against.
set -u
tilecamp=$(realpath "$1")
out=$2
backend=${4:-gpu}
source=$(cd "$(dirname "$0")/.." && pwd)
export TILECAMP_ROOT="$source" NO_COLOR=1
: >"$out"

timed=$source/tests/data/h200_timed_kernels.cu
mine=$source/bench/model/kernels.cu
n=8192 e=$((8192 * 8192)) s=2048 se=$((2048 * 2048)) big=$((1 << 24))
transpose=("--arg" "f32[$e]" "--arg" "f32[$e]" "--arg" "i32:$n")
course_transpose=("--arg" "f32[$e]" "--arg" "f32[$e]" "--arg" "i32:$n" "--arg" "i32:$n")
sgemm=("--arg" "f32[$se]" "--arg" "f32[$se]" "--arg" "f32[$se]" "--arg" "i32:$s")
rows=("--arg" "f32[$e]" "--arg" "f32[16384]" "--arg" "i32:4096" "--arg" "i32:16384")  # 16384 rows of 4096
course_sgemm=("--arg" "f32[$se]" "--arg" "f32[$se]" "--arg" "f32[$se]" "--arg" "i32:$s" "--arg" "i32:$s" "--arg" "i32:$s")

# label | set | family (its first row is the baseline) | file | kernel | grid | block | arguments
corpus=(
  "transpose-naive-32x8|fit|transpose|$timed|transposeNaiveRows|256,256|32,8|${transpose[*]}"
  "copy-4-rows-32x8|fit|transpose|$timed|copyRows|256,256|32,8|${transpose[*]}"
  "transpose-tiled-32x8|fit|transpose|$timed|transposeTiledRows<0>|256,256|32,8|${transpose[*]}"
  "transpose-padded-32x8|fit|transpose|$timed|transposeTiledRows<1>|256,256|32,8|${transpose[*]}"
  "transpose-naive-32x32|fit|transpose|$timed|transposeNaive|256,256|32,32|${transpose[*]}"
  "transpose-tiled-32x32|fit|transpose|$timed|transposeTiled<0>|256,256|32,32|${transpose[*]}"
  "transpose-padded-32x32|fit|transpose|$timed|transposeTiled<1>|256,256|32,32|${transpose[*]}"
  "copy-float4|fit|transpose|$timed|copyVector|65536|256|${transpose[*]}"
  "copy-4-rows-restrict|held-out|transpose|$mine|copyRowsRestrict|256,256|32,8|${transpose[*]}"
  "02-transpose-tiled|held-out|transpose|$source/solutions/02-transpose-tiled/kernel.cu|transposeTiled|256,256|32,32|${course_transpose[*]}"
  "04-transpose-padded|held-out|transpose|$source/solutions/04-transpose-padded/kernel.cu|transposePadded|256,256|32,8|${course_transpose[*]}"
  "04-transpose-swizzled|held-out|transpose|$source/solutions/04-transpose-swizzled/kernel.cu|transposeSwizzled|256,256|32,8|${course_transpose[*]}"
  "01-copy-baseline|fit|copy|$source/exercises/01-copy-coalesced/baseline.cu|copyMatrixByColumns|256,256|32,32|${course_transpose[*]}"
  "01-copy-coalesced|fit|copy|$source/solutions/01-copy-coalesced/kernel.cu|copyMatrix|256,256|32,32|${course_transpose[*]}"
  "strided-1|held-out|strided|$mine|stridedAdd|65536|256|--arg f32[$big] --arg i32:1 --arg i32:$big"
  "strided-2|held-out|strided|$mine|stridedAdd|65536|256|--arg f32[$((big * 2))] --arg i32:2 --arg i32:$big"
  "strided-4|held-out|strided|$mine|stridedAdd|65536|256|--arg f32[$((big * 4))] --arg i32:4 --arg i32:$big"
  "strided-8|held-out|strided|$mine|stridedAdd|65536|256|--arg f32[$((big * 8))] --arg i32:8 --arg i32:$big"
  "strided-32|held-out|strided|$mine|stridedAdd|65536|256|--arg f32[$((big * 32))] --arg i32:32 --arg i32:$big"
  "sgemm-naive-16x16|fit|sgemm|$timed|sgemmNaive|128,128|16,16|${sgemm[*]}"
  "sgemm-naive-32x32|fit|sgemm|$timed|sgemmNaive|64,64|32,32|${sgemm[*]}"
  "sgemm-tiled-16|fit|sgemm|$timed|sgemmTiled<16>|128,128|16,16|${sgemm[*]}"
  "sgemm-tiled-32|fit|sgemm|$timed|sgemmTiled<32>|64,64|32,32|${sgemm[*]}"
  "05-sgemm-register-blocked|fit|sgemm|$source/solutions/05-sgemm-register-blocked/kernel.cu|sgemmRegisterBlocked|32,32|256|${course_sgemm[*]}"
  "sgemm-columns-8|held-out|sgemm|$mine|sgemmColumns8|32,32|512|${sgemm[*]}"
  "sgemm-blocks-8x8-float4|held-out|sgemm|$mine|sgemmBlocks8x8|16,16|256|${sgemm[*]}"
  "05-sgemm-tiled|held-out|sgemm|$source/solutions/05-sgemm-tiled/kernel.cu|sgemmTiled|64,64|32,32|${course_sgemm[*]}"
  "rowsums-thread-per-row|held-out|rowsums|$source/exercises/04-row-sums/baseline.cu|rowSumsNaive|64|256|${rows[*]}"
  "rowsums-tile-conflicted|held-out|rowsums|$source/exercises/04-row-sums/kernel.cu|rowSums|512|32,8|${rows[*]}"
  "04-row-sums|held-out|rowsums|$source/solutions/04-row-sums/kernel.cu|rowSums|512|32,8|${rows[*]}"
  "rowsums-one-warp-walks-rows|held-out|rowsums|$source/tests/data/wrong/04-row-sums/no-shared-memory.cu|rowSums|512|32,8|${rows[*]}"
  "rowsums-warp-shuffle|held-out|rowsums|$source/tests/data/wrong/04-row-sums/warp-shuffle.cu|rowSums|512|32,8|${rows[*]}"
)

printf '%-28s %-9s %-10s %12s %12s  %s\n' kernel set family measured_us modelled_us bound
for row in "${corpus[@]}"; do
  IFS='|' read -r label set family file kernel grid block arguments <<<"$row"
  [[ -n "${ONLY:-}" && ! "$label" =~ $ONLY ]] && continue
  # shellcheck disable=SC2086
  json=$("$tilecamp" profile "$file" --kernel "$kernel" --grid "$grid" --block "$block" $arguments --sample --json \
         --backend "$backend" --memory-limit 8192 --time-limit 600 2>/dev/null)
  if [ -z "$json" ]; then
    echo "$label: no result" >&2
    continue
  fi
  REPORT="$json" python3 - "$label" "$set" "$family" "$out" <<'PY'
import json, os, sys
label, kind, family, out = sys.argv[1:5]
report = json.loads(os.environ["REPORT"])
report.update({"label": label, "set": kind, "family": family})
with open(out, "a") as handle:
    handle.write(json.dumps(report) + "\n")
measured = report.get("measured", {}).get("median_us")
print(f"{label:<28} {kind:<9} {family:<10} {measured if measured else float('nan'):12.1f} "
      f"{report['totals']['modelled_time_us']:12.1f}  {'; '.join(d['message'] for d in report['diagnostics'])[:80]}")
PY
done
