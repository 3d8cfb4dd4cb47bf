// attack: a 1 TiB __device__ array, to exhaust the grader's memory
// exercise: 01-vector-add
// expect: fail memory-limit
__device__ char big[1ull << 40];
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { c[i] = a[i] + b[i]; big[i] = 1; }
}
