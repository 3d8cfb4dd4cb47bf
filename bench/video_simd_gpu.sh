#!/bin/bash
# The video instructions, bmsk, szext and cvt .satfinite/.relu on the GPU against the emulator, bit
# for bit: bench/video_simd_gpu.cu runs on both backends with the same arguments and the outputs
# are compared word by word. Run on the GPU machine from the repository root:
#   bench/video_simd_gpu.sh TILECAMP [OUT_DIR]
# Prints how many words agree and the first differences (thread, form index in the .cu, operands);
# exits 1 if any word differs or a backend did not run.
set -u
tilecamp=$1 out=${2:-/tmp/video-simd-gpu}
forms=832
args=(profile bench/video_simd_gpu.cu --kernel videoForms --grid 2 --block 256 --arg "u32[512]=iota"
      --arg "u32[$((forms * 512))]=zeros")
for backend in gpu emulator; do
  rm -rf "${out:?}/$backend" && mkdir -p "$out/$backend"
  if ! "$tilecamp" "${args[@]}" --backend "$backend" --dump "$out/$backend" > "$out/$backend/log.txt" 2>&1; then
    echo "$backend: did not run: $(tail -3 "$out/$backend/log.txt")"
    exit 1
  fi
done
python3 - "$out" "$forms" <<'CHECK'
import struct, sys
out, forms = sys.argv[1], int(sys.argv[2])
words = [struct.unpack("<%dI" % (len(d) // 4), d) for d in
         (open(f"{out}/{backend}/arg1.bin", "rb").read() for backend in ("gpu", "emulator"))]
gpu, emulator = words
EDGES = [0x00000000, 0xffffffff, 0x7f7f7f7f, 0x80808080, 0x7f80ff01, 0x0180fe7f, 0x81ff007f, 0x7fff8000,
         0x80017ffe, 0xffff0001, 0x00010000, 0x12345678, 0xdeadbeef, 0x0000001f, 0x00000020, 0x00000021]
def operand(thread, which):  # as the kernel's operand()
    if thread < 256:
        return EDGES[thread & 15 if which == 0 else thread >> 4 if which == 1 else (3 * thread + 1) & 15]
    return ((((thread * 0x9E3779B1 + which * 0x7F4A7C15) & 0xffffffff) * 0x85EBCA77) & 0xffffffff) ^ (thread >> 3)
differ = [k for k in range(len(gpu)) if gpu[k] != emulator[k]]
print(f"{len(gpu) - len(differ)} of {len(gpu)} words agree")
for k in differ[:20]:
    t = k // forms
    a, b, c = (operand(t, w) for w in range(3))
    print(f"  thread {t} form {k % forms} (a={a:#010x} b={b:#010x} c={c:#010x}): GPU {gpu[k]:#010x}, emulator {emulator[k]:#010x}")
sys.exit(1 if differ else 0)
CHECK
