#!/bin/bash
# The emulator's throughput on two cores, its blocks on one host thread and then on two: what
# docs/emulator.md's "Speed" table shows. Pins the run to two CPUs of different physical cores
# (taskset; two hyperthreads of one core would share it) so that a larger machine measures like
# the 2-core development machine. From the repository root:
#   bench/emulator_cores.sh BENCH_BINARY [REPEATS]
# (BENCH_BINARY: build/bench/tilecamp_bench, or a portable build's carried to another machine.)
set -eu
bench=$1 repeats=${2:-3}
export TILECAMP_SOURCE_DIR=$PWD
cpus=$(python3 - <<'PICK'
import os
def cpu_list(text):
    cpus = set()
    for part in text.strip().split(","):
        low, _, high = part.partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus
allowed = sorted(os.sched_getaffinity(0))
def siblings(cpu):
    try:
        return cpu_list(open(f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list").read())
    except OSError:
        return {cpu}
first = allowed[0]
others = [c for c in allowed if c not in siblings(first)] or allowed[1:]
print(f"{first},{others[0]}")
PICK
)
for threads in 1 2; do
  echo "== CPUs $cpus (taskset; different physical cores), TILECAMP_EMULATOR_THREADS=$threads"
  TILECAMP_EMULATOR_THREADS=$threads taskset -c "$cpus" "$bench" "$repeats"
done
