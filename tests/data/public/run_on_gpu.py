#!/usr/bin/env python3
"""Run every kernel of this folder on a real GPU exactly as its `// run:` line says (CuPy + NVRTC with
the toolkit's headers; a cooperative launch where the kernel uses this_grid()), and save each
buffer argument after the launch, for check_outputs.py. The H200 ground truth for the emulator.
  python3 run_on_gpu.py OUT.json [NAME ...]        (needs cupy; names default to every *.cu here)"""
import base64, glob, json, os, shlex, sys, traceback
import numpy as np
import cupy as cp

HERE = os.path.dirname(os.path.abspath(__file__))
BUFFER = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64}
SCALAR = dict(BUFFER, f16=np.float16, i16=np.int16, u16=np.uint16)
INCLUDE = "/usr/local/cuda/include"
OPTIONS = ("--std=c++17", "-arch=sm_90", "-lineinfo", "-I" + INCLUDE, "-I" + INCLUDE + "/cccl")


def run_line(path):
    line = next(l for l in open(path) if l.startswith("// run:"))
    argv = shlex.split(line[len("// run:"):])
    opts = {"arg": []}
    for i in range(len(argv)):
        if argv[i] in ("--kernel", "--grid", "--block"):
            opts[argv[i][2:]] = argv[i + 1]
        if argv[i] == "--arg":
            opts["arg"].append(argv[i + 1])
    return opts


def make_arg(spec):
    if "[" in spec:
        kind, rest = spec.split("[", 1)
        n, _, init = rest.partition("]")
        n, init = int(n), init.lstrip("=") or "rand"
        dtype = BUFFER[kind]
        if init == "zeros":
            host = np.zeros(n, dtype)
        elif init == "iota":
            host = np.arange(n).astype(dtype)
        else:
            host = np.random.default_rng(1).random(n).astype(dtype)
        return cp.asarray(host)
    kind, value = spec.split(":", 1)
    dtype = SCALAR[kind]
    return dtype(float(value) if dtype in (np.float16, np.float32, np.float64) else int(value, 0))


def dims(text):
    return tuple(int(x) for x in text.split(","))


def run(path):
    opts = run_line(path)
    source = open(path).read()
    module = cp.RawModule(code=source, backend="nvrtc", name_expressions=[opts["kernel"]],
                          options=OPTIONS)
    kernel = module.get_function(opts["kernel"])
    args = [make_arg(a) for a in opts["arg"]]
    grid, block = dims(opts["grid"]), dims(opts["block"])
    if "this_grid()" in source:  # grid.sync() needs a cooperative launch (such a kernel is extern "C" here)
        kernel = cp.RawKernel(source, opts["kernel"], options=OPTIONS, backend="nvrtc", enable_cooperative_groups=True)
        kernel(grid, block, tuple(args))
    else:
        kernel(grid, block, tuple(args))
    cp.cuda.Device().synchronize()
    return {str(i): base64.b64encode(cp.asnumpy(a).tobytes()).decode() for i, a in enumerate(args) if isinstance(a, cp.ndarray)}


def main():
    out_path, names = sys.argv[1], sys.argv[2:]
    paths = sorted(glob.glob(os.path.join(HERE, "*.cu")))
    if names:
        paths = [p for p in paths if os.path.basename(p)[:-3] in names]
    results = {}
    for path in paths:
        name = os.path.basename(path)[:-3]
        try:
            results[name] = {"ok": True, "buffers": run(path)}
        except Exception as error:  # a compile error or a launch failure: record it, go on
            results[name] = {"ok": False, "error": "".join(traceback.format_exception_only(type(error), error))[-2000:]}
        print(name, "ran" if results[name]["ok"] else "FAILED: " + results[name]["error"][:300], flush=True)
    json.dump(results, open(out_path, "w"))


if __name__ == "__main__":
    main()
