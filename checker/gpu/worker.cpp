#include "checker/gpu/worker.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "checker/child/launch_wire.h"
#include "checker/gpu/driver.h"

namespace tilecamp::gpu {
namespace {

using child::MessageReader;
using child::MessageWriter;
using child::read_frame;
using child::write_frame;

// An error that leaves the CUDA context unusable: the worker answers and exits.
struct Fatal {
  std::string message;
};

class Worker {
 public:
  Worker(int in_fd, int out_fd) : m_in(in_fd), m_out(out_fd) {}

  int serve() {
    for (;;) {
      auto frame = read_frame(m_in, -1);
      if (!frame) return 0;  // the backend closed the pipe: done
      MessageReader request(std::move(*frame));
      MessageWriter reply;
      bool fatal = false;
      try {
        Status handled = handle(request, reply);
        if (!handled) {
          reply = MessageWriter();
          reply.u32(static_cast<uint32_t>(Reply::Error)).text(handled.error());
        }
      } catch (const Fatal& error) {
        reply = MessageWriter();
        reply.u32(static_cast<uint32_t>(Reply::Fatal)).text(error.message);
        fatal = true;
      }
      if (!write_frame(m_out, reply.data())) return 1;
      if (fatal) return 3;
    }
  }

 private:
  Status handle(MessageReader& request, MessageWriter& reply) {
    TC_TRY_ASSIGN(uint32_t kind, request.u32());
    TC_TRY(start());
    switch (static_cast<Request>(kind)) {
      case Request::Info: return info(reply);
      case Request::Load: return load(request, reply);
      case Request::Launch: return launch(request, reply);
    }
    return make_error("unknown request " + std::to_string(kind));
  }

  Status start() {
    if (m_started) return ok();
    TC_TRY_ASSIGN(m_driver, load_driver());
    TC_TRY(m_driver->check(m_driver->init(0), "initialising the CUDA driver (cuInit)"));
    int count = 0;
    TC_TRY(m_driver->check(m_driver->device_get_count(&count), "counting CUDA devices"));
    if (count == 0) return make_error("the CUDA driver sees no GPU");
    TC_TRY(m_driver->check(m_driver->device_get(&m_device, 0), "opening GPU 0"));
    TC_TRY(m_driver->check(m_driver->primary_ctx_retain(&m_context, m_device), "creating a CUDA context on GPU 0"));
    TC_TRY(m_driver->check(m_driver->ctx_set_current(m_context), "making the CUDA context current"));
    int l2 = 0;
    TC_TRY(attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, l2));
    m_flush_bytes = std::max<size_t>(size_t{2} * static_cast<size_t>(l2), size_t{64} << 20);
    TC_TRY(m_driver->check(m_driver->mem_alloc(&m_flush, m_flush_bytes), "allocating the L2 flush buffer"));
    m_started = true;
    return ok();
  }

  Status attribute(CUdevice_attribute which, int& value) {
    return m_driver->check(m_driver->device_get_attribute(&value, which, m_device), "reading a device attribute");
  }

  // The device's name and shape, and its device-to-device copy bandwidth (read + write bytes over
  // time), measured once: the ceiling effective bandwidths are compared with.
  Status info(MessageWriter& reply) {
    char name[256] = {};
    TC_TRY(m_driver->check(m_driver->device_get_name(name, sizeof name, m_device), "reading the GPU's name"));
    int major = 0, minor = 0, sms = 0, l2 = 0;
    TC_TRY(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, major));
    TC_TRY(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, minor));
    TC_TRY(attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, sms));
    TC_TRY(attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, l2));
    TC_TRY_ASSIGN(double copy_gbps, copy_bandwidth());
    reply.u32(static_cast<uint32_t>(Reply::Ok)).text(name).u32(static_cast<uint32_t>(major)).u32(static_cast<uint32_t>(minor))
        .u32(static_cast<uint32_t>(sms)).u64(static_cast<uint64_t>(l2)).f64(copy_gbps);
    return ok();
  }

  Expected<double> copy_bandwidth() {
    const size_t bytes = size_t{256} << 20;
    CUdeviceptr from = 0, to = 0;
    TC_TRY(m_driver->check(m_driver->mem_alloc(&from, bytes), "allocating the copy-bandwidth buffers"));
    TC_TRY(m_driver->check(m_driver->mem_alloc(&to, bytes), "allocating the copy-bandwidth buffers"));
    CUevent start = nullptr, stop = nullptr;
    TC_TRY(m_driver->check(m_driver->event_create(&start, CU_EVENT_DEFAULT), "creating an event"));
    TC_TRY(m_driver->check(m_driver->event_create(&stop, CU_EVENT_DEFAULT), "creating an event"));
    std::vector<float> times;
    for (int i = 0; i < 6; ++i) {
      TC_TRY(m_driver->check(m_driver->event_record(start, nullptr), "recording an event"));
      TC_TRY(m_driver->check(m_driver->memcpy_dtod(to, from, bytes), "copying device to device"));
      TC_TRY(m_driver->check(m_driver->event_record(stop, nullptr), "recording an event"));
      TC_TRY(m_driver->check(m_driver->event_synchronize(stop), "waiting for a copy"));
      float ms = 0;
      TC_TRY(m_driver->check(m_driver->event_elapsed_time(&ms, start, stop), "reading an event time"));
      if (i > 0) times.push_back(ms);  // the first is a warm-up
    }
    m_driver->event_destroy(start);
    m_driver->event_destroy(stop);
    m_driver->mem_free(from);
    m_driver->mem_free(to);
    std::sort(times.begin(), times.end());
    return 2.0 * static_cast<double>(bytes) / (times[times.size() / 2] * 1e-3) / 1e9;
  }

  // Loads the PTX once to report errors now (the JIT's log included); every launch reloads it,
  // so module-scope __device__ variables start fresh for each case.
  Status load(MessageReader& request, MessageWriter& reply) {
    TC_TRY_ASSIGN(uint32_t slot, request.u32());
    TC_TRY_ASSIGN(std::string ptx, request.text());
    TC_TRY_ASSIGN(CUmodule module, load_module(ptx));
    m_driver->module_unload(module);
    m_ptx[slot] = std::move(ptx);
    reply.u32(static_cast<uint32_t>(Reply::Ok));
    return ok();
  }

  Expected<CUmodule> load_module(const std::string& ptx) {
    char log[8192] = {};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* values[] = {log, reinterpret_cast<void*>(sizeof log)};
    CUmodule module = nullptr;
    const CUresult result = m_driver->module_load_data_ex(&module, ptx.c_str(), 2, options, values);
    if (result != CUDA_SUCCESS) {
      return make_error("while loading the PTX (cuModuleLoadDataEx): " + m_driver->describe(result) +
                        (log[0] ? std::string("\n") + log : std::string()));
    }
    return module;
  }

  // Any failure once the kernel has run may have left the context broken: fatal.
  void after_kernel(CUresult result, const std::string& doing) {
    if (result != CUDA_SUCCESS) throw Fatal{"the kernel failed (" + doing + "): " + m_driver->describe(result)};
  }

  Status launch(MessageReader& request, MessageWriter& reply) {
    TC_TRY_ASSIGN(uint32_t slot, request.u32());
    TC_TRY_ASSIGN(LaunchRequest launch, child::read_launch_request(request));
    auto ptx = m_ptx.find(slot);
    if (ptx == m_ptx.end()) return make_error("no PTX is loaded");
    TC_TRY_ASSIGN(CUmodule module, load_module(ptx->second));
    std::vector<CUdeviceptr> pointers(launch.buffers.size(), 0);
    auto release = [&] {
      for (CUdeviceptr pointer : pointers) {
        if (pointer != 0) m_driver->mem_free(pointer);
      }
      m_driver->module_unload(module);
    };
    Status status = run(module, launch, pointers, reply);
    release();
    return status;
  }

  Status run(CUmodule module, const LaunchRequest& launch, std::vector<CUdeviceptr>& pointers, MessageWriter& reply) {
    CUfunction function = nullptr;
    TC_TRY(m_driver->check(m_driver->module_get_function(&function, module, launch.kernel.c_str()),
                           "finding kernel `" + launch.kernel + "` in the module"));
    const uint32_t shared = launch.config.dynamic_shared_bytes;
    if (shared > 48 * 1024) {
      TC_TRY(m_driver->check(m_driver->func_set_attribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                          static_cast<int>(shared)),
                             "allowing " + std::to_string(shared) + " bytes of dynamic shared memory"));
    }
    for (size_t i = 0; i < launch.buffers.size(); ++i) {
      const size_t bytes = std::max<size_t>(buffer_size(launch.buffers[i]), 4);
      TC_TRY(m_driver->check(m_driver->mem_alloc(&pointers[i], bytes), "allocating " + std::to_string(bytes) + " bytes"));
      TC_TRY(upload(launch, pointers, i));
    }
    for (const auto& [name, bytes] : launch.variables) {
      CUdeviceptr address = 0;
      size_t size = 0;
      TC_TRY(m_driver->check(m_driver->module_get_global(&address, &size, module, name.c_str()), "finding variable `" + name + "`"));
      if (size != bytes.size()) return make_error("variable `" + name + "` has " + std::to_string(size) + " bytes, not " + std::to_string(bytes.size()));
      TC_TRY(m_driver->check(m_driver->memcpy_htod(address, bytes.data(), bytes.size()), "setting variable `" + name + "`"));
    }
    std::vector<void*> parameters;
    std::vector<CUdeviceptr> argument_pointers(launch.arguments.size());
    for (size_t i = 0; i < launch.arguments.size(); ++i) {
      const KernelArgument& argument = launch.arguments[i];
      if (argument.buffer >= 0) {
        argument_pointers[i] = pointers.at(static_cast<size_t>(argument.buffer));
        parameters.push_back(&argument_pointers[i]);
      } else {
        parameters.push_back(const_cast<uint8_t*>(argument.scalar.data()));
      }
    }
    auto start_kernel = [&] {
      const Dim3& grid = launch.config.grid;
      const Dim3& block = launch.config.block;
      if (launch.config.cooperative) {  // every block resident: the driver refuses a grid too large for that
        return m_driver->launch_cooperative_kernel(function, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                                                   nullptr, parameters.data());
      }
      return m_driver->launch_kernel(function, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared, nullptr,
                                     parameters.data(), nullptr);
    };
    std::vector<float> times;
    if (launch.timing.enabled) {
      TC_TRY_ASSIGN(times, timed_runs(launch, pointers, start_kernel));
    } else {
      TC_TRY(m_driver->check(start_kernel(), "launching kernel `" + launch.kernel + "`"));
      after_kernel(m_driver->ctx_synchronize(), "waiting for it to finish");
    }
    reply.u32(static_cast<uint32_t>(Reply::Ok)).u32(static_cast<uint32_t>(launch.buffers.size()));
    for (size_t i = 0; i < launch.buffers.size(); ++i) {
      std::vector<uint8_t> bytes(launch.buffers[i].bytes.size());  // a buffer made here goes back empty
      if (!bytes.empty()) after_kernel(m_driver->memcpy_dtoh(bytes.data(), pointers[i], bytes.size()), "copying results back");
      reply.bytes(bytes);
    }
    reply.u32(launch.timing.enabled ? 1 : 0);
    if (launch.timing.enabled) {
      std::sort(times.begin(), times.end());
      reply.f64(times[times.size() / 2]).f64(times.front()).f64(times.back()).u32(static_cast<uint32_t>(times.size()));
    }
    return ok();
  }

  static size_t buffer_size(const BufferData& buffer) {
    return buffer.bytes.empty() ? static_cast<size_t>(buffer.zero_bytes) : buffer.bytes.size();
  }

  Status upload(const LaunchRequest& launch, const std::vector<CUdeviceptr>& pointers, size_t i) {
    const std::vector<uint8_t>& bytes = launch.buffers[i].bytes;
    if (bytes.empty() && launch.buffers[i].zero_bytes > 0) {  // made here: zeroed on the device, nothing sent
      return m_driver->check(m_driver->memset_d8(pointers[i], 0, launch.buffers[i].zero_bytes), "zeroing a buffer");
    }
    if (bytes.empty()) return ok();
    return m_driver->check(m_driver->memcpy_htod(pointers[i], bytes.data(), bytes.size()), "copying inputs to the GPU");
  }

  // Before each repetition: outputs poisoned again (a kernel that skips work on a later launch
  // leaves NaN behind and fails the validation of the timed run), in-out buffers restored, and the
  // L2 cache flushed by writing a buffer twice its size.
  template <typename Start>
  Expected<std::vector<float>> timed_runs(const LaunchRequest& launch, const std::vector<CUdeviceptr>& pointers,
                                          Start start_kernel) {
    const TimingRequest& timing = launch.timing;
    for (int i = 0; i < timing.warmups; ++i) {
      TC_TRY(m_driver->check(start_kernel(), "launching kernel `" + launch.kernel + "`"));
      after_kernel(m_driver->ctx_synchronize(), "waiting for a warm-up run");
    }
    CUevent start = nullptr, stop = nullptr;
    TC_TRY(m_driver->check(m_driver->event_create(&start, CU_EVENT_DEFAULT), "creating an event"));
    TC_TRY(m_driver->check(m_driver->event_create(&stop, CU_EVENT_DEFAULT), "creating an event"));
    std::vector<float> times;
    double total_ms = 0;
    for (int repetition = 0; repetition < std::max(timing.max_repetitions, 1); ++repetition) {
      for (size_t i = 0; i < launch.buffers.size(); ++i) {
        const BufferData& buffer = launch.buffers[i];
        if (buffer.role == BufferRole::Out && buffer_size(buffer) > 0) {
          TC_TRY(m_driver->check(m_driver->memset_d8(pointers[i], 0xFF, buffer_size(buffer)), "poisoning an output"));
        } else if (buffer.role == BufferRole::InOut) {
          TC_TRY(upload(launch, pointers, i));
        }
      }
      TC_TRY(m_driver->check(m_driver->memset_d32(m_flush, static_cast<unsigned>(repetition), m_flush_bytes / 4),
                             "flushing the L2 cache"));
      if (m_driver->ctx_reset_persisting_l2) m_driver->ctx_reset_persisting_l2();
      TC_TRY(m_driver->check(m_driver->event_record(start, nullptr), "recording an event"));
      TC_TRY(m_driver->check(start_kernel(), "launching kernel `" + launch.kernel + "`"));
      TC_TRY(m_driver->check(m_driver->event_record(stop, nullptr), "recording an event"));
      after_kernel(m_driver->event_synchronize(stop), "waiting for a timed run");
      float ms = 0;
      TC_TRY(m_driver->check(m_driver->event_elapsed_time(&ms, start, stop), "reading an event time"));
      times.push_back(ms);
      total_ms += ms;
      if (times.size() >= static_cast<size_t>(timing.min_repetitions) &&
          (small_spread(times) || total_ms > timing.max_seconds * 1e3)) {
        break;
      }
    }
    m_driver->event_destroy(start);
    m_driver->event_destroy(stop);
    return times;
  }

  // The middle half of the times lies within 2% of the median.
  static bool small_spread(std::vector<float> times) {
    std::sort(times.begin(), times.end());
    const float median = times[times.size() / 2];
    const float spread = times[times.size() * 3 / 4] - times[times.size() / 4];
    return median > 0 && spread / median < 0.02f;
  }

  int m_in, m_out;
  bool m_started = false;
  const Driver* m_driver = nullptr;
  CUdevice m_device = 0;
  CUcontext m_context = nullptr;
  CUdeviceptr m_flush = 0;
  size_t m_flush_bytes = 0;
  std::map<uint32_t, std::string> m_ptx;
};

}  // namespace

int run_worker(int in_fd, int out_fd) { return Worker(in_fd, out_fd).serve(); }

}  // namespace tilecamp::gpu
