#!/usr/bin/env python3
"""Candidate models of the H200's tensor-core arithmetic against its own outputs.

Rebuilds the operands of tests/data/h200-tensor-core.cu (the same hashes), computes each mma
result under a model, and counts the words that differ from tests/data/h200-tensor-core-mma.bin
(the six f32-accumulator mma forms; --f16 the f16-accumulator form; --wmma the WMMA tf32 form of
-wmma.bin). The model that misses nothing is the one checker/emu/tensor_math.cpp implements
(docs/emulator.md, "Tensor cores").

  python3 bench/tensor_core_models.py                  # every f32 variant below
  python3 bench/tensor_core_models.py final bits24     # some of them
  python3 bench/tensor_core_models.py --f16 --wmma

Pure Python and slow (a minute a variant on one core).
"""
import os
import struct
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
M32 = 0xFFFFFFFF
SCALE = 400  # values are integers times 2^-SCALE


def mix(x):
    x &= M32
    x ^= x >> 16
    x = (x * 0x7FEB352D) & M32
    x ^= x >> 15
    x = (x * 0x846CA68B) & M32
    x ^= x >> 16
    return x


def hash4(trial, form, lane, reg):
    inner = mix((mix((trial * 0x9E3779B1 + form) & M32) ^ ((lane * 0x85EBCA77) & M32)))
    return mix((inner + reg * 0xC2B2AE3D) & M32)


FLOAT_EDGES = [0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF,
               0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000, 0x00400000, 0x80800001]
HALF_EDGES = [0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0x3C00]
BFLOAT_EDGES = [0x0000, 0x8000, 0x0001, 0x007F, 0x0080, 0x7F7F, 0x7F80, 0xFF80, 0x7FC0, 0x3F80]


def float_bits(kind, h):
    h2, h3 = mix(h + 1), mix(h + 2)
    sign = h & 0x80000000
    if kind == 0:
        return (sign | ((127 + h2 % 21 - 10) << 23) | (h3 & 0x7FFFFF)) & M32
    if kind == 1:
        return (sign | ((127 + h2 % 3 - 1) << 23) | (h3 & 0x7FE000) | ((h3 & 0x1FFF) * (h2 >> 31))) & M32
    if h2 % 24 < 12:
        return FLOAT_EDGES[h2 % 24]
    return (sign | (((127 + h2 % 121 - 60) & M32) << 23) | (h3 & 0x7FFFFF)) & M32


def half_bits(kind, h):
    h2, h3 = mix(h + 3), mix(h + 4)
    sign = (h >> 16) & 0x8000
    if kind == 0:
        return sign | ((15 + h2 % 11 - 5) << 10) | (h3 & 0x3FF)
    if kind == 1:
        return sign | ((15 + h2 % 3 - 1) << 10) | (h3 & 0x3FF)
    if h2 % 20 < 10:
        return HALF_EDGES[h2 % 20]
    return sign | ((25 + h2 % 5) << 10) | (h3 & 0x3FF)


def bfloat_bits(kind, h):
    if kind == 2 and mix(h + 5) % 20 < 10:
        return BFLOAT_EDGES[mix(h + 5) % 20]
    return float_bits(kind, h) >> 16


def operand(kind_of_type, trial, form, lane, reg):
    kind, h = trial // 32, hash4(trial, form, lane, reg)
    if kind_of_type == "tf32":
        return float_bits(kind, h)
    if kind_of_type == "f16":
        return half_bits(kind, h) | half_bits(kind, mix(h)) << 16
    return bfloat_bits(kind, h) | bfloat_bits(kind, mix(h)) << 16


FORMATS = {"f32": (8, 23), "tf32": (8, 23), "f16": (5, 10), "bf16": (8, 7)}


def decode(bits, fmt, model):
    """('f', value * 2^SCALE, nominal exponent, sign) or ('inf', sign) or ('nan',)."""
    ebits, mbits = FORMATS[fmt]
    if fmt == "tf32":
        if model.get("tf32") == "rn" and (bits >> 23) & 0xFF != 0xFF:
            bits = (bits + 0xFFF + ((bits >> 13) & 1)) & 0xFFFFE000
        else:
            bits &= 0xFFFFE000
    sign = bits >> (ebits + mbits) & 1
    field, fraction = (bits >> mbits) & ((1 << ebits) - 1), bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if field == (1 << ebits) - 1:
        return ("nan",) if fraction else ("inf", sign)
    if field == 0 and model.get("flush") and fmt != "f32":
        fraction = 0
    significand = fraction | (1 << mbits if field else 0)
    value = significand << (SCALE + max(field, 1) - bias - mbits)
    return ("f", -value if sign else value, max(field, 1) - bias, sign)


def encode(total, fmt, mode):
    """total * 2^-SCALE as bits of fmt, rounded toward zero ('rz') or to nearest even ('rn')."""
    ebits, mbits = FORMATS[fmt]
    bias = (1 << (ebits - 1)) - 1
    if total == 0:
        return 0
    sign = 1 if total < 0 else 0
    magnitude = abs(total)
    exponent = max(magnitude.bit_length() - 1 - SCALE, 1 - bias)
    shift = exponent - mbits + SCALE
    q, rest = magnitude >> shift, magnitude & ((1 << shift) - 1)
    if mode == "rn" and (rest > 1 << (shift - 1) or (rest == 1 << (shift - 1) and q & 1)):
        q += 1
    if q >> (mbits + 1):
        q >>= 1
        exponent += 1
    top = sign << (ebits + mbits)
    if exponent > bias:  # overflow: infinity, even toward zero (what the H200 does)
        return top | (((1 << ebits) - 1) << mbits)
    if q < 1 << mbits:
        return top | q
    return top | ((exponent + bias) << mbits) | (q - (1 << mbits))


def dot(ab_type, a, b, c, c_type, d_type, model):
    xs = [decode(v, ab_type, model) for v in a]
    ys = [decode(v, ab_type, model) for v in b]
    z = decode(c, c_type, model)
    nan, infinities, terms = False, set(), []
    for x, y in zip(xs, ys):
        if x[0] == "nan" or y[0] == "nan":
            nan = True
        elif x[0] == "inf" or y[0] == "inf":
            zero = (x[0] == "f" and x[1] == 0) or (y[0] == "f" and y[1] == 0)
            nan |= zero
            infinities.add((x[1] if x[0] == "inf" else x[3]) ^ (y[1] if y[0] == "inf" else y[3]))
        else:
            terms.append(((x[1] * y[1]) >> SCALE, x[2] + y[2]))
    if z[0] == "nan":
        nan = True
    elif z[0] == "inf":
        infinities.add(z[1])
    else:
        terms.append((z[1], z[2]))
    if nan or len(infinities) == 2:
        return 0x7FFF if d_type == "f16" else 0x7FFFFFFF
    if infinities:
        return (0xFC00 if infinities.pop() else 0x7C00) if d_type == "f16" else (0xFF800000 if infinities.pop() else 0x7F800000)
    live = [t for t in terms if t[0]]
    total = 0
    if live:
        if model.get("align") == "normalized":
            largest = max(abs(t[0]).bit_length() - 1 - SCALE for t in live)
        else:
            largest = max(t[1] for t in live)
        lsb = max(largest - model.get("kept", 25), model.get("floor", -149)) + SCALE
        for value, _ in terms:
            if model.get("cut") == "floor":
                total += (value >> lsb) << lsb
            else:
                cut = (abs(value) >> lsb) << lsb
                total += -cut if value < 0 else cut
    default_mode = "rn" if d_type == "f16" else "rz"
    if d_type == "f16" and model.get("f16") == "via-f32":
        single = encode(total, "f32", "rz")
        value = decode(single, "f32", {})
        if value[0] != "f":
            return 0xFC00 if single >> 31 else 0x7C00
        return encode(value[1], "f16", "rn")
    return encode(total, d_type, model.get("round", default_mode))


def load(name):
    data = open(os.path.join(ROOT, "tests", "data", name), "rb").read()
    return struct.unpack("<%dI" % (len(data) // 4), data)


MMA_FORMS = [(8, "tf32"), (16, "bf16"), (16, "f16"), (8, "bf16"), (4, "tf32"), (8, "f16")]


def mma_matrices(trial, form, k, ab_type, c_type):
    """A (16 x k), B (k x 8), C (16 x 8) element bits, per the PTX ISA's fragment layouts."""
    A = [[0] * k for _ in range(16)]
    B = [[0] * 8 for _ in range(k)]
    C = [[0] * 8 for _ in range(16)]
    for lane in range(32):
        g, t = lane // 4, lane % 4
        reg = [operand(ab_type, trial, form, lane, r) for r in range(6)]
        if ab_type == "tf32":
            for r in range(4 if k == 8 else 2):
                A[g + 8 * (r % 2)][t + 4 * (r // 2)] = reg[r]
            for r in range(2 if k == 8 else 1):
                B[t + 4 * r][g] = reg[4 + r]
        else:
            for e in range(2 * (4 if k == 16 else 2)):
                r, h = e // 2, e % 2
                A[g + 8 * (r % 2)][2 * t + h + 8 * (r // 2)] = reg[r] >> (16 * h) & 0xFFFF
            for e in range(2 * (2 if k == 16 else 1)):
                r, h = e // 2, e % 2
                B[2 * t + h + 8 * r][g] = reg[4 + r] >> (16 * h) & 0xFFFF
        if c_type == "f32":
            for r in range(4):
                C[g + 8 * (r // 2)][2 * t + r % 2] = operand("tf32", trial, form, lane, 6 + r)
        else:
            for e in range(4):
                r, h = e // 2, e % 2
                C[g + 8 * r][2 * t + h] = operand("f16", trial, form, lane, 6 + r) >> (16 * h) & 0xFFFF
    return A, B, C


def reference_d(words, trial, lane, first, c_type):
    g, t = lane // 4, lane % 4
    base = (trial * 32 + lane) * 38 + first
    if c_type == "f32":
        return {(g + 8 * (r // 2), 2 * t + r % 2): words[base + r] for r in range(4)}
    return {(g + 8 * (e // 2), 2 * t + e % 2): words[base + e // 2] >> (16 * (e % 2)) & 0xFFFF for e in range(4)}


def misses_mma(model, forms, c_type):
    words = load("h200-tensor-core-mma.bin")
    missed = total = 0
    for form in forms:
        k, ab_type = (16, "f16") if form == 6 else MMA_FORMS[form]
        for trial in range(96):
            A, B, C = mma_matrices(trial, form, k, ab_type, c_type)
            for lane in range(32):
                for (i, j), expected in reference_d(words, trial, lane, form * 4, c_type).items():
                    got = dot(ab_type, A[i], [B[x][j] for x in range(k)], C[i][j], c_type, c_type, model)
                    total += 1
                    missed += got != expected
    return missed, total


def misses_wmma_tf32(model, steps):
    words = load("h200-tensor-core-wmma.bin")
    missed = 0
    for trial in range(32):
        kind = trial % 3
        a, b, c = [], [], []
        for i in range(256):
            h = hash4(trial, 18, i, 0)
            a.append(float_bits(kind, h))
            b.append(float_bits(kind, mix(h)))
            c.append(float_bits(kind, mix((h + 7) & M32)))
        for i in range(16):
            for j in range(16):
                row, column, d = a[i * 8:i * 8 + 8], b[j * 8:j * 8 + 8], c[i * 16 + j]
                step = 8 // steps
                for first in range(0, 8, step):
                    d = dot("tf32", row[first:first + step], column[first:first + step], d, "f32", "f32", model)
                missed += d != words[trial * 768 + 512 + i * 16 + j]
    return missed, 8192


VARIANTS = {
    "final": {},
    "flush-subnormal-inputs": {"flush": True},
    "tf32-rounded": {"tf32": "rn"},
    "bits24": {"kept": 24},
    "bits26": {"kept": 26},
    "twos-complement-cut": {"cut": "floor"},
    "normalized-alignment": {"align": "normalized"},
    "no-floor": {"floor": -100000},
    "floor-148": {"floor": -148},
    "floor-153": {"floor": -153},
    "round-to-nearest": {"round": "rn"},
}


def main(argv):
    if "--f16" in argv:
        for name, model in [("final (to nearest)", {}), ("toward zero", {"round": "rz"}),
                            ("via f32", {"f16": "via-f32"})]:
            print("f16 accumulators, %s: %d of %d words differ" % ((name,) + misses_mma(model, [6], "f16")), flush=True)
    if "--wmma" in argv:
        for steps in (2, 1):
            print("WMMA m16n16k8 tf32 in %d step(s): %d of %d words differ" % ((steps,) + misses_wmma_tf32({}, steps)),
                  flush=True)
    names = [a for a in argv if not a.startswith("--")] or ([] if "--f16" in argv or "--wmma" in argv else list(VARIANTS))
    for name in names:
        missed, total = misses_mma(VARIANTS[name], range(6), "f32")
        print("%-24s %6d of %d f32 words differ" % (name, missed, total), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
