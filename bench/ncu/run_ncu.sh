#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and Nsight Compute: build host.cu and read the counters
# compare.py needs into OUT_DIR/ncu.csv.
set -euo pipefail
out=${1:?usage: run_ncu.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
nvcc -O3 -arch=sm_90 -lineinfo "$here/host.cu" -o "$out/ncu_host"
metrics=$(HERE="$here" python3 - <<'PY'
import importlib.util, os
spec = importlib.util.spec_from_file_location("compare", os.path.join(os.environ["HERE"], "compare.py"))
module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)
print(",".join(module.METRICS))
PY
)
# Only the metrics this ncu knows (it refuses the whole run for one it does not).
known=$(ncu --query-metrics --chip gh100 2>/dev/null | awk '{print $1}')
if [ -n "$known" ]; then
  metrics=$(tr ',' '\n' <<<"$metrics" | while read -r metric; do
    grep -qx "${metric%.*}" <<<"$known" && echo "$metric" || echo "skipped (unknown to this ncu): $metric" >&2
  done | paste -sd, -)
fi
ncu --clock-control none --csv --metrics "$metrics" "$out/ncu_host" > "$out/ncu.csv"
echo "wrote $out/ncu.csv ($(grep -c '^"' "$out/ncu.csv") rows)"
