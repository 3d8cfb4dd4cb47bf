// Lesson 01, coalescing: the kernels the lesson shows and its "Try it" commands profile.
// Device code only (compiled with NVRTC); lessons/01-coalescing.md quotes the marked regions
// and tests/test_lessons.cpp keeps the two identical.

// example-begin scale
// y = a * x for n floats, one element per thread.
__global__ void scale(const float* x, float* y, float a, int n) {
  // Which element is mine? Blocks before mine hold blockIdx.x * blockDim.x
  // threads; inside my block I am number threadIdx.x.
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The grid is rounded up to whole blocks: the last one may run past n.
  if (i < n) {
    y[i] = a * x[i];
  }
}
// example-end scale

// example-begin strided
// Thread i adds 1 to element i * stride. With stride 1 a warp's 32 lanes
// touch 128 contiguous bytes; with stride s they are 4 * s bytes apart.
__global__ void addOneStrided(float* a, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i * stride] = a[i * stride] + 1.0f;
  }
}
// example-end strided

// example-begin scale-matrix
// m holds `height` rows of `width` floats, row-major: m[row * width + col].

// Lanes of a warp differ in threadIdx.x, so here they walk DOWN a column:
// neighbouring lanes are `width` floats apart.
__global__ void scaleMatrixByColumns(float* m, float a, int width,
                                     int height) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    m[row * width + col] *= a;
  }
}

// The same work with x mapped to columns: lanes walk ALONG a row.
__global__ void scaleMatrixByRows(float* m, float a, int width,
                                  int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    m[row * width + col] *= a;
  }
}
// example-end scale-matrix
