// pattern: a reduction templated on element type and block size, reduce4<T, blockSize>, launched by its source spelling `reduce4<float, 256>` (cuda-samples reduction: reduce0..reduce6 templates)
// issue-18 item: 4
// run: tilecamp profile tests/data/public/template_reduce4.cu --kernel "reduce4<float, 256>" --grid 2 --block 256 --arg f32[1024]=iota --arg f32[2]=zeros
// diagnostics: none
// expect: the name resolves (today only `reduce4<float, 256u>` or `reduce4` do); out[b] == sum of in[512b .. 512b+511]: out = {130816, 392960}; no diagnostic
template <class T, unsigned int blockSize>
__global__ void reduce4(const T* in, T* out) {
  __shared__ T s[blockSize];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  s[tid] = in[i] + in[i + blockSize];  // first add during load
  __syncthreads();
  for (unsigned int stride = blockSize / 2; stride > 32; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    T v = s[tid] + s[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) out[blockIdx.x] = v;
  }
}

template __global__ void reduce4<float, 256>(const float*, float*);
template __global__ void reduce4<int, 256>(const int*, int*);
