// Reads what ptxas recorded about each kernel in a cubin (the ELF file NVRTC makes for a real
// architecture, nvrtcGetCUBIN): registers per thread, static shared memory per block, the stack
// frame per thread and `__launch_bounds__`'s thread count. These are the figures the driver's
// cuFuncGetAttribute reports, and what decides how many blocks an SM holds (model/occupancy.h).
//
// Where they are in a CUDA 13 cubin (64-bit little-endian ELF):
// - `.nv.info`: attributes for every function, each [format u8][attribute u8] then a value:
//   EIFMT_NVAL (1), BVAL (2) and HVAL (3) take two bytes, SVAL (4) a u16 size and that many
//   bytes; records are 4-byte aligned. EIATTR_REGCOUNT (0x2f), EIATTR_FRAME_SIZE (0x11) and
//   EIATTR_MIN_STACK_SIZE (0x12) hold [symbol index u32][value u32].
// - `.nv.info.<kernel>`: the kernel's own attributes; EIATTR_MAX_THREADS (0x05) holds the
//   launch bounds as three u32 (x, y, z).
// - `.nv.shared.<kernel>`: a NOBITS section whose size is the kernel's static shared memory, plus
//   the 1 KB sm_90 reserves at the start of a block's shared memory when the cubin names that
//   reserve (the symbol `.nv.reservedSmem.offset0`): ptxas places the kernel's arrays after it.
//   (A kernel of 256 floats has a section of 2048 bytes; the driver reports 1024.)
// - `.text.<kernel>`: older cubins kept the register count in the top byte of its sh_info; it is
//   read when no EIATTR_REGCOUNT names the kernel.
// A kernel is a FUNC symbol whose st_other has STO_CUDA_ENTRY (0x10).
//
// The bytes come from compiling a learner's file, so every offset and size is checked: a cubin
// that is cut short or not an ELF file is an error, never a read out of bounds.
#pragma once

#include <string_view>
#include <vector>

#include "checker/compile/compiler.h"
#include "checker/util/expected.h"

namespace tilecamp {

Expected<std::vector<KernelResources>> read_cubin_resources(std::string_view cubin);

}  // namespace tilecamp
