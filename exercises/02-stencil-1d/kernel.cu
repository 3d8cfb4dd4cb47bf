// Exercise 02-stencil-1d: a 1-D stencil that loads each input once per block.
//
// out[i] is the mean of the 2 * RADIUS + 1 inputs in[i - RADIUS .. i + RADIUS]; an input
// outside 0 .. n-1 counts as 0 (the divisor stays 2 * RADIUS + 1). The checker launches
//     block = BLOCK_SIZE threads          (yours to choose: keep the #define)
//     grid  = ceil(n / BLOCK_SIZE) blocks
// and compares with the naive result within a small relative error.
//
// The code below is lesson 2's naive stencil: correct, but every input is loaded from global
// memory 2 * RADIUS + 1 = 7 times, by 7 different threads. The checker counts the elements
// loaded from global memory per output (global_ld_elements_per_output) and wants at most
// 1.25: load the block's BLOCK_SIZE elements and the RADIUS-wide halo on each side into shared
// memory once, then read the neighbours from there.
//
// Mind the ends of the array (the halo of the first and last blocks lies partly outside `in`)
// and a last block that is only partly inside it.
//
// Check it with:  tilecamp check 02-stencil-1d

#define RADIUS 3          // fixed: the checker's reference uses the same radius
#define BLOCK_SIZE 256    // threads per block

__global__ void stencil1d(const float* in, float* out, int n) {
  // TODO: declare a shared array for this block's window: RADIUS + BLOCK_SIZE + RADIUS floats.

  int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;

  // TODO: fill the window (your own element, and the halo for the first RADIUS threads; zeros
  // outside 0 .. n-1), wait for the whole block, then sum from the window. A thread must not
  // leave before that barrier, so this early return has to go.
  if (i >= n) return;
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) {
    int j = i + k;
    if (j >= 0 && j < n) sum += in[j];  // 2 * RADIUS + 1 global loads per output
  }
  out[i] = sum / (2 * RADIUS + 1);
}
