// attack: probe whether a file exists with __has_include carried into an #if by a macro
// exercise: 01-vector-add
// expect: fail compile
#define EXISTS __has_include
#if EXISTS("@CANARY@")
#define SCALE 2.0f
#else
#define SCALE 1.0f
#endif
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = (a[i] + b[i]) * SCALE;
}
