// Seed for the PTX parser fuzzer (see fuzz_ptx_parser.cpp): kernels that use what the course's
// fixtures do not, so that the seed corpus reaches more of the parser and the decoder: atomics,
// warp shuffles and votes, a device-function call, local arrays, doubles, templates, vectors.

template <int N>
__global__ void histogram(const int* in, unsigned* bins, int n) {
  __shared__ unsigned local_bins[N];
  for (int i = threadIdx.x; i < N; i += blockDim.x) local_bins[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local_bins[in[i] % N], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < N; i += blockDim.x) atomicAdd(&bins[i], local_bins[i]);
}
template __global__ void histogram<64>(const int*, unsigned*, int);

__global__ void warpReduce(const float* in, float* out, unsigned long long* count) {
  float value = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  if (__ballot_sync(0xffffffffu, value > 0.0f) == 0xffffffffu && threadIdx.x % 32 == 0) {
    atomicAdd(count, 1ull);
  }
  if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = value;
}

__device__ __noinline__ double polynomial(double x, const double* c, int n) {
  double sum = 0.0;
  for (int i = n - 1; i >= 0; --i) sum = fma(sum, x, c[i]);
  return sum;
}

__global__ void evaluate(const double* x, double* y, int n) {
  double c[8];
  for (int i = 0; i < 8; ++i) c[i] = 1.0 / (i + 1) + x[i % n];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = polynomial(x[i], c, 8 - (i & 3)) + sqrt(fabs(x[i])) + exp(x[i]);
}

__global__ void copyVectors(const float4* __restrict__ in, float4* out, const char* flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || flags[i] == 0) return;
  float4 v = __ldg(&in[i]);
  out[i] = make_float4(v.w, v.z, v.y, v.x);
}
