// Wrong 04-row-sums: a warp per row, each lane adding a strided part of the row and the warp
// folding its 32 partial sums with __shfl_down_sync. Correct, coalesced and fast, but it uses no
// shared memory and no barrier: this exercise grades the tile (lesson 7 teaches shuffles).
// expect: performance "shared memory"
// expect: performance "__syncthreads"

__global__ void rowSums(const float* in, float* out, int width, int height) {
  // 8 warps per block, 4 rows each: the block covers 32 rows, as the launch expects.
  int lane = threadIdx.x, warp = threadIdx.y;
  for (int j = 0; j < 4; ++j) {
    int row = blockIdx.x * 32 + warp * 4 + j;
    if (row >= height) continue;  // the whole warp skips together: no barrier to miss
    float sum = 0.0f;
    for (int c = lane; c < width; c += 32) sum += in[row * width + c];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) out[row] = sum;
  }
}
