#!/bin/bash
# 11-tensor-gemm on a GPU: the tensor-core solution and the course's FP32 SGEMM solutions timed by
# `tilecamp profile --backend gpu` against one baseline (11-tensor-gemm's naive SGEMM) at the same
# size in the same process run, then the exercise's stub, solution and wrong solutions checked with
# --backend gpu. Run on the GPU machine from the repository root:
#   bench/tensor_gemm_gpu.sh TILECAMP [SIZE]        (SIZE: M = N = K, default 4096)
# QUICK=1 in the environment leaves out 09-sgemm-vectorized and the checks (for a short device
# call).
# Each kernel's launch comes from its exercise.toml and the #defines of its file. Variants of the
# first solution (bench/tensor_gemm_candidates/first-version.cu; sed-edited copies without
# __launch_bounds__ and with 16 warps of 32 x 32) show what its choices cost, and the other files of
# bench/tensor_gemm_candidates/ what the solution's choices are worth.
set -u
tilecamp=$(realpath "$1") size=${2:-4096}
export TILECAMP_ROOT=$PWD NO_COLOR=1 LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
variants=$(mktemp -d)
first=bench/tensor_gemm_candidates/first-version.cu  # the first solution: what its choices cost
sed 's/^__global__ void __launch_bounds__(THREADS, 2)$/__global__ void/' "$first" > "$variants/no-bounds.cu"
sed 's/^#define WM 64 .*/#define WM 32/' "$first" > "$variants/warps16.cu"
time_kernel() {  # LABEL EXERCISE FILE [baseline]
  python3 - "$tilecamp" "$size" "$@" <<'PY'
import json, math, re, subprocess, sys, tomllib
tilecamp, size, label, exercise, path = sys.argv[1:6]
baseline = len(sys.argv) > 6
toml = tomllib.load(open(f"exercises/{exercise}/exercise.toml", "rb"))
launch = toml["baseline"] if baseline else toml["launch"]
kernel = launch["kernel"] if baseline else toml["kernel"]
names = {"M": int(size), "N": int(size), "K": int(size)}
defines = dict(re.findall(r"^#define\s+(\w+)\s+(.+?)\s*(?://.*)?$", open(path).read(), re.M))
for name, default in toml.get("constants", {}).get("optional", {}).items():
    defines.setdefault(name, default)
def value(expr):
    env = dict(names, ceil_div=lambda a, b: -(-a // b))
    for _ in range(8):  # constants may name constants
        for name, text in defines.items():
            try:
                env[name] = int(eval(text.replace("/", "//"), {}, env))
            except Exception:
                pass
    return int(eval(expr.replace("/", "//"), {}, env))
block = ",".join(str(value(e)) for e in launch["block"])
grid = ",".join(str(value(e)) for e in launch["grid"])
n = int(size)
args = [tilecamp, "profile", path, "--kernel", kernel, "--grid", grid, "--block", block, "--backend", "gpu", "--json",
        "--sample",  # the emulator's counters from a sample of the blocks: the whole grid would take hours
        "--arg", f"f32[{n * n}]", "--arg", f"f32[{n * n}]", "--arg", f"f32[{n * n}]=zeros"] + \
       [a for d in "MNK" for a in ("--arg", f"i32:{n}")]
if "shared_bytes" in launch:
    args += ["--shared", str(value(launch["shared_bytes"]))]
run = subprocess.run(args, capture_output=True, text=True)
try:
    m = json.loads(run.stdout[run.stdout.index("{"):])["measured"]
except (ValueError, KeyError):
    sys.exit(print(f"time {label:<28} failed: {run.stderr[-400:]} {run.stdout[:1500]}"))
flops = 2.0 * n ** 3
print(f"time {label:<28} {m['median_us']:10.1f} us  {flops / m['median_us'] / 1e6:6.1f} TFLOP/s  "
      f"(median of {m['repetitions']}, min {m['min_us']:.1f}, max {m['max_us']:.1f}; grid {grid}, block {block})")
PY
}
time_kernel naive-baseline 11-tensor-gemm exercises/11-tensor-gemm/baseline.cu baseline
time_kernel 05-register-blocked 05-sgemm-register-blocked solutions/05-sgemm-register-blocked/kernel.cu
for id in $([ -n "${QUICK:-}" ] || echo 09-sgemm-vectorized) 09-sgemm-warptiled; do
  [ -f "solutions/$id/kernel.cu" ] && time_kernel "$id" "$id" "solutions/$id/kernel.cu"
done
time_kernel 11-tensor-gemm 11-tensor-gemm solutions/11-tensor-gemm/kernel.cu
time_kernel 11-first-no-bounds 11-tensor-gemm "$variants/no-bounds.cu"
time_kernel 11-first-warps16 11-tensor-gemm "$variants/warps16.cu"
for candidate in bench/tensor_gemm_candidates/*.cu; do  # kernels that might replace the solution
  time_kernel "11-candidate-$(basename "$candidate" .cu)" 11-tensor-gemm "$candidate"
done
[ -n "${QUICK:-}" ] || time_kernel naive-baseline-again 11-tensor-gemm exercises/11-tensor-gemm/baseline.cu baseline
[ -n "${QUICK:-}" ] || bench/exercises_gpu.sh "$tilecamp" 11-tensor-gemm
rm -rf "$variants"
