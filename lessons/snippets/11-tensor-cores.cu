// Lesson 11, tensor cores: the kernels the lesson shows and its "Try it" commands profile.
// Device code only (compiled with NVRTC); tests/test_lessons.cpp keeps lessons/11-tensor-cores.md
// identical to the marked regions. Every kernel is one warp (a block of 32 threads).
#include <cuda_fp16.h>
#include <mma.h>

// example-begin mma-tf32
// One warp: D (16 x 8) = A (16 x 8) B (8 x 8) + C, TF32 in, FP32 out.
// All matrices row-major floats in global memory.
__global__ void mmaTf32(const float* A, const float* B, const float* C,
                        float* D) {
  int lane = threadIdx.x % 32;
  int g = lane / 4, t = lane % 4;  // groupID, thread in group
  // The PTX ISA's fragment layout for m16n8k8: which elements a lane holds.
  unsigned a0 = __float_as_uint(A[g * 8 + t]);
  unsigned a1 = __float_as_uint(A[(g + 8) * 8 + t]);
  unsigned a2 = __float_as_uint(A[g * 8 + t + 4]);
  unsigned a3 = __float_as_uint(A[(g + 8) * 8 + t + 4]);
  unsigned b0 = __float_as_uint(B[t * 8 + g]);
  unsigned b1 = __float_as_uint(B[(t + 4) * 8 + g]);
  float c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1];
  float c2 = C[(g + 8) * 8 + 2 * t], c3 = C[(g + 8) * 8 + 2 * t + 1];
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  D[g * 8 + 2 * t] = c0;
  D[g * 8 + 2 * t + 1] = c1;
  D[(g + 8) * 8 + 2 * t] = c2;
  D[(g + 8) * 8 + 2 * t + 1] = c3;
}
// example-end mma-tf32

// example-begin mma-f16
// One warp: D (16 x 8) = A (16 x 16) B (16 x 8), F16 in, FP32 out. The
// operands go through shared memory as halves; ldmatrix hands each lane
// its fragment registers.
__global__ void mmaF16(const float* A, const float* B, float* D) {
  // Rows of 24 halves (48 bytes): 8 rows of an 8 x 8 matrix in 8 bank groups.
  __shared__ __align__(16) __half tileA[16][16 + 8];
  __shared__ __align__(16) __half tileB[16][8];
  int lane = threadIdx.x % 32;
  for (int i = lane; i < 16 * 16; i += 32) {
    tileA[i / 16][i % 16] = __float2half(A[i]);
  }
  for (int i = lane; i < 16 * 8; i += 32) {
    tileB[i / 8][i % 8] = __float2half(B[i]);
  }
  __syncwarp();
  // A: four 8 x 8 matrices; lane l names row l % 16 at column 8 (l / 16).
  unsigned a_row =
      __cvta_generic_to_shared(&tileA[lane % 16][8 * (lane / 16)]);
  // B: two 8 x 8 matrices (rows 0-7, 8-15), transposed on the way.
  unsigned b_row = __cvta_generic_to_shared(&tileB[lane % 16][0]);
  unsigned a0, a1, a2, a3, b0, b1;
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(a_row));
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
      : "=r"(b0), "=r"(b1) : "r"(b_row));
  float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  int g = lane / 4, t = lane % 4;
  D[g * 8 + 2 * t] = d0;
  D[g * 8 + 2 * t + 1] = d1;
  D[(g + 8) * 8 + 2 * t] = d2;
  D[(g + 8) * 8 + 2 * t + 1] = d3;
}
// example-end mma-f16

// example-begin wmma
// One warp per 16 x 16 block of C = A B (A: M x K, B: K x N, row-major
// floats). Assumes M and N multiples of 16, K a multiple of 8.
using namespace nvcuda;
__global__ void wmmaGemm(const float* A, const float* B, float* C,
                         int M, int N, int K) {
  int row = blockIdx.y * 16, col = blockIdx.x * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 8) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                   wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                   wmma::row_major> b;
    wmma::load_matrix_sync(a, A + row * K + k, K);  // leading dimension
    wmma::load_matrix_sync(b, B + k * N + col, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// example-end wmma

// The same product with FP32 FMAs, one thread per element of C (lesson 5's naive kernel), for
// the accuracy comparison of "Try it".
__global__ void sgemmNaive(const float* A, const float* B, float* C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}

// example-begin ldmatrix-conflicts
// ldmatrix.x4 whose lane l names row l of a 32-row array of `stride`
// halves: 8 halves (16 bytes, rows packed) or 64 (128 bytes apart).
template <int STRIDE>
__global__ void ldmatrixRows(unsigned* out) {
  __shared__ __align__(16) __half rows[32 * STRIDE];
  int lane = threadIdx.x % 32;
  for (int i = lane; i < 32 * STRIDE; i += 32) rows[i] = __float2half(i);
  __syncwarp();
  unsigned address = __cvta_generic_to_shared(&rows[lane * STRIDE]);
  unsigned r0, r1, r2, r3;
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(address));
  out[lane] = r0 ^ r1 ^ r2 ^ r3;
}
// example-end ldmatrix-conflicts

template __global__ void ldmatrixRows<8>(unsigned*);
template __global__ void ldmatrixRows<64>(unsigned*);
