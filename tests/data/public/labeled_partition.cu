// pattern: cg::labeled_partition(tile32, label) splits a warp into groups by label, then each group reduces with cg::reduce (CG docs "labeled_partition", sparse / segmented reductions)
// issue-18 item: 1, 5
// run: tilecamp profile tests/data/public/labeled_partition.cu --kernel sumByLabel --grid 1 --block 32 --arg f32[32]=iota --arg f32[3]=zeros
// diagnostics: none
// expect: label = lane % 3; out[label] == sum of lanes with that label: out = {165, 176, 155}; no diagnostic
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void sumByLabel(const float* in, float* out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const int label = warp.thread_rank() % 3;
  cg::coalesced_group group = cg::labeled_partition(warp, label);
  const float total = cg::reduce(group, in[threadIdx.x], cg::plus<float>());  // float: shuffles, not redux
  if (group.thread_rank() == 0) out[label] = total;
}
