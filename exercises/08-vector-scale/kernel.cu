// Exercise 08-vector-scale: out = a * in, with one 16-byte load and one 16-byte store per thread.
//
// `in` and `out` hold `n` floats. The checker launches one thread per 4 elements:
//     block = 256
//     grid  = ceil(n / 1024)
// so thread t owns elements 4t, 4t+1, 4t+2 and 4t+3 (fewer at the end when n % 4 != 0).
//
// The code below is correct but slow. It moves its 4 floats one at a time: neighbouring lanes
// are 16 bytes apart, so each warp-wide load touches 16 sectors and uses a quarter of them,
// and each store writes a quarter of 16 sectors. And with plain pointers the compiler must
// assume that a store to `out` can change `in`, so every load waits for the store before it.
// The checker wants every byte of a sector used (global_ld_efficiency and
// global_st_efficiency at least 0.9) and the kernel at least 2 times as fast as this stub on
// the emulator's model, 1.7 times on a GPU.
//
// Check it with:  tilecamp check 08-vector-scale

__global__ void scale(const float* in, float* out, float a, int n) {
  int first = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  // TODO: when all four elements exist, load them as one float4
  // (reinterpret_cast<const float4*>(in)[...]), scale it and store one float4; keep a scalar
  // path for the last n % 4 elements. Mark the pointers __restrict__.
  for (int k = 0; k < 4; ++k) {
    if (first + k < n) out[first + k] = a * in[first + k];
  }
}
