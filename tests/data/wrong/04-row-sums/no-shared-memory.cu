// Wrong 04-row-sums: the baseline dressed in the exercise's launch: lane k of warp 0 walks row k
// straight from global memory. No bank conflicts, since there is no shared memory at all, but
// every load request touches 32 sectors and the tile the exercise asks for is missing. (Its speed
// is no guide: the L1 cache turns most of those sectors into hits, and its 512 one-warp blocks
// spread over more SMs than the baseline's 64.)
// expect: performance "shared memory"
// expect: performance "__syncthreads"

__global__ void rowSums(const float* in, float* out, int width, int height) {
  int row = blockIdx.x * 32 + threadIdx.x;
  if (threadIdx.y != 0 || row >= height) return;
  float sum = 0.0f;
  // MISTAKE: across the warp these loads are `width` floats apart.
  for (int c = 0; c < width; ++c) sum += in[row * width + c];
  out[row] = sum;
}
