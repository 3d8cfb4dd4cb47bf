// Lesson 7's kernels (lessons/snippets/07-warp-primitives.cu, included as they are) timed on a GPU
// with CUDA events: the block sum as a shared-memory tree and with shuffles, the grid sum, and
// stream compaction with ballot and with atomics. Prints one line per kernel (median of 21 runs
// after a warm-up, on 2^26 floats: 256 MiB, far more than the L2); then runs the two broken
// kernels the lesson names on a partial last block and says whether their sums came out right.
//   nvcc -O3 -arch=sm_90 -o warp_reductions bench/warp_reductions_gpu.cu && ./warp_reductions
//   ./warp_reductions wrong    # only the broken kernels, small: for compute-sanitizer
// bench/warp_reductions_gpu.sh builds and runs it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "../lessons/snippets/07-warp-primitives.cu"

#define CHECK(call)                                                                                  \
  do {                                                                                               \
    cudaError_t status_ = (call);                                                                    \
    if (status_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(1);                                                                                  \
    }                                                                                                \
  } while (0)

// Median time in ms of `launch` over 21 runs after one warm-up; `before` runs outside the timing.
template <typename Launch, typename Before>
float median_ms(Launch launch, Before before) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int run = 0; run < 22; ++run) {
    before();
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (run > 0) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return times[times.size() / 2];
}

void report(const char* name, float ms, double bytes) {
  std::printf("%-28s %8.3f ms %7.0f GB/s\n", name, ms, bytes / (ms * 1e-3) / 1e9);
}

__global__ void copyRestrict(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// The block compaction of exercise 07-compact, with one atomicAdd per block on *total for where
// the block's run goes: a list of every positive element, 8 times fewer atomics than one per warp.
__global__ void compactAtomicBlock(const float* in, float* out, int* total, int n) {
  __shared__ int warp_counts[BLOCK / 32];
  __shared__ int first;
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  float x = i < n ? in[i] : 0.0f;
  bool keep = x > 0.0f;
  unsigned kept = __ballot_sync(FULL_MASK, keep);
  if (lane == 0) warp_counts[warp] = __popc(kept);
  __syncthreads();
  int before = 0, count = 0;
  for (int w = 0; w < BLOCK / 32; ++w) {
    if (w < warp) before += warp_counts[w];
    count += warp_counts[w];
  }
  if (t == 0) first = atomicAdd(total, count);
  __syncthreads();
  if (keep) out[first + before + __popc(kept & ((1u << lane) - 1))] = x;
}

// The broken block sums on n = 1000 (4 blocks, the last with 232 threads): how many of the 4 sums
// differ from the tree's.
void run_wrong() {
  const int n = 1000, blocks = 4;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 1.0f;
  float *in, *out;
  CHECK(cudaMalloc(&in, n * 4));
  CHECK(cudaMalloc(&out, blocks * 4));
  CHECK(cudaMemcpy(in, host.data(), n * 4, cudaMemcpyHostToDevice));
  struct Wrong { const char* name; void (*kernel)(const float*, float*, int); };
  const Wrong wrong[] = {{"blockSumEarlyReturn", blockSumEarlyReturn},
                         {"blockSumShuffleInBranch", blockSumShuffleInBranch},
                         {"blockSumNoBarrier", blockSumNoBarrier},
                         {"blockSumShuffle (right)", blockSumShuffle}};
  for (const Wrong& w : wrong) {
    CHECK(cudaMemset(out, 0xff, blocks * 4));
    w.kernel<<<blocks, BLOCK>>>(in, out, n);
    CHECK(cudaDeviceSynchronize());
    float sums[blocks];
    CHECK(cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost));
    std::printf("%-26s sums %g %g %g %g (expected 256 256 256 232)\n", w.name, sums[0], sums[1], sums[2], sums[3]);
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "wrong") == 0) {
    run_wrong();
    return 0;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, n = 2^26 floats, %d threads per block\n", prop.name, BLOCK);
  const int n = 1 << 26, blocks = n / BLOCK;
  std::vector<float> host(n);
  std::mt19937 random(1);
  std::uniform_real_distribution<float> values(-1.0f, 1.0f);
  for (float& v : host) v = values(random);
  float *in, *out, *total_f;
  int *counts, *total;
  CHECK(cudaMalloc(&in, size_t{4} * n));
  CHECK(cudaMalloc(&out, size_t{4} * n));
  CHECK(cudaMalloc(&counts, size_t{4} * (n / 32)));
  CHECK(cudaMalloc(&total, 4));
  CHECK(cudaMalloc(&total_f, 4));
  CHECK(cudaMemcpy(in, host.data(), size_t{4} * n, cudaMemcpyHostToDevice));
  const double read = 4.0 * n;
  auto nothing = [] {};

  report("copy (__restrict__)", median_ms([&] { copyRestrict<<<blocks, BLOCK>>>(in, out, n); }, nothing), 2 * read);
  std::vector<float> tree(blocks), sums(blocks);
  report("blockSumTree", median_ms([&] { blockSumTree<<<blocks, BLOCK>>>(in, out, n); }, nothing), read);
  CHECK(cudaMemcpy(tree.data(), out, blocks * 4, cudaMemcpyDeviceToHost));
  struct Sum { const char* name; void (*kernel)(const float*, float*, int); };
  for (const Sum& s : {Sum{"blockSumShuffle", blockSumShuffle}, Sum{"blockSumMasked", blockSumMasked},
                       Sum{"blockSumTiles", blockSumTiles}}) {
    report(s.name, median_ms([&] { s.kernel<<<blocks, BLOCK>>>(in, out, n); }, nothing), read);
    CHECK(cudaMemcpy(sums.data(), out, blocks * 4, cudaMemcpyDeviceToHost));
    int differ = 0;
    for (int b = 0; b < blocks; ++b) differ += std::fabs(sums[b] - tree[b]) > 1e-4f * (1 + std::fabs(tree[b]));
    if (differ) std::printf("  %d block sums differ from the tree's\n", differ);
  }
  report("gridSumAtomic", median_ms([&] { gridSumAtomic<<<blocks, BLOCK>>>(in, total_f, n); },
                                    [&] { CHECK(cudaMemset(total_f, 0, 4)); }), read);
  double expected = 0;
  for (float v : host) expected += v;
  float got = 0;
  CHECK(cudaMemcpy(&got, total_f, 4, cudaMemcpyDeviceToHost));
  std::printf("  grid sum %.3f, in double on the host %.3f\n", got, expected);

  // The second way: block sums, then block sums of those, until one is left (4 launches).
  float* partial;
  CHECK(cudaMalloc(&partial, size_t{4} * blocks));
  auto two_pass = [&] {  // returns where the sum is
    blockSumShuffle<<<blocks, BLOCK>>>(in, partial, n);
    int length = blocks;
    float *from = partial, *to = out;
    while (length > 1) {
      const int next = (length + BLOCK - 1) / BLOCK;
      blockSumShuffle<<<next, BLOCK>>>(from, to, length);
      std::swap(from, to);
      length = next;
    }
    return from;
  };
  const float two_pass_ms = median_ms([&] { two_pass(); }, nothing);
  CHECK(cudaMemcpy(&got, two_pass(), 4, cudaMemcpyDeviceToHost));
  std::printf("  grid sum %.3f\n", got);
  report("gridSum, passes to 1 value", two_pass_ms, read);
  CHECK(cudaFree(partial));

  long long positives = 0;
  for (float v : host) positives += v > 0.0f;
  const double compact_bytes = read + 4.0 * positives;  // every input read, every keeper written
  report("compactWarps", median_ms([&] { compactWarps<<<blocks, BLOCK>>>(in, out, counts, n); }, nothing),
         compact_bytes + 4.0 * (n / 32));
  struct Compact { const char* name; void (*kernel)(const float*, float*, int*, int); };
  for (const Compact& c : {Compact{"compactAtomicEach", compactAtomicEach}, Compact{"compactAtomicWarp", compactAtomicWarp},
                          Compact{"compactAtomicBlock", compactAtomicBlock}}) {
    report(c.name, median_ms([&] { c.kernel<<<blocks, BLOCK>>>(in, out, total, n); },
                             [&] { CHECK(cudaMemset(total, 0, 4)); }), compact_bytes);
    int kept = 0;
    CHECK(cudaMemcpy(&kept, total, 4, cudaMemcpyDeviceToHost));
    if (kept != positives) std::printf("  kept %d of %lld positives\n", kept, positives);
  }
  std::printf("positives: %lld of %d\n", positives, n);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(counts));
  CHECK(cudaFree(total));
  CHECK(cudaFree(total_f));
  return 0;
}
