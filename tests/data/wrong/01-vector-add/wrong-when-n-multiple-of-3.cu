// Wrong 01-vector-add: right for every n except a multiple of 3, where the last element is left
// alone. Only a size that is a multiple of 3 catches it; the hidden sizes include odd multiples of 3.
// expect: correctness "hidden case"

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // MISTAKE: a wrong end when n % 3 == 0.
  int end = n % 3 == 0 ? n - 1 : n;
  if (i < end) c[i] = a[i] + b[i];
}
