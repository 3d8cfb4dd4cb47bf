// Exercise 07-compact: stream compaction within a block, with __ballot_sync and __popc.
//
// Block b owns the 256 elements in[256 b .. 256 b + 255] (those below n). It keeps the positive
// ones, in their order, and writes them to the front of the same 256 slots of `out`, out[256 b],
// out[256 b + 1], ...; counts[b] is how many it kept. The rest of the block's slots stay as they
// were: write nothing there. (The first pass of a global compaction: an exclusive scan of
// `counts` then says where each block's run goes in one packed array.) The checker launches
//     block = 256 threads (8 warps), one element per thread
//     grid  = ceil(n / 256) blocks
// and compares `out` and `counts` exactly; n need not be a multiple of 256 or of 32.
//
// Each kept element's slot is the number of kept elements before it in the block: the keepers
// before it in its own warp, plus all the keepers of the warps before its warp. Lesson 7 finds
// both without a loop over the elements: __ballot_sync gives every lane of a warp the warp's 32
// `keep` bits at once, __popc counts the bits of a mask, and the 8 warps' counts go through
// shared memory with one __syncthreads(). The checker counts the barriers each warp passes
// (barriers_per_warp, at most 2) and times the kernel against a scan of the block's 256 flags in
// shared memory, which needs 17.
//
// As shipped, every kept element goes to its block's first slot and every count is 0.
//
// Check it with:  tilecamp check 07-compact

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

  // TODO: the warp's keepers as a 32-bit mask (bit k: lane k keeps), with __ballot_sync.
  unsigned kept = 0;
  // TODO: lane 0 of each warp writes the warp's count (__popc of the mask) to warp_counts.
  __syncthreads();

  // TODO: the keepers before this lane: those of the warps before this warp (warp_counts) and
  // those of the lanes below this lane in the mask, (1u << lane) - 1 selects them.
  int before = 0;
  if (keep) out[blockIdx.x * BLOCK + before] = x;
  // TODO: the block's count, the sum of warp_counts.
  if (t == 0) counts[blockIdx.x] = 0;
}
