// Wrong 07-compact: the ballot inside `if (keep)`. Only the keepers execute it, and its full mask
// names the lanes that took the other path; on a GPU the result is undefined.
// expect: safety "member mask"

#define BLOCK 256
#define WARPS (BLOCK / 32)
#define FULL_MASK 0xffffffffu

__global__ void compactPositive(const float* in, float* out, int* counts, int n) {
  __shared__ int warp_counts[WARPS];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  float x = i < n ? in[i] : 0.0f;
  bool keep = x > 0.0f;
  unsigned kept = 0;
  if (keep) kept = __ballot_sync(FULL_MASK, true);  // MISTAKE: the keepers alone vote
  unsigned all = __ballot_sync(FULL_MASK, keep);
  if (lane == 0) warp_counts[warp] = __popc(all);
  __syncthreads();
  int before = 0, total = 0;
  for (int w = 0; w < WARPS; ++w) {
    if (w < warp) before += warp_counts[w];
    total += warp_counts[w];
  }
  before += __popc(kept & ((1u << lane) - 1));
  if (keep) out[blockIdx.x * BLOCK + before] = x;
  if (t == 0) counts[blockIdx.x] = total;
}
