// Exercise 07-block-sum: a block-wide sum with warp shuffles and at most two barriers.
//
// Block b adds up its blockDim.x elements of `in`, in[b * blockDim.x ..] (those below n), and
// writes the sum to out[b], as in 03-divergent-barrier. The checker tries every power of two
// from 32 to 1024 threads per block and gives the kernel blockDim.x floats of dynamic shared
// memory (the tree below uses them; a kernel that does not is free to ignore them):
//     block = `block` threads        (32, 64, 128, 256, 512 or 1024)
//     grid  = ceil(n / block) blocks
//     dynamic shared memory = block * 4 bytes
// and compares with its own sums within a small relative error.
//
// The kernel below is 03-divergent-barrier's solution, and it is correct: a tree in shared
// memory that halves the active threads at each step, with a __syncthreads() after each step.
// That is 1 + log2(blockDim.x) barriers for every warp: 9 for 256 threads, 11 for 1024. Most
// of them order what the lanes of ONE warp do: once `stride` is 32 or less, only warp 0 works.
// Lesson 7: a warp adds its 32 values in registers with __shfl_down_sync and no barrier at all;
// only the warps' sums need shared memory and one __syncthreads(). The checker counts the
// barriers each warp passes (barriers_per_warp, at most 2) and times the kernel against this
// tree.
//
// Rules that still hold: every lane that a shuffle's mask names must execute that shuffle with
// that mask (no `return` before it, no shuffle inside an `if` that splits the warp), and a
// thread past n stays and adds 0.
//
// Check it with:  tilecamp check 07-block-sum

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;

  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // TODO: log2(blockDim.x) barriers. Let each warp add its 32 values with __shfl_down_sync,
  // lane 0 of each warp write the warp's sum to shared memory, one __syncthreads(), and then
  // warp 0 add those blockDim.x / 32 sums with shuffles again.
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }

  if (t == 0) out[blockIdx.x] = partial[0];
}
