#!/usr/bin/env python3
"""The PTX NVRTC makes of a kernel file, with tilecamp's options (checker/compile/nvrtc_compiler.cpp:
-lineinfo --std=c++17 -arch=compute_90, the toolkit's include folders) minus -no-source-include and
the pre-included stand-in cuda_runtime.h, so the files that include cooperative groups or <mma.h>
compile: `tilecamp profile FILE.ptx ...` then shows the next blocker after issue 18's item 1.
  nvrtc_ptx.py FILE.cu [--strict] [NAME-EXPRESSION ...] > FILE.ptx
--strict adds -no-source-include back (reproduces today's compile error). Needs /usr/local/cuda."""
import ctypes, sys
lib = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
path = sys.argv[1]; strict = "--strict" in sys.argv
exprs = [a for a in sys.argv[2:] if a != "--strict"]
src = open(path, "rb").read()
prog = ctypes.c_void_p()
assert lib.nvrtcCreateProgram(ctypes.byref(prog), src, path.encode(), 0, None, None) == 0
for e in exprs: lib.nvrtcAddNameExpression(prog, e.encode())
opts = ["-lineinfo", "--std=c++17", "-arch=compute_90", "-I/usr/local/cuda/include", "-I/usr/local/cuda/include/cccl"]
if strict: opts.insert(3, "-no-source-include")
arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
n = ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
log = ctypes.create_string_buffer(n.value); lib.nvrtcGetProgramLog(prog, log)
if rc != 0:
    sys.stderr.write(log.value.decode()); sys.exit(1)
lib.nvrtcGetPTXSize(prog, ctypes.byref(n)); buf = ctypes.create_string_buffer(n.value); lib.nvrtcGetPTX(prog, buf)
sys.stdout.write(buf.value.decode())
for e in exprs:
    p = ctypes.c_char_p(); lib.nvrtcGetLoweredName(prog, e.encode(), ctypes.byref(p)); sys.stderr.write(f"{e} -> {p.value.decode()}\n")
