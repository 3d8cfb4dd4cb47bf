// Exercise 03-early-exit: keep every thread of the block until the barrier.
//
// Compute the differences of neighbours: out[i] = in[i] - in[i - 1], and out[0] = in[0], for
// the n floats of `in`. The checker launches
//     block = BLOCK threads (256)
//     grid  = ceil(n / BLOCK) blocks
// on sizes that leave the last block partly empty.
//
// The kernel below computes the right numbers, but the threads of the last block that have no
// element `return` before the barrier that the others wait at. The barrier itself is defined:
// PTX's bar.sync waits only for threads that have not exited. The course forbids it anyway: a
// thread that has returned no longer does its share of the block's work (a halo element, its
// loads of a tile), and a later full-mask __shfl_sync with exited lanes is undefined. The
// emulator reports it as the warning `early-exit-barrier`, and for this exercise that warning
// is an error.
//
// Check it with:  tilecamp check 03-early-exit

#define BLOCK 256

__global__ void difference(const float* in, float* out, int n) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  // TODO: these threads never reach the barrier below. Keep every thread in the kernel until
  // after the barrier, and guard the work (the load and the store) instead.
  if (i >= n) return;
  buffer[t] = in[i];
  __syncthreads();
  // The left neighbour: in shared memory, except for the first thread of a block, whose
  // neighbour belongs to the previous block (and for element 0, which has none).
  float left = t > 0 ? buffer[t - 1] : (i > 0 ? in[i - 1] : 0.0f);
  out[i] = buffer[t] - left;
}
