// What an H200's tensor cores compute for one element of D = A * B + C, bit for bit, and where
// each element of a fragment lives (lane, register): the parts of mma.sync and WMMA that are
// arithmetic and layout, apart from the warp that runs them (kernel_tensor.cpp).
//
// The numerics, matched word for word against tests/data/h200-tensor-core-*.bin (docs/emulator.md):
// every product of A and B is exact; the products and C are aligned to the largest of their
// exponents (a product's exponent being the sum of its factors' exponents) and each is cut, toward
// zero, to a multiple of 2^(that exponent - 25), but never finer than 2^-149; the cut terms are
// summed exactly, and the sum is rounded once: toward zero into an f32 D (overflowing to infinity),
// to nearest even into an f16 D. TF32 operands lose the low 13 bits of their f32 pattern
// (truncated, not rounded); subnormal inputs count at their value, subnormal results are kept. NaN
// in, or infinity times zero, or infinities of both signs give the canonical NaN 0x7fffffff (f16:
// 0x7fff).
#pragma once

#include <cstdint>

#include "checker/ptx/module.h"

namespace tilecamp::emu {

// One element of D: the sum over i < k of a[i] * b[i], plus c, elements given as their bits (16-bit
// types in the low half). `ab` is A's and B's type (F16, BF16 or TF32); c_type and d_type are F16
// or F32. All k products are summed in one step, as one HMMA instruction does.
uint32_t tensor_dot(ptx::MatrixType ab, const uint32_t* a, const uint32_t* b, int k, ptx::MatrixType c_type,
                    uint32_t c, ptx::MatrixType d_type);

// An element's place in its matrix.
struct MatrixPlace {
  int row = 0, col = 0;
};

// Where element `element` of `lane`'s fragment of matrix `which` ('a', 'b', 'c' or 'd') of the
// instruction `in` (mma or wmma.*) sits. Elements count 16-bit halves (the low half first) for
// f16 and bf16 fragments, registers otherwise.
MatrixPlace fragment_place(const ptx::Instruction& in, char which, int lane, int element);

// Elements a lane's fragment holds (twice the registers for 16-bit types).
int fragment_elements(const ptx::Instruction& in, char which);

// The bits of one element type: 16 for f16, bf16 and b16, else 32.
int matrix_type_bits(ptx::MatrixType type);

}  // namespace tilecamp::emu
