#!/usr/bin/env python3
"""Compares the emulator's counters with Nsight Compute's on the kernels of kernels.cu.

  On the GPU machine:  bench/ncu/run_ncu.sh OUT_DIR          (writes OUT_DIR/ncu.csv)
  Here:                bench/ncu/compare.py OUT_DIR/ncu.csv [path/to/tilecamp]

Prints one row per kernel and metric: the hardware figure, the emulator's, and their ratio.
"""
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
W = H = 1024
N = 256
BIG = 1 << 20

# (kernel, grid, block, args) in host.cu's launch order.
CASES = [
    ("transposeNaive", f"{W//32},{H//32}", "32,32", [f"f32[{W*H}]=iota", f"f32[{W*H}]=zeros", f"i32:{W}", f"i32:{H}"]),
    ("transposeTiled", f"{W//32},{H//32}", "32,32", [f"f32[{W*H}]=iota", f"f32[{W*H}]=zeros", f"i32:{W}", f"i32:{H}"]),
    ("transposePadded", f"{W//32},{H//32}", "32,32", [f"f32[{W*H}]=iota", f"f32[{W*H}]=zeros", f"i32:{W}", f"i32:{H}"]),
    ("sgemmNaive", f"{N//16},{N//16}", "16,16", [f"f32[{N*N}]", f"f32[{N*N}]", f"f32[{N*N}]=zeros", f"i32:{N}"]),
    ("sgemmTiled<16>", f"{N//16},{N//16}", "16,16", [f"f32[{N*N}]", f"f32[{N*N}]", f"f32[{N*N}]=zeros", f"i32:{N}"]),
    ("sgemmColumn8", f"{N//64},{N//64}", "512", [f"f32[{N*N}]", f"f32[{N*N}]", f"f32[{N*N}]=zeros", f"i32:{N}"]),
    ("reduceSum", "128", "256", [f"f32[{BIG}]", "f32[1]=zeros", f"i32:{BIG}"]),
    ("stencil1d", f"{BIG//256}", "256", [f"f32[{BIG}]", f"f32[{BIG}]=zeros", f"i32:{BIG}"]),
    ("histogram256", "64", "256", [f"u32[{BIG}]=iota", "u32[256]=zeros", f"i32:{BIG}"]),
    ("vectorAdd4", f"{BIG//4//256}", "256", [f"f32[{BIG}]", f"f32[{BIG}]", f"f32[{BIG}]=zeros", f"i32:{BIG//4}"]),
    ("constWeights", "1", "32", [f"f32[{W*H}]=zeros"]),
    ("cpAsyncStage", "1", "32", [f"f32[{W*H}]=iota", f"f32[{W*H}]=zeros"]),
    ("sharedAtomics", "1", "32", [f"f32[{W*H}]=zeros"]),
    ("globalAtomicRead", "1", "32", [f"f32[{W*H}]=iota", f"f32[{W*H}]=zeros"]),
]

METRICS = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "global_ld_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "global_ld_sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "global_st_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "global_st_sectors",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "shared_ld_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "shared_ld_bank_conflicts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "shared_st_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "shared_st_bank_conflicts",
    "smsp__sass_inst_executed_op_shared_ld.sum": "shared_ld_requests",
    "smsp__sass_inst_executed_op_shared_st.sum": "shared_st_requests",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum": "global_atom_requests",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum": "global_red_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum": "global_atom_sectors",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum": "global_red_sectors",
    # cp.async (LDGSTS): tilecamp counts it as a global load and a shared store
    "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum": "global_ldgsts_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum": "global_ldgsts_sectors",
    "smsp__sass_inst_executed_op_ldgsts.sum": "ldgsts_instructions",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": "shared_wavefronts_all",
    # shared atomics
    "smsp__sass_inst_executed_op_shared_atom.sum": "shared_atom_requests",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": "shared_atom_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum": "shared_atom_bank_conflicts",
    # constant loads
    "idc__requests.sum": "const_idc_requests",
    "smsp__sass_inst_executed_op_ldc.sum": "const_ld_instructions",
}

# The ncu names whose figure adds to another's before the comparison (tilecamp counts them together).
ADDED_TO = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum": "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum": "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
}
# Hardware-only figures, printed for the record (tilecamp has no counter of that name).
RECORDED = {"global_red_requests", "global_red_sectors", "global_ldgsts_requests", "global_ldgsts_sectors", "ldgsts_instructions",
            "shared_wavefronts_all", "const_idc_requests", "const_ld_instructions"}


def read_ncu(path):
    """{launch index: {metric: value}} in launch order."""
    kernels = {}
    with open(path, newline="") as handle:
        rows = [line for line in handle if line.startswith('"')]
    for row in csv.DictReader(rows):
        index = int(row["ID"])
        value = row["Metric Value"].replace(",", "")
        kernels.setdefault(index, {"name": row["Kernel Name"]})[row["Metric Name"]] = float(value or 0)
    return [kernels[i] for i in sorted(kernels)]


def emulate(tilecamp, kernel, grid, block, args):
    command = [tilecamp, "profile", os.path.join(HERE, "kernels.cu"), "--kernel", kernel, "--grid", grid,
               "--block", block, "--json"] + [a for arg in args for a in ("--arg", arg)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed:\n{result.stderr}")
    return json.loads(result.stdout)["totals"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    hardware = read_ncu(sys.argv[1])
    tilecamp = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "../../build/runner/tilecamp")
    print(f"{'kernel':<16} {'metric':<26} {'H200 (ncu)':>12} {'emulator':>12} {'ratio':>7}")
    worst = 0.0
    for (kernel, grid, block, args), measured in zip(CASES, hardware):
        totals = emulate(tilecamp, kernel, grid, block, args)
        for metric, name in METRICS.items():
            if metric not in measured:
                continue
            hw = measured[metric] + sum(measured.get(extra, 0) for extra, into in ADDED_TO.items() if into == metric)
            if name in RECORDED:
                if measured[metric]:
                    print(f"{kernel:<16} {name:<26} {measured[metric]:>12.0f} {'(H200 only)':>12}")
                continue
            emulated = totals.get(name, 0)
            if hw == 0 and emulated == 0:
                continue
            ratio = emulated / hw if hw else float("inf")
            worst = max(worst, abs(ratio - 1.0))
            flag = "" if abs(ratio - 1.0) < 0.02 else "  <--"
            print(f"{kernel:<16} {name:<26} {hw:>12.0f} {emulated:>12.0f} {ratio:>7.3f}{flag}")
    print(f"largest relative difference: {worst:.1%}")


if __name__ == "__main__":
    main()
