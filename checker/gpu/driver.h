// The CUDA driver API, opened at run time with dlopen("libcuda.so.1"), so that one tilecamp binary
// runs on machines with and without an NVIDIA driver. Only the worker process (worker.h) calls it.
#pragma once

#include <cuda.h>

#include <string>

#include "checker/util/expected.h"

namespace tilecamp::gpu {

struct Driver {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&::cuDeviceGetCount) device_get_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_get_name = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&::cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&::cuCtxSynchronize) ctx_synchronize = nullptr;
  decltype(&::cuCtxResetPersistingL2Cache) ctx_reset_persisting_l2 = nullptr;  // may be missing
  decltype(&::cuModuleLoadDataEx) module_load_data_ex = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuModuleGetGlobal_v2) module_get_global = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuMemAlloc_v2) mem_alloc = nullptr;
  decltype(&::cuMemFree_v2) mem_free = nullptr;
  decltype(&::cuMemcpyHtoD_v2) memcpy_htod = nullptr;
  decltype(&::cuMemcpyDtoH_v2) memcpy_dtoh = nullptr;
  decltype(&::cuMemcpyDtoD_v2) memcpy_dtod = nullptr;
  decltype(&::cuMemsetD8_v2) memset_d8 = nullptr;
  decltype(&::cuMemsetD32_v2) memset_d32 = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuLaunchCooperativeKernel) launch_cooperative_kernel = nullptr;
  decltype(&::cuEventCreate) event_create = nullptr;
  decltype(&::cuEventRecord) event_record = nullptr;
  decltype(&::cuEventSynchronize) event_synchronize = nullptr;
  decltype(&::cuEventElapsedTime_v2) event_elapsed_time = nullptr;
  decltype(&::cuEventDestroy_v2) event_destroy = nullptr;
  decltype(&::cuGetErrorName) get_error_name = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;

  // "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)"
  std::string describe(CUresult result) const;
  // OK, or an Error "while <doing>: CUDA_ERROR_... (...)".
  Status check(CUresult result, const std::string& doing) const;
};

// Opens libcuda.so.1 once and resolves every entry point. The error says what is missing: no
// driver installed, or one too old for a function.
Expected<const Driver*> load_driver();

}  // namespace tilecamp::gpu
