#!/bin/bash
# Nsight Compute's shared-memory counts for ldmatrix and WMMA's loads and stores on a GPU: every
# case of tests/data/h200-tensor-wavefronts.cu (one warp, one instruction under test) read with
# ncu, one row per launch. tests/data/h200-tensor-wavefronts.tsv came from an H200 by:
#   bench/tensor_wavefronts_gpu.sh OUT_DIR      (on the GPU machine, from the repository root)
# It writes OUT_DIR/tensor_wavefronts.tsv (the table), ncu.csv (ncu's raw output), metrics.txt
# (the shared-memory metrics this ncu knows) and sass.txt (what ptxas made of each kernel).
set -eu
out=${1:?usage: bench/tensor_wavefronts_gpu.sh OUT_DIR}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
nvcc -arch=sm_90 -O2 -I. -o "$out/tensor_wavefronts" bench/tensor_wavefronts_gpu.cu
cuobjdump -sass "$out/tensor_wavefronts" | grep -E 'Function|LDSM|LDS|STS|HMMA' > "$out/sass.txt" || true
# Every shared-memory wavefront, bank-conflict and instruction metric this ncu has for the chip.
ncu --query-metrics --chip gh100 2>/dev/null | awk '{print $1}' |
  grep -E '^(l1tex__data_pipe_lsu_wavefronts_mem_shared|l1tex__data_bank_conflicts_pipe_lsu_mem_shared|smsp__sass_inst_executed_op_(shared|ldsm|ld|st)|smsp__inst_executed_op_(shared|ldsm)|l1tex__t_requests_pipe_lsu_mem_shared|l1tex__data_bank_(reads|writes))' |
  sort -u > "$out/metrics.txt"
metrics=$(sed 's/$/.sum/' "$out/metrics.txt" | paste -sd, -)
"$out/tensor_wavefronts" > "$out/cases.txt"
ncu --clock-control none --csv --metrics "$metrics" "$out/tensor_wavefronts" > "$out/ncu.csv" 2> "$out/ncu.log"
python3 - "$out" <<'PY'
# The table tests/data/h200-tensor-wavefronts.tsv holds: per launch, the SASS instructions and the
# shared-memory wavefronts and bank conflicts of loads (ldmatrix's included) and stores.
import csv, sys
out = sys.argv[1]
cases = [line.rstrip("\n").split("\t")[1:4] for line in open(f"{out}/cases.txt") if line.startswith("case\t")]
rows = list(csv.reader(line for line in open(f"{out}/ncu.csv") if line.startswith('"')))
at = {name: i for i, name in enumerate(rows[0])}
values = {}
for row in rows[1:]:
    values.setdefault(int(row[at["ID"]]), {})[row[at["Metric Name"]]] = row[at["Metric Value"]].replace(",", "")
columns = ["smsp__sass_inst_executed_op_ldsm.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
           "smsp__sass_inst_executed_op_shared_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]
with open(f"{out}/tensor_wavefronts.tsv", "w") as f:
    f.write("kernel\targ1\targ2\tldsm\tlds\tld_wf\tld_bc\tsts\tst_wf\tst_bc\n")
    for launch, case in enumerate(cases):
        f.write("\t".join(case + [values.get(launch, {}).get(m, "") for m in columns]) + "\n")
print(open(f"{out}/tensor_wavefronts.tsv").read())
PY
