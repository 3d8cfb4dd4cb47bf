// Atomic access patterns, counted by Nsight Compute on an H200 (bench/atomics_gpu.sh) and by the
// emulator (tests/test_emu_atomics.cpp compares them with tests/data/h200-atomics.tsv). Every
// thread does `iters` atomicAdds; the global kernels ignore the result (ptxas makes them RED)
// except atomSameAddressReturn (ATOM).

// Every thread of the grid on one word.
__global__ void atomSameAddress(unsigned* p, int iters) {
  for (int k = 0; k < iters; ++k) atomicAdd(&p[0], 1u);
}

__global__ void atomSameAddressReturn(unsigned* p, unsigned* out, int iters) {
  unsigned seen = 0;
  for (int k = 0; k < iters; ++k) seen += atomicAdd(&p[0], 1u);
  out[blockIdx.x * blockDim.x + threadIdx.x] = seen;
}

// Every warp on the 8 words of one sector, 4 lanes on each.
__global__ void atomSameSector(unsigned* p, int iters) {
  for (int k = 0; k < iters; ++k) atomicAdd(&p[threadIdx.x % 8], 1u);
}

// Each warp's lanes on one word of their own, 128 bytes from the next warp's.
__global__ void atomWarpAddress(unsigned* p, int iters) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  for (int k = 0; k < iters; ++k) atomicAdd(&p[warp * 32], 1u);
}

// Each thread on a word of its own, neighbours adjacent: 4 sectors a request.
__global__ void atomCoalesced(unsigned* p, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k) atomicAdd(&p[i], 1u);
}

// Each thread on a word of its own in a sector of its own: 32 sectors a request.
__global__ void atomSpread(unsigned* p, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k) atomicAdd(&p[i * 8], 1u);
}

// Shared-memory atomics: `way` lanes of a warp on each address, addresses `stride` words apart
// (way 1, stride 1: 32 banks; way 32: one word; way 1, stride 32: 32 words in one bank).
__global__ void sharedAtomWays(unsigned* out, int way, int stride, int iters) {
  __shared__ unsigned s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  int index = (threadIdx.x % 32 / way) * stride;
  for (int k = 0; k < iters; ++k) atomicAdd(&s[index], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[blockIdx.x * 1024 + i] = s[i];
}

// The same with floats: ptxas adds a float in shared memory with a compare-and-swap loop.
__global__ void sharedAtomWaysF32(float* out, int way, int stride, int iters) {
  __shared__ float s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  int index = (threadIdx.x % 32 / way) * stride;
  for (int k = 0; k < iters; ++k) atomicAdd(&s[index], 1.0f);
  __syncthreads();
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[blockIdx.x * 1024 + i] = s[i];
}

// A warp-aggregated histogram: the lanes that hold the same value elect one leader
// (__match_any_sync), which adds their count with one shared atomic.
__global__ void histogramAggregated(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int lane = threadIdx.x % 32;
  int stride = gridDim.x * blockDim.x;
  int last = (n + 31) / 32 * 32;  // the whole warp runs every round
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < last; i += stride) {
    bool valid = i < n;
    unsigned value = valid ? data[i] : 256u + lane;
    unsigned peers = __match_any_sync(0xffffffffu, value);
    int leader = __ffs(peers) - 1;
    if (valid && lane == leader) atomicAdd(&local[value], __popc(peers));
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
  }
}
