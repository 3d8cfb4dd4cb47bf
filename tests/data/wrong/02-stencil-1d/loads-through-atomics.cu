// Wrong 02-stencil-1d: the naive stencil with its 7 loads per output disguised as atomicAdd(p, 0),
// which returns the value and changes nothing. Atomics read global memory and are counted with the
// loads: 7 elements per output.
// expect: performance global_ld_elements_per_output

#define RADIUS 3
#define BLOCK_SIZE 256

__global__ void stencil1d(const float* in, float* out, int n) {
  int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) {
    int j = i + k;
    // MISTAKE: every neighbour fetched from global memory, once per output it feeds.
    if (j >= 0 && j < n) sum += atomicAdd(const_cast<float*>(in + j), 0.0f);
  }
  out[i] = sum / (2 * RADIUS + 1);
}
