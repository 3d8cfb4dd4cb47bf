// Exercise 03-divergent-barrier: a block-wide sum whose barrier every thread reaches.
//
// Block b adds up its blockDim.x elements of `in`, in[b * blockDim.x ..] (those below n), and
// writes the sum to out[b]. The checker tries several block sizes, every power of two from 32
// to 1024, and gives the kernel blockDim.x floats of dynamic shared memory:
//     block = `block` threads        (32, 64, 128, 256, 512 or 1024)
//     grid  = ceil(n / block) blocks
//     dynamic shared memory = block * 4 bytes, the `partial` array below
//
// The tree reduction below halves the number of active threads at each step. Its barrier sits
// inside `if (threadIdx.x < stride)`, so the threads that fail the test never arrive at it: a
// barrier that not every thread of the block reaches is undefined (PTX's bar.sync is
// `.aligned`). A GPU hangs on it when the missing threads are still running or wait at another
// barrier; here they run on and exit, and the others are released with nothing synchronized.
// On an H200, through tilecamp's GPU backend, compute-sanitizer's synccheck, racecheck and
// memcheck all reported 0 errors for this stub. The emulator reports it as a deadlock.
//
// Check it with:  tilecamp check 03-divergent-barrier

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;

  // Every thread contributes one element, or 0 past the end of the array.
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // At each step the first `stride` threads add the upper half of what is left to the lower.
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      partial[t] += partial[t + stride];
      // TODO: only the threads with t < stride come here. Make every thread of the block reach
      // this barrier at every step, while still only the first `stride` threads add.
      __syncthreads();
    }
  }

  if (t == 0) out[blockIdx.x] = partial[0];
}
