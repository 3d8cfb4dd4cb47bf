#!/bin/bash
# Lesson 6's exercises and kernels on a GPU: each exercise's stub, solution and wrong solutions
# checked with --backend gpu (status and measured speedup), then the lesson's copies timed by
# `tilecamp profile --backend gpu` at 2^26 floats (256 MB each way). Run on the GPU machine from
# the repository root:
#   bench/lesson06_gpu.sh TILECAMP [COURSE_DIR]
set -u
tilecamp=$(realpath "$1") course=$(realpath "${2:-.}")
export TILECAMP_ROOT="$course" NO_COLOR=1 LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for id in 06-copy-ilp 06-resident-warps; do
  for file in "$course/exercises/$id/kernel.cu" "$course/solutions/$id/kernel.cu" "$course"/tests/data/wrong/$id/*.cu; do
    json=$("$tilecamp" check "$id" --backend gpu --file "$file" --seed 1 --json 2>/dev/null | sed -n '/^{/,$p')
    REPORT="$json" python3 - "$id" "${file#"$course"/}" <<'PY'
import json, os, sys
try:
    v = json.loads(os.environ["REPORT"])
except ValueError:
    sys.exit(print(f"{sys.argv[1]:<18} {sys.argv[2]:<56} no verdict"))
failed = [c["name"] for c in v["checks"] if c["status"] == "fail"]
speed = [c["message"] for c in v["checks"] if c.get("metric") == "speedup"]
print(f"{sys.argv[1]:<18} {sys.argv[2]:<56} {v['status']:<5} {(speed or [''])[0][:90]}  failed: {'; '.join(failed)[:80]}")
PY
  done
done
n=$((1 << 26))
for row in "copyOne|1" "copyFour|4" "copyMany<32>|32" "copyManyBounded|32"; do
  IFS='|' read -r kernel k <<<"$row"
  "$tilecamp" profile "$course/lessons/snippets/06-occupancy.cu" --kernel "$kernel" --grid $((n / 256 / k)) --block 256 \
    --arg "f32[$n]" --arg "f32[$n]" --arg "i32:$n" --backend gpu --json 2>/dev/null |
    python3 -c "import json,sys; m=json.load(sys.stdin)['measured']; print('profile %-16s %8.1f us  %6.0f GB/s  (median of %d, min %.1f, max %.1f)' % (sys.argv[1], m['median_us'], 2*4*$n/m['median_us']/1e3, m['repetitions'], m['min_us'], m['max_us']))" "$kernel"
done
