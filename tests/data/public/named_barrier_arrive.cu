// pattern: producer/consumer warps on a named barrier: the producer warp signals with `bar.arrive 1, 64` and runs on, the consumer warp waits with `bar.sync 1, 64` (inline PTX, as in CUTLASS's NamedBarrier and warp-specialized GEMMs)
// issue-18 item: 3
// run: tilecamp profile tests/data/public/named_barrier_arrive.cu --kernel producerConsumer --grid 1 --block 64 --arg f32[32]=iota --arg f32[32]=zeros
// diagnostics: none
// expect: out[i] == 3*in[31-i]; no diagnostic
__global__ void producerConsumer(const float* in, float* out) {
  __shared__ float slot[32];
  const int lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {  // producer warp
    slot[lane] = 3.0f * in[lane];
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {                 // consumer warp
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[lane] = slot[31 - lane];
  }
}
