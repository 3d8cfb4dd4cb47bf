// Solution 07-compact: one __ballot_sync per warp gives every lane the warp's keep bits; __popc
// of the bits below a lane is its slot within the warp, and __popc of them all the warp's count.
// The 8 counts go through shared memory with one __syncthreads(), and each warp adds those of
// the warps before it. One barrier per warp, where the scan in shared memory needs 17.

#define BLOCK 256
#define WARPS (BLOCK / 32)
#define FULL_MASK 0xffffffffu

__global__ void compactPositive(const float* in, float* out, int* counts, int n) {
  __shared__ int warp_counts[WARPS];  // how many each warp of the block keeps
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;

  // Past n a thread keeps nothing, but it stays: the warp's votes and the barrier need it.
  float x = i < n ? in[i] : 0.0f;
  bool keep = x > 0.0f;

  // Every lane executes the ballot, keepers or not: the full mask names all 32.
  unsigned kept = __ballot_sync(FULL_MASK, keep);
  if (lane == 0) warp_counts[warp] = __popc(kept);
  __syncthreads();  // every warp's count is in shared memory

  // The same 8 words for every lane: broadcasts, no bank conflicts.
  int before = 0, total = 0;
  for (int w = 0; w < WARPS; ++w) {
    if (w < warp) before += warp_counts[w];
    total += warp_counts[w];
  }
  // The keepers in lanes below this one: the bits of `kept` under bit `lane`.
  before += __popc(kept & ((1u << lane) - 1));
  if (keep) out[blockIdx.x * BLOCK + before] = x;
  if (t == 0) counts[blockIdx.x] = total;
}
