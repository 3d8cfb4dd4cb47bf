// Shared-memory traffic of ldmatrix and of WMMA's loads and stores, one warp a launch, for
// Nsight Compute to count on an H200 (bench/tensor_wavefronts_gpu.sh) and the emulator to count
// the same way (tests/test_emu_tensor_wavefronts.cpp compares with h200-tensor-wavefronts.tsv).
//
// Each kernel fills a 16 KB shared buffer with 16-bit stores, waits at a barrier, executes the
// instruction under test once per warp and writes what it read to global memory. So its shared
// loads are the instruction's alone (the store kernel reads one word back, one more request).
// NVRTC, which defines __CUDACC_RTC__, sees only the kernels; nvcc compiles the host part too.
#include <cuda_fp16.h>
#include <mma.h>

constexpr int kSharedHalves = 8192;  // 16 KB

__device__ void fill_shared(unsigned short* tile) {
  for (int i = threadIdx.x; i < kSharedHalves; i += blockDim.x) tile[i] = static_cast<unsigned short>(i * 40503u >> 3);
  __syncthreads();
}

// ldmatrix .m8n8 .b16: lane l names row l % 8 of matrix l / 8 at byte
//   (l / 8) * matrix_stride + (l % 8) * row_stride   (modulo 16 KB)
// of the buffer; .x1 reads the addresses of lanes 0-7, .x2 of 0-15, .x4 of all 32.
template <int COUNT, bool TRANS>
__global__ void ldmatrixRows(unsigned* out, int row_stride, int matrix_stride) {
  __shared__ __align__(128) unsigned short tile[kSharedHalves];
  fill_shared(tile);
  const unsigned lane = threadIdx.x % 32;
  const unsigned offset = ((lane / 8) * matrix_stride + (lane % 8) * row_stride) % (2 * kSharedHalves);
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + offset;
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if constexpr (COUNT == 1 && !TRANS) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(address));
  } else if constexpr (COUNT == 1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(address));
  } else if constexpr (COUNT == 2 && !TRANS) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(address));
  } else if constexpr (COUNT == 2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(address));
  } else if constexpr (!TRANS) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(address));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(address));
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = r0 ^ r1 ^ r2 ^ r3;
}

template __global__ void ldmatrixRows<1, false>(unsigned*, int, int);
template __global__ void ldmatrixRows<1, true>(unsigned*, int, int);
template __global__ void ldmatrixRows<2, false>(unsigned*, int, int);
template __global__ void ldmatrixRows<2, true>(unsigned*, int, int);
template __global__ void ldmatrixRows<4, false>(unsigned*, int, int);
template __global__ void ldmatrixRows<4, true>(unsigned*, int, int);

// A WMMA fragment loaded from the buffer with leading dimension ldm (elements), then written out.
template <typename Fragment, typename Element>
__device__ void load_fragment(unsigned* out, const Element* matrix, unsigned ldm) {
  Fragment fragment;
  nvcuda::wmma::load_matrix_sync(fragment, matrix, ldm);
  float sum = 0.0f;
  for (int i = 0; i < fragment.num_elements; ++i) sum += static_cast<float>(fragment.x[i]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = __float_as_uint(sum);
}

using namespace nvcuda;

__global__ void wmmaLoadHalfA(unsigned* out, int ldm) {  // m16n16k16 f16 A, row-major
  __shared__ __align__(128) unsigned short tile[kSharedHalves];
  fill_shared(tile);
  load_fragment<wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major>>(
      out, reinterpret_cast<const __half*>(tile), ldm);
}

__global__ void wmmaLoadHalfB(unsigned* out, int ldm) {  // m16n16k16 f16 B, column-major
  __shared__ __align__(128) unsigned short tile[kSharedHalves];
  fill_shared(tile);
  load_fragment<wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major>>(
      out, reinterpret_cast<const __half*>(tile), ldm);
}

__global__ void wmmaLoadTf32A(unsigned* out, int ldm) {  // m16n16k8 tf32 A, row-major
  __shared__ __align__(128) unsigned short tile[kSharedHalves];
  fill_shared(tile);
  load_fragment<wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>>(
      out, reinterpret_cast<const float*>(tile), ldm);
}

__global__ void wmmaLoadTf32B(unsigned* out, int ldm) {  // m16n16k8 tf32 B, row-major
  __shared__ __align__(128) unsigned short tile[kSharedHalves];
  fill_shared(tile);
  load_fragment<wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>>(
      out, reinterpret_cast<const float*>(tile), ldm);
}

__global__ void wmmaLoadAccumulator(unsigned* out, int ldm) {  // m16n16k8 f32 accumulator, row-major
  __shared__ __align__(128) unsigned short tile[kSharedHalves];
  fill_shared(tile);
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fragment;
  wmma::load_matrix_sync(fragment, reinterpret_cast<const float*>(tile), ldm, wmma::mem_row_major);
  float sum = 0.0f;
  for (int i = 0; i < fragment.num_elements; ++i) sum += fragment.x[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = __float_as_uint(sum);
}

__global__ void wmmaStoreAccumulator(unsigned* out, int ldm) {  // f32 accumulator stored row-major
  __shared__ __align__(128) float tile[kSharedHalves / 2];
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fragment;
  wmma::fill_fragment(fragment, static_cast<float>(threadIdx.x));
  wmma::store_matrix_sync(tile, fragment, ldm, wmma::mem_row_major);
  __syncwarp();
  if (threadIdx.x == 0) out[blockIdx.x] = __float_as_uint(tile[ldm + 1]);
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstring>
#include <vector>

// The cases, in launch order: kernel name as ncu prints it up to '(', and its int arguments.
struct Case {
  const char* name;
  void (*launch)(unsigned*, int, int);
  int a, b;
};

template <int C, bool T>
void launch_ldmatrix(unsigned* out, int row_stride, int matrix_stride) {
  ldmatrixRows<C, T><<<1, 32>>>(out, row_stride, matrix_stride);
}
#define WMMA_LAUNCH(kernel) [](unsigned* out, int ldm, int) { kernel<<<1, 32>>>(out, ldm); }

int main() {
  unsigned* out = nullptr;
  cudaMalloc(&out, 4096);
  std::vector<Case> cases;
  const int strides[] = {16, 32, 64, 128, 144, 0};
  for (int stride : strides) {
    cases.push_back({"ldmatrixRows<1, false>", launch_ldmatrix<1, false>, stride, 8 * stride});
    cases.push_back({"ldmatrixRows<1, true>", launch_ldmatrix<1, true>, stride, 8 * stride});
    cases.push_back({"ldmatrixRows<2, false>", launch_ldmatrix<2, false>, stride, 8 * stride});
    cases.push_back({"ldmatrixRows<2, true>", launch_ldmatrix<2, true>, stride, 8 * stride});
    cases.push_back({"ldmatrixRows<4, false>", launch_ldmatrix<4, false>, stride, 8 * stride});
    cases.push_back({"ldmatrixRows<4, true>", launch_ldmatrix<4, true>, stride, 8 * stride});
  }
  // Four matrices whose rows are contiguous (16 bytes apart) but whose starts are 128 bytes apart.
  cases.push_back({"ldmatrixRows<4, false>", launch_ldmatrix<4, false>, 16, 128});
  for (int ldm : {16, 24, 32, 40, 64}) cases.push_back({"wmmaLoadHalfA", WMMA_LAUNCH(wmmaLoadHalfA), ldm, 0});
  for (int ldm : {16, 24, 64}) cases.push_back({"wmmaLoadHalfB", WMMA_LAUNCH(wmmaLoadHalfB), ldm, 0});
  for (int ldm : {8, 12, 16, 32, 40}) cases.push_back({"wmmaLoadTf32A", WMMA_LAUNCH(wmmaLoadTf32A), ldm, 0});
  for (int ldm : {16, 24, 32, 136}) cases.push_back({"wmmaLoadTf32B", WMMA_LAUNCH(wmmaLoadTf32B), ldm, 0});
  for (int ldm : {16, 20, 24, 32, 136}) {
    cases.push_back({"wmmaLoadAccumulator", WMMA_LAUNCH(wmmaLoadAccumulator), ldm, 0});
  }
  for (int ldm : {16, 20, 24, 32, 136}) {
    cases.push_back({"wmmaStoreAccumulator", WMMA_LAUNCH(wmmaStoreAccumulator), ldm, 0});
  }
  for (const Case& c : cases) {
    c.launch(out, c.a, c.b);
    cudaError_t error = cudaDeviceSynchronize();
    printf("case\t%s\t%d\t%d\t%s\n", c.name, c.a, c.b, error == cudaSuccess ? "ok" : cudaGetErrorString(error));
  }
  cudaFree(out);
  return 0;
}
#endif
