// Wrong 01-vector-add: thread t of block b takes element t * gridDim.x + b: every element is still
// added once, but the lanes of a warp are gridDim.x floats apart, so no load or store is coalesced.
// expect: performance global_ld_sectors_per_request
// expect: performance global_st_sectors_per_request

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  // MISTAKE: neighbouring lanes get elements gridDim.x apart: 32 sectors per request.
  int i = threadIdx.x * gridDim.x + blockIdx.x;

  // The grid has ceil(n / 256) * 256 threads: up to 255 more than elements. Without this
  // test they would write past the end of c (silently, on a GPU).
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}
