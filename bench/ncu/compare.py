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
}


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
        totals["global_red_requests"] = 0
        for metric, name in METRICS.items():
            if metric not in measured:
                continue
            hw = measured[metric]
            emulated = totals.get(name, 0)
            if name == "global_atom_requests":  # tilecamp counts atom and red together
                hw += measured.get("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", 0)
            if name == "global_red_requests" or (hw == 0 and emulated == 0):
                continue
            ratio = emulated / hw if hw else float("inf")
            worst = max(worst, abs(ratio - 1.0))
            flag = "" if abs(ratio - 1.0) < 0.02 else "  <--"
            print(f"{kernel:<16} {name:<26} {hw:>12.0f} {emulated:>12.0f} {ratio:>7.3f}{flag}")
    print(f"largest relative difference: {worst:.1%}")


if __name__ == "__main__":
    main()
