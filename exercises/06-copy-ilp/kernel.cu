// Exercise 06-copy-ilp: keep enough loads in flight to reach the memory's bandwidth.
//
// Copy the n floats of `in` to `out`. The checker launches blocks of BLOCK_SIZE threads, one
// block for every BLOCK_SIZE * ELEMENTS floats:
//     block = (BLOCK_SIZE)
//     grid  = (ceil(n / (BLOCK_SIZE * ELEMENTS)))
//
// As shipped each thread copies one float. The copy is correct and coalesced, and 64 warps an
// SM are resident, yet on an H200 it moved 2686 GB/s, where cudaMemcpy moves 4094: a thread
// has one 4-byte load in flight at a time, so an SM has 8 KB in flight, and DRAM needs more
// than that to stay busy (lesson 6, Little's law). The checker wants the copy at least 1.2
// times as fast as the one-float copy on the emulator's model, 1.3 times on a GPU.
//
// TODO: let each thread copy ELEMENTS floats (4 is plenty). Load them all into registers
// first, then store them all: loads with no store between them are independent, and the GPU
// sends them together. Keep each warp's accesses coalesced: a thread's element k lies
// BLOCK_SIZE floats after its element k - 1, so the 32 lanes read 32 neighbouring floats.
//
// Check it with:  tilecamp check 06-copy-ilp

#define BLOCK_SIZE 256
#define ELEMENTS 1

__global__ void copyWide(const float* in, float* out, int n) {
  int i = blockIdx.x * BLOCK_SIZE * ELEMENTS + threadIdx.x;
  if (i < n) {
    out[i] = in[i];
  }
}
