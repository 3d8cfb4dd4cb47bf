// Loops of constant trip count that NVVM leaves rolled and ptxas unrolls, merging loads across
// the unrolled iterations: the kernels that produced the rows of h200-shared-fusion.tsv for this
// file (CUDA 13.0, sm_90, an H200). column_wide was the second batch's `column`, with a tile sized
// to fit its larger trip counts.
#define TID threadIdx.x
#define INIT(s, n) \
  for (int i = TID; i < (n); i += blockDim.x) (s)[i] = i; \
  __syncthreads();

template <int BK, int TM>
__global__ void column(float* out) {
  __shared__ float tile_a[64 * BK];
  INIT(tile_a, 64 * BK);
  const int thread_row = TID / 8;
  float results[TM] = {0.0f};
  for (int k = 0; k < BK; ++k) {
    const float b_value = tile_a[(k * 7 + TID) % (64 * BK)];
    for (int m = 0; m < TM; ++m) results[m] += tile_a[(thread_row * TM + m) * BK + k] * b_value;
  }
  float sum = 0;
  for (int m = 0; m < TM; ++m) sum += results[m] * (m + 1);
  out[TID] = sum;
}
template __global__ void column<8, 8>(float*);
template __global__ void column<16, 8>(float*);
template __global__ void column<32, 8>(float*);
template __global__ void column<8, 4>(float*);
template __global__ void column<64, 8>(float*);

template <int BK, int TM>
__global__ void column_wide(float* out) {
  __shared__ float tile_a[32 * TM * BK / 8 + 64];
  INIT(tile_a, 32 * TM * BK / 8 + 64);
  const int thread_row = TID / 8;
  float results[TM] = {0.0f};
  for (int k = 0; k < BK; ++k) {
    const float b_value = tile_a[(k * 7 + TID) % 64];
    for (int m = 0; m < TM; ++m) results[m] += tile_a[(thread_row * TM + m) * BK + k] * b_value;
  }
  float sum = 0;
  for (int m = 0; m < TM; ++m) sum += results[m] * (m + 1);
  out[TID] = sum;
}
#define COL(bk, tm) template __global__ void column_wide<bk, tm>(float*);
COL(8, 6) COL(8, 8) COL(8, 16) COL(12, 8) COL(16, 8) COL(16, 16) COL(24, 8) COL(32, 8) COL(32, 16) COL(40, 8)
COL(48, 8) COL(64, 8) COL(128, 8) COL(16, 6) COL(32, 6) COL(16, 12) COL(32, 4) COL(64, 4)
