#!/bin/bash
# Lesson 11's accuracy table: the TF32 tensor-core GEMM (11-tensor-gemm's solution) and two FP32
# SGEMMs (the naive baseline and 05-sgemm-register-blocked's solution) on the same inputs, uniform
# in [-1, 1], against a product computed in double. The emulator's tensor-core arithmetic is the
# H200's bit for bit (docs/emulator.md), so these are the errors an H200 gives. Run from the
# repository root:
#   bench/tensor_accuracy.sh TILECAMP [BACKEND]     (BACKEND: emulator, the default, or gpu)
# On a GPU the table must come out the same, digit for digit.
set -eu
tilecamp=$(realpath "$1") backend=${2:-emulator}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export NO_COLOR=1
m=64 n=64
printf '%-21s %5s %10s %10s %10s %9s %9s\n' kernel K max_abs max_rel fail_05 bias scatter
for k in 128 512 2048; do
  python3 - "$dir" "$m" "$n" "$k" <<'PY'
import random, struct, sys
d, m, n, k = sys.argv[1], *map(int, sys.argv[2:])
rng = random.Random(k)
for name, count in (("a", m * k), ("b", k * n)):
    with open(f"{d}/{name}.bin", "wb") as f:
        f.write(struct.pack(f"<{count}f", *(rng.uniform(-1, 1) for _ in range(count))))
PY
  for row in "tf32-tensor-gemm|solutions/11-tensor-gemm/kernel.cu|tensorGemm|1,1|128" \
             "fp32-naive|exercises/11-tensor-gemm/baseline.cu|sgemmNaive|4,4|16,16" \
             "fp32-register-blocked|solutions/05-sgemm-register-blocked/kernel.cu|sgemmRegisterBlocked|1,1|256"; do
    IFS='|' read -r label file kernel grid block <<<"$row"
    rm -rf "$dir/out"
    "$tilecamp" profile "$file" --kernel "$kernel" --grid "$grid" --block "$block" \
      --arg "f32[$((m * k))]=file:$dir/a.bin" --arg "f32[$((k * n))]=file:$dir/b.bin" \
      --arg "f32[$((m * n))]=zeros" --arg "i32:$m" --arg "i32:$n" --arg "i32:$k" \
      --dump "$dir/out" --backend "$backend" >/dev/null 2>&1
    python3 - "$dir" "$m" "$n" "$k" "$label" <<'PY'
import struct, sys
d, m, n, k, label = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5]
def read(path, count):
    with open(path, "rb") as f:
        return struct.unpack(f"<{count}f", f.read())
a, b = read(f"{d}/a.bin", m * k), read(f"{d}/b.bin", k * n)
c = read(f"{d}/out/arg2.bin", m * n)
worst_abs = worst_rel = 0.0
fails = 0
errors, exacts = [], []
for i in range(m):
    for j in range(n):
        exact = sum(a[i * k + x] * b[x * n + j] for x in range(k))  # Python floats are doubles
        err = abs(c[i * n + j] - exact)
        worst_abs = max(worst_abs, err)
        worst_rel = max(worst_rel, err / max(abs(exact), 1e-30))
        fails += err > 5e-4 + 1e-4 * abs(exact)  # 05-sgemm-register-blocked's [compare]
        errors.append(c[i * n + j] - exact)
        exacts.append(exact)
# The error as bias x exact value + scatter: the least-squares bias, and the standard deviation
# of what it leaves.
bias = sum(e * x for e, x in zip(errors, exacts)) / sum(x * x for x in exacts)
rest = [e - bias * x for e, x in zip(errors, exacts)]
scatter = (sum(r * r for r in rest) / len(rest) - (sum(rest) / len(rest)) ** 2) ** 0.5
print(f"{label:<21} {k:5d} {worst_abs:10.3e} {worst_rel:10.3e} {fails:5d}/{m * n} {bias:9.1e} {scatter:9.1e}")
PY
  done
done
