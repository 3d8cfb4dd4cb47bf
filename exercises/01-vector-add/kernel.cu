// Exercise 01-vector-add: add two vectors, one element per thread.
//
// Compute c[i] = a[i] + b[i] for the n floats of a, b and c. The checker launches
//     block = 256 threads
//     grid  = ceil(n / 256) blocks
// so there is one thread per element, plus up to 255 spare threads in the last block. Its
// sizes are chosen to break a kernel that forgets either: 1, fewer than a block, one more
// than a multiple of the block, a prime.
//
// As shipped, every block works on the same elements 0..255: the thread uses only its place
// inside its block. When n > 256 most of c is never written; when n < 256 threads read and
// write past the end of the buffers, and the emulator stops with an out-of-bounds error that
// names the thread.
//
// Check it with:  tilecamp check 01-vector-add

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  // TODO: threadIdx.x is only this thread's number inside its block. Count the threads of
  // the blocks before this one too, so that the whole grid numbers the elements 0, 1, 2, ...
  int i = threadIdx.x;

  // TODO: the grid is rounded up to whole blocks, so the last block may have threads with no
  // element of their own. Let only the threads with i < n touch memory.
  c[i] = a[i] + b[i];
}
