#!/bin/bash
# Lesson 8's table: the arithmetic intensity of the course's solutions at the size the GPU backend
# times them, and where the H200's roofline puts them, from `tilecamp profile --sample --json`
# (FLOPs counted by the emulator, DRAM bytes and time from the cost model). Here, no GPU needed:
#   bench/roofline_course.sh TILECAMP
set -u
tilecamp=$1
f='f32'
profile() {  # NAME FILE KERNEL GRID BLOCK ARGS...
  local name=$1 file=$2 kernel=$3 grid=$4 block=$5
  shift 5
  local args=()
  for a in "$@"; do args+=(--arg "$a"); done
  "$tilecamp" profile "$file" --kernel "$kernel" --grid "$grid" --block "$block" --sample --json "${args[@]}" 2>/dev/null |
    python3 -c '
import json, sys
name = sys.argv[1]
r = json.load(sys.stdin)["roofline"]
print("%-26s %13.0f %13.0f %9.2f %8.1f%% %8.0f  %s" % (name, r["flops"], r["dram_bytes"], r["intensity_flop_per_byte"],
      100 * r["achieved_flops_per_s"] / r["peak_flops_per_s"], r["achieved_dram_bytes_per_s"] / 1e9, r["bound"]))' "$name"
}
printf '%-26s %13s %13s %9s %9s %8s  %s\n' kernel FLOPs "DRAM bytes" "FLOP/B" "of peak" "GB/s" bound
m=$((1 << 24)) n=$((1 << 26)) w=8192
profile 01-vector-add solutions/01-vector-add/kernel.cu vectorAdd $((m / 256)) 256 "$f[$m]" "$f[$m]" "$f[$m]=zeros" "i32:$m"
profile 01-copy-coalesced solutions/01-copy-coalesced/kernel.cu copyMatrix 256,256 32,32 "$f[$((w * w))]" "$f[$((w * w))]=zeros" "i32:$w" "i32:$w"
profile 02-transpose-tiled solutions/02-transpose-tiled/kernel.cu transposeTiled 256,256 32,32 "$f[$((w * w))]" "$f[$((w * w))]=zeros" "i32:$w" "i32:$w"
profile 02-stencil-1d solutions/02-stencil-1d/kernel.cu stencil1d $((m / 256)) 256 "$f[$m]" "$f[$m]=zeros" "i32:$m"
profile 04-transpose-padded solutions/04-transpose-padded/kernel.cu transposePadded 256,256 32,8 "$f[$((w * w))]" "$f[$((w * w))]=zeros" "i32:$w" "i32:$w"
profile 04-row-sums solutions/04-row-sums/kernel.cu rowSums 512 32,8 "$f[$((4096 * 16384))]" "$f[16384]=zeros" i32:4096 i32:16384
profile 05-sgemm-tiled solutions/05-sgemm-tiled/kernel.cu sgemmTiled 64,64 32,32 "$f[$((2048 * 2048))]" "$f[$((2048 * 2048))]" "$f[$((2048 * 2048))]=zeros" i32:2048 i32:2048 i32:2048
profile 05-sgemm-register-blocked solutions/05-sgemm-register-blocked/kernel.cu sgemmRegisterBlocked 32,32 256 "$f[$((2048 * 2048))]" "$f[$((2048 * 2048))]" "$f[$((2048 * 2048))]=zeros" i32:2048 i32:2048 i32:2048
profile 08-vector-scale solutions/08-vector-scale/kernel.cu scale $((n / 1024)) 256 "$f[$n]" "$f[$n]=zeros" f32:3 "i32:$n"
profile 08-saxpy-latency solutions/08-saxpy-latency/kernel.cu saxpy 264 256 "$f[$n]" "$f[$n]" f32:3 "i32:$n"
profile "08-saxpy-latency (stub)" exercises/08-saxpy-latency/kernel.cu saxpy 264 256 "$f[$n]" "$f[$n]" f32:3 "i32:$n"
