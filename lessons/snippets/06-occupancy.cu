// Lesson 6: occupancy and latency hiding. One float a thread against
// four, and the register cost of keeping many loads in flight.

// example-begin copy-one
__global__ void copyOne(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
// example-end copy-one

// example-begin copy-four
__global__ void copyFour(const float* in, float* out, int n) {
  int first = blockIdx.x * blockDim.x * 4 + threadIdx.x;
  float v[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {  // four loads, none waiting for another
    int i = first + k * blockDim.x;
    v[k] = i < n ? in[i] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {  // then four stores
    int i = first + k * blockDim.x;
    if (i < n) out[i] = v[k];
  }
}
// example-end copy-four

// example-begin copy-many
template <int K>
__global__ void copyMany(const float* in, float* out, int n) {
  int first = blockIdx.x * blockDim.x * K + threadIdx.x;
  float v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    int i = first + k * blockDim.x;
    v[k] = i < n ? in[i] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    int i = first + k * blockDim.x;
    if (i < n) out[i] = v[k];
  }
}
template __global__ void copyMany<32>(const float*, float*, int);
// example-end copy-many

// example-begin launch-bounds
// At most 256 threads a block, and ptxas must leave room for 8 of them an SM:
// 65536 / (8 x 256) = 32 registers a thread at most.
__global__ void __launch_bounds__(256, 8)
copyManyBounded(const float* in, float* out, int n) {
  int first = blockIdx.x * blockDim.x * 32 + threadIdx.x;
  float v[32];
#pragma unroll
  for (int k = 0; k < 32; ++k) {
    int i = first + k * blockDim.x;
    v[k] = i < n ? in[i] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < 32; ++k) {
    int i = first + k * blockDim.x;
    if (i < n) out[i] = v[k];
  }
}
// example-end launch-bounds
