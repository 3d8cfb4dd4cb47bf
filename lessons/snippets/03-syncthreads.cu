// Lesson 03, __syncthreads(): the kernels the lesson shows and its "Try it" commands profile,
// including the broken ones, whose diagnostics the lesson quotes. Device code only (compiled
// with NVRTC); tests/test_lessons.cpp keeps lessons/03-syncthreads.md identical to the marked
// regions.

#define BLOCK 256

// example-begin reverse
// Reverses each block's BLOCK floats in place (launch BLOCK threads).
__global__ void reverseBlock(float* data) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  float* mine = data + blockIdx.x * BLOCK;
  buffer[t] = mine[t];
  __syncthreads();  // every element of `buffer` is written...
  mine[t] = buffer[BLOCK - 1 - t];  // ...before anyone reads one
}
// example-end reverse

// example-begin reverse-racy
__global__ void reverseBlockRacy(float* data) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  float* mine = data + blockIdx.x * BLOCK;
  buffer[t] = mine[t];
  // Missing barrier: thread 0 reads buffer[255], which warp 7 writes.
  mine[t] = buffer[BLOCK - 1 - t];
}
// example-end reverse-racy

// example-begin reverse-chunks
// One block reverses `chunks` consecutive chunks of BLOCK floats,
// reusing one shared buffer: two barriers per trip round the loop.
__global__ void reverseChunks(const float* in, float* out, int chunks) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  for (int c = 0; c < chunks; ++c) {
    int base = (blockIdx.x * chunks + c) * BLOCK;
    buffer[t] = in[base + t];
    __syncthreads();  // read-after-write: the chunk is complete
    out[base + t] = buffer[BLOCK - 1 - t];
    __syncthreads();  // write-after-read: nobody still reads it
  }
}
// example-end reverse-chunks

// The same loop without its second barrier: a fast warp starts the next chunk and overwrites
// `buffer` while slower warps still read the previous one.
__global__ void reverseChunksRacy(const float* in, float* out, int chunks) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  for (int c = 0; c < chunks; ++c) {
    int base = (blockIdx.x * chunks + c) * BLOCK;
    buffer[t] = in[base + t];
    __syncthreads();
    out[base + t] = buffer[BLOCK - 1 - t];
  }
}

// example-begin divergent
// Launch 64 threads: two warps.
__global__ void divergentBarrier(float* data) {
  __shared__ float buffer[64];
  buffer[threadIdx.x] = data[threadIdx.x];
  if (threadIdx.x < 16) {
    __syncthreads();  // lanes 16-31 of warp 0 never come here
  }
  data[threadIdx.x] = buffer[63 - threadIdx.x];
}
// example-end divergent

// example-begin split
// Launch 256 threads: warps 0-1 take one branch, warps 2-7 the other,
// and each branch has a barrier of its own.
__global__ void splitBarriers(float* data) {
  __shared__ float buffer[256];
  int t = threadIdx.x;
  buffer[t] = data[t];
  if (t < 64) {
    __syncthreads();
    data[t] = buffer[255 - t];
  } else {
    __syncthreads();
    data[t] = buffer[t - 64];
  }
}
// example-end split

// example-begin early-exit
// out[i] = in[i] - in[i - 1], and out[0] = in[0].
__global__ void differenceEarlyExit(const float* in, float* out, int n) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  if (i >= n) return;  // these threads never reach the barrier below
  buffer[t] = in[i];
  __syncthreads();
  float left = t > 0 ? buffer[t - 1] : (i > 0 ? in[i - 1] : 0.0f);
  out[i] = buffer[t] - left;
}
// example-end early-exit

// example-begin guarded
// The same, with every thread reaching the barrier: guard the work,
// not the barrier.
__global__ void difference(const float* in, float* out, int n) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  bool inside = i < n;
  if (inside) buffer[t] = in[i];
  __syncthreads();
  if (inside) {
    float left = t > 0 ? buffer[t - 1] : (i > 0 ? in[i - 1] : 0.0f);
    out[i] = buffer[t] - left;
  }
}
// example-end guarded

// Loads a block's 256 floats into `partial` and adds them down to 64 partial sums,
// partial[0..63], with a barrier after every step.
__device__ void sumDownTo64(float* partial, const float* in) {
  int t = threadIdx.x;
  partial[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int stride = 128; stride >= 64; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
}

// Launch 256 threads per block: out[b] is the sum of block b's 256 floats.
__global__ void blockSumVolatileTail(const float* in, float* out) {
  __shared__ float partial[256];
  sumDownTo64(partial, in);
  int t = threadIdx.x;
  // example-begin tail-volatile
  if (t < 32) {  // warp 0 alone, trusting its lanes to move in lockstep
    volatile float* v = partial;  // every v[...] is a shared-memory access
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  // example-end tail-volatile
  if (t == 0) out[blockIdx.x] = partial[0];
}

// The same sum, its tail ordered by __syncwarp().
__global__ void blockSumSyncwarpTail(const float* in, float* out) {
  __shared__ float partial[256];
  sumDownTo64(partial, in);
  int t = threadIdx.x;
  // example-begin tail-syncwarp
  if (t < 32) {
    for (int stride = 32; stride > 0; stride /= 2) {
      float other = partial[t + stride];
      __syncwarp();  // every lane has read before any lane writes...
      partial[t] += other;
      __syncwarp();  // ...and has written before any lane reads again
    }
  }
  // example-end tail-syncwarp
  if (t == 0) out[blockIdx.x] = partial[0];
}
