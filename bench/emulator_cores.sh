#!/bin/bash
# The emulator's throughput on two cores, its blocks on one host thread and then on two: what
# docs/emulator.md's "Speed" table shows. Pins the run to CPUs 0 and 1 (taskset) so that a larger
# machine measures like the 2-core development machine. From the repository root:
#   bench/emulator_cores.sh BENCH_BINARY [REPEATS]
# (BENCH_BINARY: build/bench/tilecamp_bench, or a portable build's carried to another machine.)
set -eu
bench=$1 repeats=${2:-3}
export TILECAMP_SOURCE_DIR=$PWD
for threads in 1 2; do
  echo "== 2 cores (taskset -c 0,1), TILECAMP_EMULATOR_THREADS=$threads"
  TILECAMP_EMULATOR_THREADS=$threads taskset -c 0,1 "$bench" "$repeats"
done
