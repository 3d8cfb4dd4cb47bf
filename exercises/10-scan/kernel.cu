// Exercise 10-scan: an exclusive scan of each block's elements, with warp shuffles.
//
// Block b scans its blockDim.x elements of `in`, in[b * blockDim.x ..] (those below n):
//     out[i] = the sum of in[j] for b * blockDim.x <= j < i   (0 for a block's first element)
// an exclusive prefix sum, on integers, compared exactly. The checker tries every power of two
// from 32 to 1024 threads per block and gives the kernel 2 * blockDim.x ints of dynamic shared
// memory (the scan below uses them; a kernel that does not is free to ignore them):
//     block = `block` threads        (32, 64, 128, 256, 512 or 1024)
//     grid  = ceil(n / block) blocks
//     dynamic shared memory = block * 8 bytes
//
// The kernel below is right: Hillis and Steele's scan in shared memory, where step k adds the
// value 2^k places to the left, reading one buffer and writing the other. That is
// 1 + log2(blockDim.x) barriers for every warp: 9 for 256 threads. Lesson 10: a warp scans its
// 32 values in registers with __shfl_up_sync and no barrier; lane 31 then holds the warp's
// total. Only those totals need shared memory: one barrier, warp 0 scans them, a second
// barrier, and each thread adds the totals of the warps before its own. The checker counts the
// barriers each warp passes (barriers_per_warp, at most 2) and times the kernel against this
// one.
//
// Careful with the two kinds of scan: the warp scan is inclusive (lane k's sum includes its own
// value); out[i] must not.
//
// Check it with:  tilecamp check 10-scan

__global__ void blockScan(const int* in, int* out, int n) {
  extern __shared__ int buffer[];  // 2 * blockDim.x ints, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;

  // TODO: log2(blockDim.x) barriers. Scan each warp's values with __shfl_up_sync (inclusive),
  // let lane 31 write the warp's total to a __shared__ int[32], __syncthreads(), let warp 0
  // scan the totals, __syncthreads(), and add the totals of the earlier warps.
  int* from = buffer;
  int* to = buffer + blockDim.x;
  from[t] = t > 0 && i - 1 < n ? in[i - 1] : 0;  // shifted by one: the scan comes out exclusive
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    to[t] = from[t] + (t >= offset ? from[t - offset] : 0);
    __syncthreads();
    int* swap = from;
    from = to;
    to = swap;
  }

  if (i < n) out[i] = from[t];
}
