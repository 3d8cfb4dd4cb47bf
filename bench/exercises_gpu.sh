#!/bin/bash
# Exercises on a GPU: each one's stub, solution and wrong solutions checked with --backend gpu
# (status, measured speedup, failed checks), one line each. Run on the GPU machine from the
# repository root, with a tilecamp built there or carried (docs/gpu-backend.md):
#   bench/exercises_gpu.sh TILECAMP EXERCISE...
set -u
tilecamp=$(realpath "$1")
shift
course=$(pwd)
export TILECAMP_ROOT="$course" NO_COLOR=1 LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for id in "$@"; do
  for file in "exercises/$id/kernel.cu" "solutions/$id/kernel.cu" tests/data/wrong/"$id"/*.cu; do
    [ -f "$file" ] || continue
    json=$(timeout 120 "$tilecamp" check "$id" --backend gpu --file "$file" --seed 1 --json 2>/dev/null | sed -n '/^{/,$p')
    REPORT="$json" python3 - "$id" "$file" <<'PY'
import json, os, sys
try:
    v = json.loads(os.environ["REPORT"])
except ValueError:
    sys.exit(print(f"{sys.argv[1]:<22} {sys.argv[2]:<60} no verdict"))
failed = [c["name"] for c in v["checks"] if c["status"] == "fail"]
speed = [c["message"] for c in v["checks"] if c.get("metric") == "speedup"]
print(f"{sys.argv[1]:<22} {sys.argv[2]:<60} {v['status']:<5} {(speed or [''])[0][:90]}  failed: {'; '.join(failed)[:80]}")
PY
  done
done
