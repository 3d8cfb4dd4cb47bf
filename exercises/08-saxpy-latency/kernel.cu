// Exercise 08-saxpy-latency: y = a * x + y over n floats, on a grid that does not grow with n.
//
// The checker launches 264 blocks of 256 threads, 2 blocks for each of an H200's 132 SMs,
// whatever n is:
//     block = 256
//     grid  = 264
// so each thread walks the arrays with a grid-stride loop.
//
// The code below is correct, and coalesced, and slow: it is latency-bound, not
// bandwidth-bound. Each trip round the loop loads x[i] and y[i], waits the whole trip to DRAM
// and back (about a microsecond), and stores y[i] before the next trip may load anything
// (with plain pointers, that store could change the next x). 512 threads per SM with 8 bytes
// each in flight are 4 KiB per SM; Little's law asks for about 30 KiB to keep DRAM busy. The
// checker wants the kernel at least 2 times as fast as this stub on the emulator's model, 1.8
// times on a GPU.
//
// Check it with:  tilecamp check 08-saxpy-latency

__global__ void saxpy(const float* x, float* y, float a, int n) {
  // TODO: put more bytes in flight per thread: mark the pointers __restrict__, move float4s
  // rather than floats, and load several of them (say 4 float4s of x and 4 of y, each a
  // grid-width apart) before storing any. The elements past the last whole float4
  // (n % 4 of them) still need a scalar loop.
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}
