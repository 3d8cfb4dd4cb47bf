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
ncu --clock-control none --csv --metrics "$metrics" "$out/ncu_host" > "$out/ncu.csv"
echo "wrote $out/ncu.csv ($(grep -c '^"' "$out/ncu.csv") rows)"
