// attack: print without end, to fill the grader's memory and its reports
// exercise: 01-vector-add
// expect: fail time-limit
// time-limit: 3
#include <cstdio>
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 1000; ++k) printf("thread %u says %d\n", i, k);
  if (i < n) c[i] = a[i] + b[i];
}
