#include "checker/viz/sgemm_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "checker/emu/access_observer.h"
#include "checker/emu/device_memory.h"
#include "checker/ptx/kernel_lookup.h"
#include "checker/ptx/parser.h"

namespace tilecamp::viz {
namespace {

constexpr const char* k_file = "tilecamp-viz-sgemm.cu";

// The source notes' tiled SGEMM, as the visualizer shows it, then the naive one it is compared with.
constexpr const char* k_source = R"(template <int TILE>
__global__ void sgemmTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];  // no padding needed
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    tileA[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    tileB[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();  // both tiles complete
    for (int k = 0; k < TILE; ++k)
      sum += tileA[ty][k] * tileB[k][tx];
    __syncthreads();  // all reads done before the next tiles overwrite
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

__global__ void sgemmNaive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}
)";

// Whole numbers 1 to 9 from a seed, the same on every machine (std distributions are not).
std::vector<float> draw_matrix(size_t count, uint64_t& state) {
  std::vector<float> values(count);
  for (float& value : values) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    value = static_cast<float>(1 + (z ^ (z >> 31)) % 9);
  }
  return values;
}

std::vector<uint8_t> bytes_of(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

void add_line(std::vector<int>& lines, int line) {
  if (line > 0 && std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
}

// One launch of a kernel of the module on A, B and a zeroed C.
class SgemmLaunch {
 public:
  SgemmLaunch(const ptx::Module& module, const SgemmTrace& trace) : m_emulator(module, m_memory), m_size(trace.size) {
    m_a = m_memory.allocate("A", bytes_of(trace.a));
    m_b = m_memory.allocate("B", bytes_of(trace.b));
    m_c = m_memory.allocate("C", std::vector<uint8_t>(size_t(m_size.m) * m_size.n * sizeof(float), 0));
  }
  uint64_t a() const { return m_a; }
  uint64_t b() const { return m_b; }

  Expected<LaunchResult> run(const std::string& kernel, Dim3 block, emu::AccessObserver& observer) {
    LaunchConfig config;
    config.block = block;
    config.grid = {(uint32_t(m_size.n) + block.x - 1) / block.x, (uint32_t(m_size.m) + block.y - 1) / block.y, 1};
    config.observer = &observer;
    std::vector<std::vector<uint8_t>> parameters;
    for (uint64_t pointer : {m_a, m_b, m_c}) {
      parameters.emplace_back(8);
      std::memcpy(parameters.back().data(), &pointer, 8);
    }
    for (int value : {m_size.m, m_size.n, m_size.k}) {
      parameters.emplace_back(4);
      std::memcpy(parameters.back().data(), &value, 4);
    }
    TC_TRY_ASSIGN(LaunchResult result, m_emulator.launch(kernel, config, parameters));
    if (result.has_error()) return make_error("the kernel failed on the emulator: " + result.diagnostics.front().message);
    return result;
  }

  std::vector<float> c() {
    const std::vector<uint8_t>& bytes = m_memory.find(m_c, 1)->bytes;
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }

 private:
  emu::DeviceMemory m_memory;
  emu::Emulator m_emulator;
  SgemmSize m_size;
  uint64_t m_a = 0, m_b = 0, m_c = 0;
};

// Elements the threads of a kernel read from global memory.
class GlobalReadCounter : public emu::AccessObserver {
 public:
  void on_access(const emu::ObservedAccess& access) override {
    if (access.space == ptx::Space::Global && !access.is_store) {
      reads += uint64_t(std::popcount(access.lanes)) * (access.bytes / sizeof(float));
    }
  }
  uint64_t reads = 0;
};

// Files the tiled kernel's accesses into blocks and tile steps: a block's barriers cut its run
// into load, compute, load, compute... and finally the store of C.
class SgemmRecorder : public emu::AccessObserver {
 public:
  SgemmRecorder(SgemmTrace& trace, const ptx::Module& module, uint64_t a, uint64_t b)
      : m_trace(trace), m_tile(trace.size.tile), m_a(a), m_b(b) {
    for (const ptx::Symbol& symbol : module.symbols) {
      if (symbol.space != ptx::Space::Shared) continue;
      const std::string name = ptx::readable_variable_name(symbol.name);
      if (name == "tileA") m_tile_a = symbol.offset;
      if (name == "tileB") m_tile_b = symbol.offset;
    }
  }

  void on_access(const emu::ObservedAccess& access) override {
    BlockRun& block = block_of(access.block);
    const int step = m_segment / 2;
    const bool loading = m_segment % 2 == 0 && step < m_trace.steps();
    const bool storing = m_segment == 2 * m_trace.steps();
    const bool global = access.space == ptx::Space::Global;
    std::vector<int>* lines = loading && global != access.is_store             ? &m_trace.load_lines  // A, B to tiles
                              : m_segment % 2 == 1 && !global && !access.is_store ? &m_trace.compute_lines
                              : storing && global && access.is_store              ? &m_trace.store_lines
                                                                                  : nullptr;
    if (lines == nullptr) {
      unexpected(access.instruction.location.line);
      return;
    }
    add_line(*lines, access.instruction.location.line);
    for (int lane = 0; lane < emu::k_warp_size; ++lane) {
      if (!(access.lanes >> lane & 1u)) continue;
      const size_t thread = size_t{access.warp} * emu::k_warp_size + size_t(lane);
      for (uint32_t at = 0; at < access.bytes; at += sizeof(float)) {
        float value;
        std::memcpy(&value, access.data[lane] + at, sizeof value);
        const uint64_t address = access.addresses[lane] + at;
        if (storing) block.stored.at(thread) = value;
        else if (global) record_load(block.steps.at(size_t(step)), thread, address);
        else if (access.is_store) record_tile_store(block.steps.at(size_t(step)), thread, address, value);
        else record_product(block.steps.at(size_t(step)), thread, address, value);
      }
    }
  }

  void on_barrier(const emu::ObservedBarrier& barrier) override {
    block_of(barrier.block);
    ++m_segment;
    add_line(m_trace.barrier_lines, barrier.instruction.location.line);
  }

  const std::string& error() const { return m_error; }

 private:
  BlockRun& block_of(const Dim3& index) {
    if (m_trace.blocks.empty() || m_trace.blocks.back().bx != int(index.x) || m_trace.blocks.back().by != int(index.y)) {
      BlockRun block{int(index.x), int(index.y), {}, {}};
      TileStep step;
      step.threads.assign(size_t(m_trace.threads_per_block()), {});
      for (ThreadStep& thread : step.threads) thread.products.assign(size_t(m_tile), {0.0f, 0.0f});
      step.tile_a.assign(size_t(m_trace.threads_per_block()), 0.0f);
      step.tile_b = step.tile_a;
      step.shared_reads.assign(size_t(m_tile), 0);
      block.steps.assign(size_t(m_trace.steps()), step);
      block.stored.assign(size_t(m_trace.threads_per_block()), std::nullopt);
      m_trace.blocks.push_back(std::move(block));
      m_segment = 0;
    }
    return m_trace.blocks.back();
  }

  void record_load(TileStep& step, size_t thread, uint64_t address) {
    ++m_trace.tiled_global_reads;
    ++step.global_reads;
    const SgemmSize& size = m_trace.size;
    const bool from_a = address >= m_a && address < m_a + uint64_t(size.m) * size.k * sizeof(float);
    ElementCopy& copy = from_a ? step.threads.at(thread).a : step.threads.at(thread).b;
    copy.offset = address - (from_a ? m_a : m_b);
    const int index = int(copy.offset / sizeof(float));
    const int columns = from_a ? size.k : size.n;
    copy.row = index / columns;
    copy.col = index % columns;
  }

  void record_tile_store(TileStep& step, size_t thread, uint64_t address, float value) {
    const bool to_a = in_tile_a(address);
    const size_t slot = size_t(address - (to_a ? m_tile_a : m_tile_b)) / sizeof(float);
    (to_a ? step.tile_a : step.tile_b).at(slot) = value;
    (to_a ? step.threads.at(thread).a : step.threads.at(thread).b).value = value;
  }

  void record_product(TileStep& step, size_t thread, uint64_t address, float value) {
    ++m_trace.tiled_shared_reads;
    const bool from_a = in_tile_a(address);
    const size_t slot = size_t(address - (from_a ? m_tile_a : m_tile_b)) / sizeof(float);
    const size_t k = from_a ? slot % size_t(m_tile) : slot / size_t(m_tile);  // tileA[ty][k], tileB[k][tx]
    (from_a ? step.threads.at(thread).products.at(k).first : step.threads.at(thread).products.at(k).second) = value;
    ++step.shared_reads.at(k);
  }

  bool in_tile_a(uint64_t address) const {  // an address below tileA wraps to a huge distance
    return address - m_tile_a < uint64_t(m_trace.threads_per_block()) * sizeof(float);
  }

  void unexpected(int line) {
    if (m_error.empty()) {
      m_error = fmt::format("line {} accessed memory outside the load, compute and store phases the visualizer draws", line);
    }
  }

  SgemmTrace& m_trace;
  int m_tile;
  uint64_t m_a, m_b;
  uint64_t m_tile_a = 0, m_tile_b = 0;
  int m_segment = 0;
  std::string m_error;
};

}  // namespace

Status check_sgemm_size(const SgemmSize& size) {
  auto within = [](const char* name, int value, int low, int high) -> Status {
    if (value < low || value > high) return make_error(fmt::format("--{} {}: choose {} to {}", name, value, low, high));
    return ok();
  };
  TC_TRY(within("m", size.m, 1, 32));
  TC_TRY(within("n", size.n, 1, 32));
  TC_TRY(within("k", size.k, 1, 64));
  TC_TRY(within("tile", size.tile, 1, 16));
  return ok();
}

Expected<SgemmTrace> trace_sgemm(Compiler& compiler, const SgemmSize& size) {
  TC_TRY(check_sgemm_size(size));
  SgemmTrace trace;
  trace.size = size;
  trace.kernel = fmt::format("sgemmTiled<{}>", size.tile);
  trace.source = k_source;
  trace.file = k_file;
  uint64_t state = size.seed;
  trace.a = draw_matrix(size_t(size.m) * size.k, state);
  trace.b = draw_matrix(size_t(size.k) * size.n, state);

  CompileOptions options;
  options.name_expressions = {trace.kernel};
  TC_TRY_ASSIGN(CompileResult compiled, compiler.compile({k_file, k_source}, options));
  if (!compiled.ok) return make_error("the visualizer's SGEMM does not compile:\n" + compiled.log);
  TC_TRY_ASSIGN(ptx::Module module, ptx::parse_module(compiled.ptx));
  TC_TRY_ASSIGN(const std::string tiled_name, ptx::resolve_kernel_name(module, trace.kernel));
  TC_TRY_ASSIGN(const std::string naive_name, ptx::resolve_kernel_name(module, "sgemmNaive"));
  const uint32_t tile = uint32_t(size.tile);

  SgemmLaunch tiled(module, trace);
  SgemmRecorder recorder(trace, module, tiled.a(), tiled.b());
  TC_TRY_ASSIGN(LaunchResult tiled_result, tiled.run(tiled_name, {tile, tile, 1}, recorder));
  if (!recorder.error().empty()) return make_error(recorder.error());
  trace.tiled = tiled_result.totals;

  SgemmLaunch naive(module, trace);
  GlobalReadCounter naive_reads;
  TC_TRY_ASSIGN(LaunchResult naive_result, naive.run(naive_name, {tile, tile, 1}, naive_reads));
  trace.naive = naive_result.totals;
  trace.naive_global_reads = naive_reads.reads;
  if (tiled.c() != naive.c()) return make_error("the tiled and the naive SGEMM disagree on C");
  return trace;
}

}  // namespace tilecamp::viz
