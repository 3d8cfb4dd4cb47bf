// Tensor-core instructions as inline PTX (mma.sync in seven shapes and types, ldmatrix, movmatrix)
// and WMMA through <mma.h>, over operands made from a hash of (trial, form, lane, register): the
// outputs a GPU writes are the reference the emulator must reproduce bit for bit.
//
// One warp per trial (block of 32 threads). Trials 0-31 take finite operands of spread exponents
// with every mantissa bit random (a TF32 operand's low 13 bits included), trials 32-63 operands
// near +-1 whose products cancel, trials 64-95 edge values (zeros, subnormals, the largest finite,
// infinities, NaN) among large ones.
//
// On the GPU machine (nvcc compiles the host part; NVRTC, which defines __CUDACC_RTC__, sees only
// the kernels):
//   bench/tensor_core_gpu.sh OUT_DIR   (nvcc -arch=sm_90 -O2 this file, then runs it)
// writes tests/data/h200-tensor-core-mma.bin (kMmaWords words a lane, lanes in order, trials in
// order) and h200-tensor-core-wmma.bin (kWmmaWords words a trial), raw little-endian 32-bit words.
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <string>
#include <vector>
#endif
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

constexpr int kTrials = 96;
constexpr int kMmaWords = 38;    // output words per lane of mmaForms
constexpr int kWmmaTrials = 32;
constexpr int kWmmaWords = 3 * 256;  // three 16x16 float results per trial

__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__device__ unsigned hash4(unsigned trial, unsigned form, unsigned lane, unsigned reg) {
  return mix(mix(mix(trial * 0x9E3779B1u + form) ^ lane * 0x85EBCA77u) + reg * 0xC2B2AE3Du);
}

// A float's bits for trial kind `kind` (0 spread, 1 cancelling, 2 edges).
__device__ unsigned float_bits(unsigned kind, unsigned h) {
  const unsigned h2 = mix(h + 1), h3 = mix(h + 2);
  const unsigned sign = h & 0x80000000u;
  if (kind == 0) return sign | (127u + h2 % 21u - 10u) << 23 | (h3 & 0x7fffffu);
  if (kind == 1) return sign | (127u + h2 % 3u - 1u) << 23 | (h3 & 0x7fe000u) | (h3 & 0x1fffu) * (h2 >> 31);
  const unsigned edges[12] = {0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu,
                              0x7f800000u, 0xff800000u, 0x7fc00000u, 0x3f800000u, 0x00400000u, 0x80800001u};
  if (h2 % 24u < 12u) return edges[h2 % 24u];
  return sign | (127u + h2 % 121u - 60u) << 23 | (h3 & 0x7fffffu);
}

__device__ unsigned half_bits(unsigned kind, unsigned h) {
  const unsigned h2 = mix(h + 3), h3 = mix(h + 4);
  const unsigned sign = (h >> 16) & 0x8000u;
  if (kind == 0) return sign | (15u + h2 % 11u - 5u) << 10 | (h3 & 0x3ffu);
  if (kind == 1) return sign | (15u + h2 % 3u - 1u) << 10 | (h3 & 0x3ffu);
  const unsigned edges[10] = {0x0000u, 0x8000u, 0x0001u, 0x03ffu, 0x0400u, 0x7bffu, 0x7c00u, 0xfc00u, 0x7e00u, 0x3c00u};
  if (h2 % 20u < 10u) return edges[h2 % 20u];
  return sign | (25u + h2 % 5u) << 10 | (h3 & 0x3ffu);
}

__device__ unsigned bfloat_bits(unsigned kind, unsigned h) {
  if (kind == 2) {
    const unsigned edges[10] = {0x0000u, 0x8000u, 0x0001u, 0x007fu, 0x0080u, 0x7f7fu, 0x7f80u, 0xff80u, 0x7fc0u, 0x3f80u};
    const unsigned h2 = mix(h + 5);
    if (h2 % 20u < 10u) return edges[h2 % 20u];
  }
  return float_bits(kind, h) >> 16;
}

// Operand register `reg` of form `form` for this lane: a float, two halves or two bfloats.
enum Operand { kFloat, kHalves, kBfloats };
__device__ unsigned operand(Operand type, unsigned trial, unsigned form, unsigned lane, unsigned reg) {
  const unsigned kind = trial / 32u, h = hash4(trial, form, lane, reg);
  if (type == kFloat) return float_bits(kind, h);
  if (type == kHalves) return half_bits(kind, h) | half_bits(kind, mix(h)) << 16;
  return bfloat_bits(kind, h) | bfloat_bits(kind, mix(h)) << 16;
}

#define MMA_F32(shape_types, a_count, b_count, a_type, b_type, form)                                             \
  {                                                                                                              \
    unsigned a[4], b[2], c[4], d[4];                                                                             \
    for (int i = 0; i < 4; ++i) a[i] = operand(a_type, trial, form, lane, i);                                    \
    for (int i = 0; i < 2; ++i) b[i] = operand(b_type, trial, form, lane, 4 + i);                                \
    for (int i = 0; i < 4; ++i) c[i] = operand(kFloat, trial, form, lane, 6 + i);                                \
    MMA_ASM_##a_count##_##b_count(shape_types)                                                                   \
    for (int i = 0; i < 4; ++i) o[k++] = d[i];                                                                   \
  }
#define MMA_ASM_4_2(shape_types)                                                                                 \
  asm volatile("mma.sync.aligned." shape_types " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"      \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                                  \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]),         \
                 "r"(c[2]), "r"(c[3]));
#define MMA_ASM_2_1(shape_types)                                                                                 \
  asm volatile("mma.sync.aligned." shape_types " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                  \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                                  \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));

__global__ void mmaForms(unsigned* out) {
  const unsigned trial = blockIdx.x, lane = threadIdx.x;
  unsigned* o = out + (trial * 32u + lane) * kMmaWords;
  int k = 0;
  MMA_F32("m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, kFloat, kFloat, 0)
  MMA_F32("m16n8k16.row.col.f32.bf16.bf16.f32", 4, 2, kBfloats, kBfloats, 1)
  MMA_F32("m16n8k16.row.col.f32.f16.f16.f32", 4, 2, kHalves, kHalves, 2)
  MMA_F32("m16n8k8.row.col.f32.bf16.bf16.f32", 2, 1, kBfloats, kBfloats, 3)
  MMA_F32("m16n8k4.row.col.f32.tf32.tf32.f32", 2, 1, kFloat, kFloat, 4)
  MMA_F32("m16n8k8.row.col.f32.f16.f16.f32", 2, 1, kHalves, kHalves, 5)
  {  // f16 accumulators
    unsigned a[4], b[2], c[2], d[2];
    for (int i = 0; i < 4; ++i) a[i] = operand(kHalves, trial, 6, lane, i);
    for (int i = 0; i < 2; ++i) b[i] = operand(kHalves, trial, 6, lane, 4 + i);
    for (int i = 0; i < 2; ++i) c[i] = operand(kHalves, trial, 6, lane, 6 + i);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    o[k++] = d[0];
    o[k++] = d[1];
  }
  // ldmatrix: four 8x8 matrices of 16-bit elements, 512 bytes; lane L names row (5 L mod 32).
  __shared__ unsigned tile[128];
  for (int i = lane; i < 128; i += 32) tile[i] = hash4(trial, 7, i, 0);
  __syncwarp();
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + (lane * 5u % 32u) * 16u;
  unsigned r[4];
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(row));
  o[k++] = r[0];
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(row));
  o[k++] = r[0];
  o[k++] = r[1];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(row));
  for (int i = 0; i < 4; ++i) o[k++] = r[i];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(row));
  for (int i = 0; i < 4; ++i) o[k++] = r[i];
  unsigned moved;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(moved) : "r"(hash4(trial, 8, lane, 0)));
  o[k++] = moved;
  if (k != kMmaWords) o[0] = 0xdeadbeefu;  // a form added without updating kMmaWords
}

// WMMA: m16n16k16 half and bfloat16 into float, m16n16k8 tf32, each A row-major and B
// column-major from global memory, C loaded row-major, D stored row-major.
__global__ void wmmaForms(unsigned* out) {
  using namespace nvcuda;
  const unsigned trial = blockIdx.x, lane = threadIdx.x;
  __shared__ unsigned a_words[256], b_words[256], c_words[256];
  unsigned* o = out + trial * kWmmaWords;
  const unsigned kind = trial % 3u;
  for (int form = 0; form < 3; ++form) {
    for (int i = lane; i < 256; i += 32) {
      const unsigned h = hash4(trial, 16 + form, i, 0);
      a_words[i] = form == 2 ? float_bits(kind, h) : (form == 0 ? half_bits(kind, h) : bfloat_bits(kind, h));
      b_words[i] = form == 2 ? float_bits(kind, mix(h)) : (form == 0 ? half_bits(kind, mix(h)) : bfloat_bits(kind, mix(h)));
      c_words[i] = float_bits(kind, mix(h + 7));
    }
    __syncwarp();
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc16;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc8;
    if (form == 0) {
      __shared__ __half ah[256], bh[256];
      for (int i = lane; i < 256; i += 32) {
        ah[i] = __ushort_as_half(static_cast<unsigned short>(a_words[i]));
        bh[i] = __ushort_as_half(static_cast<unsigned short>(b_words[i]));
      }
      __syncwarp();
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
      wmma::load_matrix_sync(fa, ah, 16);
      wmma::load_matrix_sync(fb, bh, 16);
      wmma::load_matrix_sync(acc16, reinterpret_cast<float*>(c_words), 16, wmma::mem_row_major);
      wmma::mma_sync(acc16, fa, fb, acc16);
      wmma::store_matrix_sync(reinterpret_cast<float*>(o), acc16, 16, wmma::mem_row_major);
    } else if (form == 1) {
      __shared__ __nv_bfloat16 ab[256], bb[256];
      for (int i = lane; i < 256; i += 32) {
        ab[i] = __ushort_as_bfloat16(static_cast<unsigned short>(a_words[i]));
        bb[i] = __ushort_as_bfloat16(static_cast<unsigned short>(b_words[i]));
      }
      __syncwarp();
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
      wmma::load_matrix_sync(fa, ab, 16);
      wmma::load_matrix_sync(fb, bb, 16);
      wmma::load_matrix_sync(acc16, reinterpret_cast<float*>(c_words), 16, wmma::mem_row_major);
      wmma::mma_sync(acc16, fa, fb, acc16);
      wmma::store_matrix_sync(reinterpret_cast<float*>(o + 256), acc16, 16, wmma::mem_row_major);
    } else {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
      wmma::load_matrix_sync(fa, reinterpret_cast<float*>(a_words), 8);
      wmma::load_matrix_sync(fb, reinterpret_cast<float*>(b_words), 8);
      wmma::load_matrix_sync(acc8, reinterpret_cast<float*>(c_words), 16, wmma::mem_row_major);
      wmma::mma_sync(acc8, fa, fb, acc8);
      wmma::store_matrix_sync(reinterpret_cast<float*>(o + 512), acc8, 16, wmma::mem_row_major);
    }
    __syncwarp();
  }
}

#ifndef __CUDACC_RTC__
int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  const size_t mma_words = size_t{kTrials} * 32 * kMmaWords, wmma_words = size_t{kWmmaTrials} * kWmmaWords;
  unsigned *mma_out = nullptr, *wmma_out = nullptr;
  cudaMalloc(&mma_out, mma_words * 4);
  cudaMalloc(&wmma_out, wmma_words * 4);
  mmaForms<<<kTrials, 32>>>(mma_out);
  wmmaForms<<<kWmmaTrials, 32>>>(wmma_out);
  if (cudaDeviceSynchronize() != cudaSuccess) return std::printf("launch failed: %s\n", cudaGetErrorString(cudaGetLastError())), 1;
  std::vector<unsigned> host(mma_words);
  cudaMemcpy(host.data(), mma_out, mma_words * 4, cudaMemcpyDeviceToHost);
  std::string path = std::string(dir) + "/mma_forms.bin";
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(host.data(), 4, host.size(), f);
  std::fclose(f);
  size_t marked = 0;
  for (size_t i = 0; i < host.size(); i += kMmaWords) marked += host[i] == 0xdeadbeefu;
  host.assign(wmma_words, 0);
  cudaMemcpy(host.data(), wmma_out, wmma_words * 4, cudaMemcpyDeviceToHost);
  path = std::string(dir) + "/wmma_forms.bin";
  f = std::fopen(path.c_str(), "wb");
  std::fwrite(host.data(), 4, host.size(), f);
  std::fclose(f);
  std::printf("mma_forms.bin: %zu words, wmma_forms.bin: %zu words, lanes with a word-count mismatch: %zu\n",
              mma_words, wmma_words, marked);
  return marked == 0 ? 0 : 1;
}
#endif
