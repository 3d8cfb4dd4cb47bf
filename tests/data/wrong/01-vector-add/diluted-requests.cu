// Wrong 01-vector-add: the strided mistake, with 31 one-lane loads and stores added per warp so
// that the average sectors per request drops to about 2. The bytes the warps use over the bytes
// their sectors move stay at an eighth, whatever is added.
// expect: performance global_ld_efficiency
// expect: performance global_st_efficiency

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;  // MISTAKE: lanes gridDim.x floats apart
  if (i < n) {
    float sum = a[i] + b[i];
    c[i] = sum;
    // MISTAKE: padding the statistics: lane 0 alone reads 31 floats and rewrites its own result
    // 31 times, one sector each.
    if (threadIdx.x % 32 == 0) {
      const volatile float* va = a;
      volatile float* vc = c;
      float unused = 0.0f;
      for (int k = 0; k < 31; ++k) {
        unused += va[(i + k) % n];
        vc[i] = sum;
      }
      if (unused != unused) vc[i] = unused;  // never: the inputs hold no NaN
    }
  }
}
