#!/usr/bin/env python3
"""CPU references for the kernels of this folder (plain Python, no numpy). Checks the buffers a run
left behind, from the emulator or from a GPU:
  check_outputs.py NAME=DIR ...      DIR as written by `tilecamp profile ... --dump DIR` (argN.bin)
  check_outputs.py --gpu FILE.json   as written by run_on_gpu.py
Prints `NAME: OK` or `NAME: WRONG ...` per kernel; exits 1 if any is wrong."""
import base64, json, math, os, struct, sys

i32, u32, f32, f64, f16 = "i", "I", "f", "d", "e"


def unpack(data, dt):
    return list(struct.unpack("<%d%s" % (len(data) // struct.calcsize(dt), dt), data))


def s8(x, k): v = (x >> (8*k)) & 0xff; return v - 256 if v >= 128 else v
def u8(x, k): return (x >> (8*k)) & 0xff
def s16(x, k): v = (x >> (16*k)) & 0xffff; return v - 65536 if v >= 32768 else v
def u16(x, k): return (x >> (16*k)) & 0xffff
def h(bits): return struct.unpack("<e", struct.pack("<H", bits))[0]
def hb(x):
    try: return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError: return 0xFC00 if x < 0 else 0x7C00
def lcg(x, n):  # x <- a x + c mod 2^32, n times, by squaring the affine map
    a, c = 1664525, 1013904223
    while n:
        if n & 1: x = (a * x + c) & 0xffffffff
        a, c = (a * a) & 0xffffffff, (a * c + c) & 0xffffffff; n >>= 1
    return x

def simd(i):
    a = (0x3C00BC00 + 0x00010203 * i) & 0xffffffff; b = (0x40003800 + 0x01000100 * i) & 0xffffffff
    fns = 0; cnt = 0
    for p in range(3, 32):  # 2nd set bit (offset 2 -> the 2nd at or above base 3, counting from 1)
        if a >> p & 1:
            cnt += 1
            if cnt == 2: fns = p; break
    else: fns = 0xffffffff
    vabs = sum(abs(u8(a, k) - u8(b, k)) << (8*k) for k in range(4))
    vmax = sum((max(s16(a, k), s16(b, k)) & 0xffff) << (16*k) for k in range(2))
    def hmaxnan(x, y): return float('nan') if math.isnan(x) or math.isnan(y) else max(x, y)
    hm = sum(hb(hmaxnan(h(u16(a, k)), h(u16(b, k)))) << (16*k) for k in range(2))
    def relu_fma(x, y, z):
        r = h(hb(x * y + z))  # fma with one rounding to half (exact product in double)
        return 0.0 if r < 0 else r
    hf = sum(hb(relu_fma(h(u16(a, k)), h(u16(b, k)), h(u16(a, k)))) << (16*k) for k in range(2))
    return [fns, vabs, vmax, hm, hf]

def video(i):
    a = (i * 0x9E3779B1) & 0xffffffff; b = ((i ^ 0x5BD1E995) * 0x85EBCA77) & 0xffffffff
    def each(n, x, y, f):  # f on the unsigned elements, each result kept to its element
        w = 32 // n; m = (1 << w) - 1
        return sum((f((x >> (w*k)) & m, (y >> (w*k)) & m) & m) << (w*k) for k in range(n))
    diff = each(4, a, b, lambda x, y: abs(x - y))
    mask = each(4, diff, 0x20202020, lambda x, y: 0xff if x > y else 0)
    bright = each(4, a, 0x40404040, lambda x, y: min(x + y, 255))
    avg = each(4, a, b, lambda x, y: (x + y + 1) >> 1)
    sad4 = sum(abs(u8(a, k) - u8(b, k)) for k in range(4))
    sad2 = sum(abs(u16(a, k) - u16(b, k)) for k in range(2))
    lanes = each(2, a, b, lambda x, y: x - y) ^ each(2, a, b, lambda x, y: x + y)
    return [diff, mask, bright, avg, each(4, a, b, lambda x, y: x + y), sad4, sad2, lanes]

def dp(i):
    a = (0x01FF7F80 + i * 0x01010101) & 0xffffffff; b = (0x02FE0380 - i) & 0xffffffff
    d4 = i + sum(s8(a, k) * s8(b, k) for k in range(4))
    d2lo = 7 + s16(a, 0) * s8(b, 0) + s16(a, 1) * s8(b, 1)
    d2hi = (-7 + u16(a, 0) * u8(b, 2) + u16(a, 1) * u8(b, 3)) & 0xffffffff
    return [d4, d2lo, d2hi - (1 << 32) if d2hi >= 1 << 31 else d2hi]

iota = lambda n: list(range(n))
ravel = lambda xs: [y for x in xs for y in x]
REF = {  # name: (output arg index, dtype, expected array, tolerance)
 "cg_tiled_partition_shfl": (1, i32, [130816], 0),
 "cg_reduce_int": (1, i32, [1024*w + 496 for w in range(8)], 0),
 "cg_reduce_float": (1, f32, [496, 31, 1520, 63], 0),
 "mma_include": (1, f32, [2 * i for i in iota(64)], 0),
 "fp16_hsqrt_hexp": (1, f32, ravel([[math.sqrt(i), math.exp(i / 16)] for i in range(32)]), 2e-3),
 "warpsize_runtime": (1, i32, [496, 1520, 2544], 0),
 "cg_block_tile_memory": (1, f32, [4096*t + 2016 for t in range(4)], 0),
 "cg_grid_sync": (2, i32, [32640], 0),
 "reduce_add_sync": (1, u32, [496, 31, 31, 1520, 63, 31], 0),
 "cuda_barrier_memcpy_async": (1, f32, [b*64 + 63 - t + 1 for b in range(2) for t in range(64)], 0),
 "cuda_pipeline_thread_scope": (1, f32, [8*t + 896 for t in range(32)], 0),
 "cuda_pipeline_block_scope": (1, f32, [636 - 4*t for t in range(64)], 0),
 "double_sin_cos": (0, f64, ravel([[math.sin((i-16)*123456.789+0.5), math.cos((i-16)*123456.789+0.5)] for i in range(32)]), 4.5e-16),
 "dp4a_dp2a": (1, i32, ravel([dp(i) for i in range(32)]), 0),
 "atomic_add_half2": (0, f16, [32.0, 64.0] * 4, 0),
 "simd_video_fns": (1, u32, ravel([simd(i) for i in range(32)]), 0),
 "simd_video_intrinsics": (1, u32, ravel([video(i) for i in range(64)]), 0),
 "named_barrier_arrive": (1, f32, [3*(31-i) for i in range(32)], 0),
 "template_reduce4": (1, f32, [130816, 392960], 0),
 "half_short_scalar_args": (1, f32, [0.5*i - 3 + 40000 for i in range(32)], 0),
 "long_running_warp": (0, u32, [lcg(t, 6000000) for t in range(32)], 0),
 "match_any_then_shfl": (1, i32, [112, 120, 128, 136], 0),
 "labeled_partition": (1, f32, [165, 176, 155], 0),
 "two_tiles16_sync": (1, i32, [256*t + 120 for t in range(4)], 0),
 "partial_warp_full_mask": (1, i32, [256*g + 120 for g in range(3)], 0),
 "syncthreads_different_lines": (1, f32, [2*(63-i) + 1 for i in range(64)], 0),
 "cp_async_multistage_ok": (1, f32, [2296 - 8*t for t in range(64)], 0),
 "cp_async_missing_wait": (1, f32, [2296 - 8*t for t in range(64)], 0),
}


# Buggy on purpose: the output is timing-dependent on a GPU; the test is the race diagnostic.
EXPECTED_WRONG = {"cp_async_missing_wait"}


def verdict(name, data):
    arg, dt, expected, tol = REF[name]
    if data is None:
        return "no output buffer"
    got = unpack(data, dt)
    want = [float(e) for e in expected]
    g = [float(x) for x in got[:len(want)]]
    bad = [k for k in range(len(g)) if not (abs(g[k] - want[k]) <= tol * max(1, abs(want[k])))]
    if not bad and len(got) >= len(want):
        return "OK"
    k = bad[0] if bad else len(g)
    if name in EXPECTED_WRONG:
        return f"wrong, as expected of this buggy kernel (first [{k}]: got {g[k] if k < len(g) else None!r}, a correct one gives {want[k]!r})"
    return f"WRONG in {len(bad)} of {len(want)} (first [{k}]: got {g[k] if k < len(g) else None!r}, want {want[k]!r})"


def main():
    failed = False
    if sys.argv[1:2] == ["--gpu"]:
        results = json.load(open(sys.argv[2]))
        for name in sorted(results):
            r = results[name]
            if not r["ok"]:
                print(f"{name}: did not run: {r['error'].strip().splitlines()[-1][:200]}")
                failed = True
                continue
            raw = r["buffers"].get(str(REF[name][0]))
            v = verdict(name, base64.b64decode(raw) if raw else None)
            failed |= v.startswith("WRONG") or v.startswith("no ")
            print(f"{name}: {v}")
    else:
        for item in sys.argv[1:]:
            name, _, folder = item.partition("=")
            path = os.path.join(folder, f"arg{REF[name][0]}.bin")
            v = verdict(name, open(path, "rb").read() if os.path.exists(path) else None)
            failed |= v.startswith("WRONG") or v.startswith("no ")
            print(f"{name}: {v}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
