// pattern: warps of one block wait at two different __syncthreads() lines (producer warp vs consumer warps); every warp reaches a barrier the same number of times, so it completes on hardware (SGEMM_CUDA kernel 11 double-buffering)
// issue-18 item: 5
// run: tilecamp profile tests/data/public/syncthreads_different_lines.cu --kernel splitRoles --grid 1 --block 64 --arg f32[64]=iota --arg f32[64]=zeros
// diagnostics: warning split-barrier at line 12
// expect: out[i] == 2*in[63-i] + 1; at most a warning that says different __syncthreads() lines are undefined behaviour, no error, exit 0
__global__ void splitRoles(const float* in, float* out) {
  __shared__ float buf[64];
  const int warp = threadIdx.x / 32;
  if (warp == 0) {
    buf[threadIdx.x] = 2.0f * in[threadIdx.x];
    buf[threadIdx.x + 32] = 2.0f * in[threadIdx.x + 32];
    __syncthreads();  // line 11: warp 0 arrives here
  } else {
    __syncthreads();  // line 13: warp 1 arrives here
  }
  out[threadIdx.x] = buf[63 - threadIdx.x] + 1.0f;
}
