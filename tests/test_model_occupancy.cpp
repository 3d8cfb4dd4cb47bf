// The occupancy calculator's rules for the H200 (model/occupancy.h), each against a figure the
// driver or Nsight Compute gave on an H200 (bench/model/h200/ncu_occupancy.txt), and the cost
// model's use of it.
#include <doctest/doctest.h>

#include <climits>

#include "checker/model/cost_model.h"
#include "checker/model/occupancy.h"

namespace tilecamp::model {
namespace {

KernelResources kernel(uint32_t registers, uint32_t shared = 0, uint32_t max_threads = 0) {
  return {"k", registers, shared, 0, max_threads};
}

Occupancy on_h200(const KernelResources& k, uint64_t threads, uint32_t dynamic = 0) {
  return compute_occupancy(h200_occupancy(), k, threads, dynamic);
}

TEST_CASE("64 registers a thread leave room for 4 blocks of 256 threads: half the warps (ncu's register-blocked SGEMM)") {
  const Occupancy o = on_h200(kernel(64, 4096), 256);
  CHECK(o.by_registers == 4);
  CHECK(o.by_warps == 8);
  CHECK(o.blocks_per_sm == 4);
  CHECK(o.warps_per_sm == 32);
  CHECK(o.fraction == doctest::Approx(0.5));
  CHECK(o.limited_by == "registers");
  CHECK(o.registers_per_block == 64 * 32 * 8);
}

TEST_CASE("registers are given a warp at a time in steps of 256, and warps by sub-partition") {
  // 33 registers: 1056 a warp, rounded up to 1280; 16384 / 1280 = 12 warps a sub-partition.
  const Occupancy o = on_h200(kernel(33), 128);
  CHECK(o.by_registers == 48 / 4);
  // 40 registers: 1280 a warp, 12 warps a sub-partition, 48 an SM: one block of 32 warps.
  CHECK(on_h200(kernel(40), 1024).by_registers == 1);
  // 72 registers: 2304 a warp, 7 a sub-partition, 28 an SM: a block of 1024 threads cannot launch.
  const Occupancy too_many = on_h200(kernel(72), 1024);
  CHECK(too_many.blocks_per_sm == 0);
  CHECK(too_many.limited_by == "registers");
}

TEST_CASE("without registers or shared memory to spare, warps and the 32 block slots decide") {
  CHECK(on_h200(kernel(16), 1024).blocks_per_sm == 2);  // ncu's 1-element copy: warps 2
  CHECK(on_h200(kernel(16), 1024).limited_by == "warps");
  const Occupancy small = on_h200(kernel(16), 32);
  CHECK(small.blocks_per_sm == 32);
  CHECK(small.warps_per_sm == 32);
  CHECK(small.limited_by == "blocks");
  CHECK(on_h200(kernel(32), 256).limited_by == "warps, registers");
}

TEST_CASE("a block's shared memory counts its static and dynamic bytes and the 1 KB reserve, in steps of 128 bytes") {
  const Occupancy tiled = on_h200(kernel(32, 8192), 1024);  // the tiled SGEMM: 9216 B a block
  CHECK(tiled.shared_per_block == 9216);
  CHECK(tiled.by_shared == 233472 / 9216);
  CHECK(tiled.blocks_per_sm == 2);
  // 48 KB of static shared memory and 100 bytes dynamic: 50276, given 50304; 4 fit in 228 KB.
  const Occupancy big = on_h200(kernel(16, 49152), 128, 100);
  CHECK(big.shared_per_block == 50304);
  CHECK(big.by_shared == 4);
  CHECK(big.limited_by == "shared memory");
  // More than 227 KB a block fits nowhere.
  CHECK(on_h200(kernel(16, 0), 128, 232449).blocks_per_sm == 0);
}

TEST_CASE("a block larger than __launch_bounds__ or than 1024 threads cannot launch") {
  CHECK(on_h200(kernel(16, 0, 256), 512).blocks_per_sm == 0);
  CHECK(on_h200(kernel(16, 0, 256), 256).blocks_per_sm == 8);
  CHECK(on_h200(kernel(16), 2048).blocks_per_sm == 0);
}

TEST_CASE("the cost model keeps fewer blocks resident when the kernel's registers say so, and waits longer") {
  CostInput input;
  input.grid = {4096, 1, 1};
  input.block = {256, 1, 1};
  input.totals.global_ld_requests = 4096 * 8;
  input.totals.global_ld_sectors = 4096 * 8 * 4;
  input.totals.global_ld_sector_pairs = 4096 * 8 * 2;
  input.totals.global_ld_unique_sectors = 4096 * 8 * 4;
  input.totals.global_ld_rounds = 4096 * 8;
  input.totals.loading_warps = 4096 * 8;
  input.totals.warp_instructions = 4096 * 8 * 10;
  const GpuSpec gpu = *find_gpu("h200");
  const CostEstimate unknown = model_cost(gpu, input);
  input.resources = kernel(32);  // 8 blocks of 256 threads: as many as the warps allow
  CHECK(model_cost(gpu, input).latency_s == doctest::Approx(unknown.latency_s));
  input.resources = kernel(128);  // 2 blocks: a quarter of the warps
  CHECK(model_cost(gpu, input).latency_s == doctest::Approx(unknown.latency_s * 4));
}

}  // namespace
}  // namespace tilecamp::model
