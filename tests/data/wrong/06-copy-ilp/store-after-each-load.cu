// Wrong 06-copy-ilp: four floats a thread, but each store right after its load. `in` and `out`
// may overlap as far as the compiler knows, so the next load may not pass the store before it:
// the thread still waits for one load at a time, and the copy is no faster.
// expect: performance modelled_speedup

#define BLOCK_SIZE 256
#define ELEMENTS 4

__global__ void copyWide(const float* in, float* out, int n) {
  int first = blockIdx.x * BLOCK_SIZE * ELEMENTS + threadIdx.x;
  for (int k = 0; k < ELEMENTS; ++k) {
    int i = first + k * BLOCK_SIZE;
    if (i < n) {
      out[i] = in[i];  // MISTAKE: a store between every two loads
    }
  }
}
