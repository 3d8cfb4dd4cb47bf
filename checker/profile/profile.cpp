#include "checker/profile/profile.h"

#include "checker/model/sampling.h"
#include "checker/ptx/kernel_lookup.h"

namespace tilecamp::profile {
namespace {

Expected<std::vector<KernelArgument>> bind_arguments(const ptx::Function& kernel, const std::string& name,
                                                     const ProfileRequest& request,
                                                     std::vector<BufferData>& buffers) {
  // A sampled run's buffers are made zeroed where it runs: their values do not change the counters
  // of the kernels it is for, and a grid too large to emulate has buffers too large to send.
  if (request.arguments.size() != kernel.parameters.size()) {
    return make_error("`" + name + "` takes " + std::to_string(kernel.parameters.size()) +
                      " parameter(s), but " + std::to_string(request.arguments.size()) +
                      " --arg were given (one --arg per parameter, in order)");
  }
  std::vector<KernelArgument> arguments;
  for (size_t i = 0; i < request.arguments.size(); ++i) {
    const ArgSpec& spec = request.arguments[i];
    const ptx::Parameter& parameter = kernel.parameters[i];
    const std::string which = "parameter " + std::to_string(i + 1) + " of `" + name + "`";
    KernelArgument argument;
    if (spec.is_buffer) {
      if (parameter.size != 8) {
        return make_error(which + " is a " + std::to_string(parameter.size) +
                          "-byte value, not a pointer: --arg '" + spec.text + "' gives a buffer");
      }
      argument.buffer = static_cast<int>(buffers.size());
      if (request.sample) {
        buffers.push_back({"arg" + std::to_string(i), {}, BufferRole::InOut, spec.count * element_bytes(spec.type)});
      } else {
        TC_TRY_ASSIGN(std::vector<uint8_t> contents, fill_buffer(spec, request.seed + i));
        buffers.push_back({"arg" + std::to_string(i), std::move(contents)});
      }
    } else {
      if (spec.scalar.size() != parameter.size) {
        return make_error(which + " has " + std::to_string(parameter.size) + " bytes, but --arg '" +
                          spec.text + "' gives " + std::to_string(spec.scalar.size()));
      }
      argument.scalar = spec.scalar;
    }
    arguments.push_back(std::move(argument));
  }
  return arguments;
}

}  // namespace

Expected<ProfileReport> profile_kernel(Compiler& compiler, Backend& backend, const ProfileRequest& request) {
  TC_TRY_ASSIGN(const model::GpuSpec gpu, model::find_gpu(request.gpu));
  ProfileReport report;
  report.path = request.path;
  report.gpu = gpu.name;
  report.grid = request.grid;
  report.block = request.block;
  report.dynamic_shared_bytes = request.dynamic_shared_bytes;
  std::string ptx_text = request.text;
  std::string lowered;  // the template instance NVRTC named for `request.kernel`, as it was spelled
  std::vector<KernelResources> resources;
  if (!request.path.ends_with(".ptx")) {
    CompileOptions options;
    if (request.kernel.find('<') != std::string::npos) options.name_expressions.push_back(request.kernel);
    TC_TRY_ASSIGN(CompileResult compiled, compiler.compile({request.path, request.text}, options));
    report.compile_log = compiled.log;
    report.compile_diagnostics = compiled.diagnostics;
    if (!compiled.ok) {
      report.compiled = false;
      return report;
    }
    ptx_text = std::move(compiled.ptx);
    resources = std::move(compiled.resources);
    if (auto it = compiled.lowered_names.find(request.kernel); it != compiled.lowered_names.end()) lowered = it->second;
  }
  TC_TRY(backend.load(ptx_text));
  // `reduce4<float, 256>` as the source spells it: NVRTC's lowered name, where the demangled
  // spelling would be `reduce4<float, 256u>`.
  if (!lowered.empty() && backend.module().find_function(lowered) != nullptr) {
    report.mangled = lowered;
  } else {
    TC_TRY_ASSIGN(report.mangled, ptx::resolve_kernel_name(backend.module(), request.kernel));
  }
  report.kernel = ptx::readable_kernel_name(report.mangled);
  const ptx::Function& kernel = *backend.module().find_function(report.mangled);
  if (const KernelResources* found = find_resources(resources, report.mangled)) {
    report.resources = *found;
    report.occupancy = model::compute_occupancy(gpu.occupancy, *found, request.block.count(),
                                                request.dynamic_shared_bytes);
  }

  LaunchRequest launch;
  launch.kernel = report.mangled;
  launch.config.grid = request.grid;
  launch.config.block = request.block;
  launch.config.dynamic_shared_bytes = request.dynamic_shared_bytes;
  launch.config.observer = request.observer;
  launch.config.warp_instruction_budget = request.warp_instruction_budget;
  launch.config.cooperative = request.cooperative;
  if (request.sample) {
    launch.config.sample_blocks = model::sample_blocks(request.grid);
    launch.config.sample_uniform_after = model::k_uniform_after;
  }
  TC_TRY_ASSIGN(launch.arguments, bind_arguments(kernel, report.kernel, request, launch.buffers));
  for (const auto& [name, spec] : request.variables) {
    TC_TRY_ASSIGN(std::vector<uint8_t> bytes, spec_bytes(spec, request.seed + 1000));
    launch.variables.push_back({name, std::move(bytes)});
  }
  launch.timing.enabled = !backend.counts();
  TC_TRY_ASSIGN(LaunchOutcome outcome, backend.launch(launch));
  report.result = std::move(outcome.profile);
  report.measured = outcome.timing;
  for (Diagnostic& diagnostic : report.result.diagnostics) {
    if (diagnostic.kind == "runaway" && diagnostic.message.find(" instructions without finishing") != std::string::npos &&
        diagnostic.message.starts_with("warp ")) {
      diagnostic.message += " (a kernel that should run this long: --max-warp-instructions N)";
    }
  }
  if (request.sample && backend.counts()) {
    report.sampled_blocks = report.result.block_counters.size();
    report.result.totals = model::extrapolate(request.grid, launch.config.sample_blocks, report.result.block_counters);
  }
  for (size_t i = 0; i < launch.arguments.size(); ++i) {
    const int buffer = launch.arguments[i].buffer;
    if (buffer >= 0) report.buffers.push_back({static_cast<int>(i), std::move(outcome.buffers[buffer])});
  }
  show_path_as_given(report.result, request.path);
  model::CostInput cost{report.result.totals, report.grid, report.block, 0};
  cost.resources = report.resources;
  cost.dynamic_shared_bytes = request.dynamic_shared_bytes;
  for (const BufferData& buffer : launch.buffers) {
    cost.footprint_bytes += static_cast<double>(std::max<uint64_t>(buffer.bytes.size(), buffer.zero_bytes));
  }
  report.modelled = model::model_cost(gpu, cost);
  return report;
}

}  // namespace tilecamp::profile
