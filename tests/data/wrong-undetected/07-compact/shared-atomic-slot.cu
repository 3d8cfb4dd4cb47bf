// Wrong 07-compact: each keeper takes its slot with atomicAdd on a counter in shared memory. The
// right elements in the right count, but in the order the atomics happen to run, which no GPU
// promises to be the elements' order.
// expect: correctness "are wrong"
// Not caught: the emulator runs a block's warps one after another and a warp's lanes in lane
// order, so its atomics hand out the slots in the elements' order and the output matches the
// reference exactly. On a GPU the order of the atomics between warps (and between the lanes of a
// warp) is not defined, so the same kernel can write the kept elements in another order there.
// Catching it needs the emulator to run a block's warps, or the lanes of one atomic, in some
// other order, or a race check for atomics whose return values decide where data goes.

#define BLOCK 256

__global__ void compactPositive(const float* in, float* out, int* counts, int n) {
  __shared__ int next;  // the block's next free slot
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  float x = i < n ? in[i] : 0.0f;
  if (t == 0) next = 0;
  __syncthreads();
  if (x > 0.0f) out[blockIdx.x * BLOCK + atomicAdd(&next, 1)] = x;  // MISTAKE: any order
  __syncthreads();
  if (t == 0) counts[blockIdx.x] = next;
}
