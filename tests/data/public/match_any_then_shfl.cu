// pattern: __match_any_sync groups lanes by key, then each group reduces with __shfl_sync(groupMask, ...): one shfl instruction runs with several disjoint member masks (CUDA Programming Guide "Warp Match Functions", histogram / hash-aggregation kernels)
// issue-18 item: 5
// run: tilecamp profile tests/data/public/match_any_then_shfl.cu --kernel groupByKey --grid 1 --block 32 --arg i32[32]=iota --arg i32[4]=zeros
// diagnostics: none
// expect: key = lane % 4; the group's leader (lowest lane) writes out[key] = sum of its lanes' values: out = {112, 120, 128, 136}; no diagnostic
__global__ void groupByKey(const int* in, int* out) {
  const int lane = threadIdx.x % 32;
  const int key = lane % 4;
  const unsigned group = __match_any_sync(0xffffffffu, key);
  const int leader = __ffs(group) - 1;
  int v = in[threadIdx.x];
  // every member walks the group mask; the leader ends with the sum of its group
  int total = v;
  for (unsigned rest = group & ~(1u << leader); rest != 0; rest &= rest - 1) {
    const int src = __ffs(rest) - 1;
    total += __shfl_sync(group, v, src);  // every group member executes this with its own mask
  }
  if (lane == leader) out[key] = total;
}
