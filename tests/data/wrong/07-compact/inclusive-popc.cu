// Wrong 07-compact: the lane's own bit counted with those below it, (2u << lane) - 1 instead of
// (1u << lane) - 1: every kept element lands one slot too far, slot 0 is never written, and a
// kept last element of `in` is stored past the end of `out`.
// expect: correctness "are wrong"

#define BLOCK 256
#define WARPS (BLOCK / 32)
#define FULL_MASK 0xffffffffu

__global__ void compactPositive(const float* in, float* out, int* counts, int n) {
  __shared__ int warp_counts[WARPS];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  float x = i < n ? in[i] : 0.0f;
  bool keep = x > 0.0f;
  unsigned kept = __ballot_sync(FULL_MASK, keep);
  if (lane == 0) warp_counts[warp] = __popc(kept);
  __syncthreads();
  int before = 0, total = 0;
  for (int w = 0; w < WARPS; ++w) {
    if (w < warp) before += warp_counts[w];
    total += warp_counts[w];
  }
  before += __popc(kept & ((2u << lane) - 1));  // MISTAKE: bits 0..lane, this lane's included
  if (keep) out[blockIdx.x * BLOCK + before] = x;
  if (t == 0) counts[blockIdx.x] = total;
}
