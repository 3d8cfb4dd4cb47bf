#include "checker/gpu/driver.h"

#include <dlfcn.h>

namespace tilecamp::gpu {
namespace {

template <typename F>
bool resolve(void* library, const char* name, F& out, std::string& missing, bool required = true) {
  out = reinterpret_cast<F>(dlsym(library, name));
  if (out == nullptr && required) missing += (missing.empty() ? "" : ", ") + std::string(name);
  return out != nullptr;
}

Expected<const Driver*> open_driver() {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return make_error(std::string("no CUDA driver: cannot open libcuda.so.1 (") + (why ? why : "not found") +
                      "); is the NVIDIA driver installed?");
  }
  static Driver driver;
  std::string missing;
  resolve(library, "cuInit", driver.init, missing);
  resolve(library, "cuDriverGetVersion", driver.driver_get_version, missing);
  resolve(library, "cuDeviceGetCount", driver.device_get_count, missing);
  resolve(library, "cuDeviceGet", driver.device_get, missing);
  resolve(library, "cuDeviceGetName", driver.device_get_name, missing);
  resolve(library, "cuDeviceGetAttribute", driver.device_get_attribute, missing);
  resolve(library, "cuDevicePrimaryCtxRetain", driver.primary_ctx_retain, missing);
  resolve(library, "cuCtxSetCurrent", driver.ctx_set_current, missing);
  resolve(library, "cuCtxSynchronize", driver.ctx_synchronize, missing);
  resolve(library, "cuCtxResetPersistingL2Cache", driver.ctx_reset_persisting_l2, missing, false);
  resolve(library, "cuModuleLoadDataEx", driver.module_load_data_ex, missing);
  resolve(library, "cuModuleUnload", driver.module_unload, missing);
  resolve(library, "cuModuleGetFunction", driver.module_get_function, missing);
  resolve(library, "cuModuleGetGlobal_v2", driver.module_get_global, missing);
  resolve(library, "cuFuncSetAttribute", driver.func_set_attribute, missing);
  resolve(library, "cuMemAlloc_v2", driver.mem_alloc, missing);
  resolve(library, "cuMemFree_v2", driver.mem_free, missing);
  resolve(library, "cuMemcpyHtoD_v2", driver.memcpy_htod, missing);
  resolve(library, "cuMemcpyDtoH_v2", driver.memcpy_dtoh, missing);
  resolve(library, "cuMemcpyDtoD_v2", driver.memcpy_dtod, missing);
  resolve(library, "cuMemsetD8_v2", driver.memset_d8, missing);
  resolve(library, "cuMemsetD32_v2", driver.memset_d32, missing);
  resolve(library, "cuLaunchKernel", driver.launch_kernel, missing);
  resolve(library, "cuLaunchCooperativeKernel", driver.launch_cooperative_kernel, missing);
  resolve(library, "cuEventCreate", driver.event_create, missing);
  resolve(library, "cuEventRecord", driver.event_record, missing);
  resolve(library, "cuEventSynchronize", driver.event_synchronize, missing);
  if (!resolve(library, "cuEventElapsedTime_v2", driver.event_elapsed_time, missing, false)) {
    resolve(library, "cuEventElapsedTime", driver.event_elapsed_time, missing);
  }
  resolve(library, "cuEventDestroy_v2", driver.event_destroy, missing);
  resolve(library, "cuGetErrorName", driver.get_error_name, missing);
  resolve(library, "cuGetErrorString", driver.get_error_string, missing);
  if (!missing.empty()) return make_error("the CUDA driver (libcuda.so.1) is too old: it lacks " + missing);
  return &driver;
}

}  // namespace

std::string Driver::describe(CUresult result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (get_error_name) get_error_name(result, &name);
  if (get_error_string) get_error_string(result, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(static_cast<int>(result))) +
         (text ? std::string(" (") + text + ")" : "");
}

Status Driver::check(CUresult result, const std::string& doing) const {
  if (result == CUDA_SUCCESS) return ok();
  return make_error("while " + doing + ": " + describe(result));
}

Expected<const Driver*> load_driver() {
  static const Expected<const Driver*> driver = open_driver();
  return driver;
}

}  // namespace tilecamp::gpu
