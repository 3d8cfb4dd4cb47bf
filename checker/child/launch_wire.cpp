#include "checker/child/launch_wire.h"

#include "checker/emu/emulator.h"

namespace tilecamp::child {
namespace {

void write_dim3(MessageWriter& out, const Dim3& dim) { out.u32(dim.x).u32(dim.y).u32(dim.z); }

Expected<Dim3> read_dim3(MessageReader& in) {
  Dim3 dim;
  TC_TRY_ASSIGN(dim.x, in.u32());
  TC_TRY_ASSIGN(dim.y, in.u32());
  TC_TRY_ASSIGN(dim.z, in.u32());
  return dim;
}

void write_texts(MessageWriter& out, const std::vector<std::string>& texts) {
  out.u32(static_cast<uint32_t>(texts.size()));
  for (const std::string& text : texts) out.text(text);
}

Expected<std::vector<std::string>> read_texts(MessageReader& in) {
  TC_TRY_ASSIGN(uint32_t count, in.u32());
  std::vector<std::string> texts;
  for (uint32_t i = 0; i < count; ++i) {
    TC_TRY_ASSIGN(std::string text, in.text());
    texts.push_back(std::move(text));
  }
  return texts;
}

// An enumeration's value, refused when it is not one of the `count` it has.
template <typename Enum>
Expected<Enum> read_enum(MessageReader& in, uint32_t count, const char* what) {
  TC_TRY_ASSIGN(uint32_t value, in.u32());
  if (value >= count) return make_error(std::string("malformed message: ") + what + " " + std::to_string(value));
  return static_cast<Enum>(value);
}

Expected<int> read_int(MessageReader& in) {
  TC_TRY_ASSIGN(uint64_t value, in.u64());
  return static_cast<int>(static_cast<int64_t>(value));
}

void write_counters(MessageWriter& out, const Counters& counters) {
  counters.for_each([&](const char*, uint64_t value) { out.u64(value); });
}

Expected<Counters> read_counters(MessageReader& in) {
  Counters counters;
  Status status = ok();
#define TILECAMP_READ_COUNTER(name)         \
  if (status) {                             \
    auto value = in.u64();                  \
    if (value) counters.name = *value;      \
    else status = Error{value.error()};     \
  }
  TILECAMP_COUNTERS(TILECAMP_READ_COUNTER)
#undef TILECAMP_READ_COUNTER
  if (!status) return Error{status.error()};
  return counters;
}

}  // namespace

void write_launch_request(MessageWriter& out, const LaunchRequest& request, uint32_t time_limit_ms) {
  out.text(request.kernel);
  write_dim3(out, request.config.grid);
  write_dim3(out, request.config.block);
  out.u32(request.config.dynamic_shared_bytes).u64(request.config.warp_instruction_budget).u64(request.config.instruction_budget);
  out.u32(time_limit_ms);
  // The host threads the emulator may use, as this process chose them: the sandboxed child sees
  // neither this process's environment nor how many jobs share the cores.
  out.u32(request.config.host_threads != 0 ? request.config.host_threads : emu::default_host_threads());
  out.u32(request.config.cooperative ? 1 : 0);
  out.u32(static_cast<uint32_t>(request.config.sample_blocks.size()));
  for (const Dim3& block : request.config.sample_blocks) write_dim3(out, block);
  out.u32(request.config.sample_uniform_after);
  out.u32(static_cast<uint32_t>(request.buffers.size()));
  for (const BufferData& buffer : request.buffers) {
    out.text(buffer.name).u32(static_cast<uint32_t>(buffer.role)).bytes(buffer.bytes).u64(buffer.zero_bytes);
  }
  out.u32(static_cast<uint32_t>(request.arguments.size()));
  for (const KernelArgument& argument : request.arguments) {
    out.u64(static_cast<uint64_t>(static_cast<int64_t>(argument.buffer))).bytes(argument.scalar);
  }
  out.u32(static_cast<uint32_t>(request.variables.size()));
  for (const VariableFill& variable : request.variables) out.text(variable.name).bytes(variable.bytes);
  const TimingRequest& timing = request.timing;
  out.u32(timing.enabled ? 1 : 0).u32(static_cast<uint32_t>(timing.warmups)).u32(static_cast<uint32_t>(timing.min_repetitions))
      .u32(static_cast<uint32_t>(timing.max_repetitions)).f64(timing.max_seconds);
}

Expected<LaunchRequest> read_launch_request(MessageReader& in) {
  LaunchRequest request;
  TC_TRY_ASSIGN(request.kernel, in.text());
  TC_TRY_ASSIGN(request.config.grid, read_dim3(in));
  TC_TRY_ASSIGN(request.config.block, read_dim3(in));
  TC_TRY_ASSIGN(request.config.dynamic_shared_bytes, in.u32());
  TC_TRY_ASSIGN(request.config.warp_instruction_budget, in.u64());
  TC_TRY_ASSIGN(request.config.instruction_budget, in.u64());
  TC_TRY_ASSIGN(request.config.time_limit_ms, in.u32());
  TC_TRY_ASSIGN(request.config.host_threads, in.u32());
  TC_TRY_ASSIGN(uint32_t cooperative, in.u32());
  request.config.cooperative = cooperative != 0;
  TC_TRY_ASSIGN(uint32_t sampled, in.u32());
  for (uint32_t i = 0; i < sampled; ++i) {
    TC_TRY_ASSIGN(Dim3 block, read_dim3(in));
    request.config.sample_blocks.push_back(block);
  }
  TC_TRY_ASSIGN(request.config.sample_uniform_after, in.u32());
  TC_TRY_ASSIGN(uint32_t buffers, in.u32());
  for (uint32_t i = 0; i < buffers; ++i) {
    BufferData buffer;
    TC_TRY_ASSIGN(buffer.name, in.text());
    TC_TRY_ASSIGN(buffer.role, read_enum<BufferRole>(in, 3, "buffer role"));
    TC_TRY_ASSIGN(buffer.bytes, in.bytes());
    TC_TRY_ASSIGN(buffer.zero_bytes, in.u64());
    request.buffers.push_back(std::move(buffer));
  }
  TC_TRY_ASSIGN(uint32_t arguments, in.u32());
  for (uint32_t i = 0; i < arguments; ++i) {
    KernelArgument argument;
    TC_TRY_ASSIGN(argument.buffer, read_int(in));
    if (argument.buffer < -1 || argument.buffer >= static_cast<int>(request.buffers.size())) {
      return make_error("malformed message: argument " + std::to_string(i) + " names buffer " + std::to_string(argument.buffer));
    }
    TC_TRY_ASSIGN(argument.scalar, in.bytes());
    request.arguments.push_back(std::move(argument));
  }
  TC_TRY_ASSIGN(uint32_t variables, in.u32());
  for (uint32_t i = 0; i < variables; ++i) {
    VariableFill variable;
    TC_TRY_ASSIGN(variable.name, in.text());
    TC_TRY_ASSIGN(variable.bytes, in.bytes());
    request.variables.push_back(std::move(variable));
  }
  TimingRequest& timing = request.timing;
  TC_TRY_ASSIGN(uint32_t enabled, in.u32());
  timing.enabled = enabled != 0;
  TC_TRY_ASSIGN(uint32_t warmups, in.u32());
  TC_TRY_ASSIGN(uint32_t min_repetitions, in.u32());
  TC_TRY_ASSIGN(uint32_t max_repetitions, in.u32());
  timing.warmups = static_cast<int>(warmups);
  timing.min_repetitions = static_cast<int>(min_repetitions);
  timing.max_repetitions = static_cast<int>(max_repetitions);
  TC_TRY_ASSIGN(timing.max_seconds, in.f64());
  return request;
}

void write_launch_result(MessageWriter& out, const LaunchResult& result) {
  write_counters(out, result.totals);
  out.u32(static_cast<uint32_t>(result.lines.size()));
  for (const LineProfile& line : result.lines) {
    out.text(line.file).u64(static_cast<uint64_t>(line.line));
    write_counters(out, line.counters);
  }
  out.u32(static_cast<uint32_t>(result.diagnostics.size()));
  for (const Diagnostic& diagnostic : result.diagnostics) {
    out.u32(static_cast<uint32_t>(diagnostic.severity)).text(diagnostic.kind).text(diagnostic.file)
        .u64(static_cast<uint64_t>(diagnostic.line)).text(diagnostic.message);
  }
  out.u32(result.completed ? 1 : 0).text(result.output).u32(result.shared_bytes_per_block).u32(result.host_threads);
  out.u32(static_cast<uint32_t>(result.block_counters.size()));
  for (const Counters& counters : result.block_counters) write_counters(out, counters);
}

Expected<LaunchResult> read_launch_result(MessageReader& in) {
  LaunchResult result;
  TC_TRY_ASSIGN(result.totals, read_counters(in));
  TC_TRY_ASSIGN(uint32_t lines, in.u32());
  for (uint32_t i = 0; i < lines; ++i) {
    LineProfile line;
    TC_TRY_ASSIGN(line.file, in.text());
    TC_TRY_ASSIGN(line.line, read_int(in));
    TC_TRY_ASSIGN(line.counters, read_counters(in));
    result.lines.push_back(std::move(line));
  }
  TC_TRY_ASSIGN(uint32_t diagnostics, in.u32());
  for (uint32_t i = 0; i < diagnostics; ++i) {
    Diagnostic diagnostic;
    TC_TRY_ASSIGN(diagnostic.severity, read_enum<Severity>(in, 2, "severity"));
    TC_TRY_ASSIGN(diagnostic.kind, in.text());
    TC_TRY_ASSIGN(diagnostic.file, in.text());
    TC_TRY_ASSIGN(diagnostic.line, read_int(in));
    TC_TRY_ASSIGN(diagnostic.message, in.text());
    result.diagnostics.push_back(std::move(diagnostic));
  }
  TC_TRY_ASSIGN(uint32_t completed, in.u32());
  result.completed = completed != 0;
  TC_TRY_ASSIGN(result.output, in.text());
  TC_TRY_ASSIGN(result.shared_bytes_per_block, in.u32());
  TC_TRY_ASSIGN(result.host_threads, in.u32());
  TC_TRY_ASSIGN(uint32_t blocks, in.u32());
  for (uint32_t i = 0; i < blocks; ++i) {
    TC_TRY_ASSIGN(Counters counters, read_counters(in));
    result.block_counters.push_back(counters);
  }
  return result;
}

void write_compile_request(MessageWriter& out, const SourceFile& source, const CompileOptions& options) {
  out.text(source.path).text(source.text).text(options.arch);
  write_texts(out, options.name_expressions);
  write_texts(out, options.defines);
  out.text(options.appended_source).u32(options.check_includes ? 1 : 0);
}

Expected<std::pair<SourceFile, CompileOptions>> read_compile_request(MessageReader& in) {
  SourceFile source;
  CompileOptions options;
  TC_TRY_ASSIGN(source.path, in.text());
  TC_TRY_ASSIGN(source.text, in.text());
  TC_TRY_ASSIGN(options.arch, in.text());
  TC_TRY_ASSIGN(options.name_expressions, read_texts(in));
  TC_TRY_ASSIGN(options.defines, read_texts(in));
  TC_TRY_ASSIGN(options.appended_source, in.text());
  TC_TRY_ASSIGN(uint32_t check_includes, in.u32());
  options.check_includes = check_includes != 0;
  return std::make_pair(std::move(source), std::move(options));
}

void write_compile_result(MessageWriter& out, const CompileResult& result) {
  // Every field by name: one added to CompileResult or CompileDiagnostic stops this from compiling
  // until it is written here too (or, like `kind`, is said not to travel).
  const auto& [ok, ptx, log, diagnostics, lowered_names, resources] = result;
  out.u32(ok ? 1 : 0).text(ptx).text(log);
  out.u32(static_cast<uint32_t>(diagnostics.size()));
  for (const CompileDiagnostic& d : diagnostics) {
    [[maybe_unused]] const auto& [file, line, column, severity, message, source_line, kind] = d;
    out.text(file).u64(static_cast<uint64_t>(line)).u64(static_cast<uint64_t>(column)).text(severity)
        .text(message).text(source_line);
  }
  out.u32(static_cast<uint32_t>(lowered_names.size()));
  for (const auto& [expression, lowered] : lowered_names) out.text(expression).text(lowered);
  out.u32(static_cast<uint32_t>(resources.size()));
  for (const KernelResources& r : resources) {
    const auto& [kernel, registers, static_shared_bytes, local_bytes, max_threads] = r;
    out.text(kernel).u32(registers).u32(static_shared_bytes).u32(local_bytes).u32(max_threads);
  }
}

Expected<CompileResult> read_compile_result(MessageReader& in) {
  CompileResult result;
  TC_TRY_ASSIGN(uint32_t ok_flag, in.u32());
  result.ok = ok_flag != 0;
  TC_TRY_ASSIGN(result.ptx, in.text());
  TC_TRY_ASSIGN(result.log, in.text());
  TC_TRY_ASSIGN(uint32_t diagnostics, in.u32());
  for (uint32_t i = 0; i < diagnostics; ++i) {
    CompileDiagnostic d;
    TC_TRY_ASSIGN(d.file, in.text());
    TC_TRY_ASSIGN(d.line, read_int(in));
    TC_TRY_ASSIGN(d.column, read_int(in));
    TC_TRY_ASSIGN(d.severity, in.text());
    if (d.severity != "error" && d.severity != "warning") return make_error("malformed message: severity " + d.severity);
    TC_TRY_ASSIGN(d.message, in.text());
    TC_TRY_ASSIGN(d.source_line, in.text());
    result.diagnostics.push_back(std::move(d));
  }
  TC_TRY_ASSIGN(uint32_t names, in.u32());
  for (uint32_t i = 0; i < names; ++i) {
    TC_TRY_ASSIGN(std::string expression, in.text());
    TC_TRY_ASSIGN(std::string lowered, in.text());
    result.lowered_names[expression] = lowered;
  }
  TC_TRY_ASSIGN(uint32_t kernels, in.u32());
  for (uint32_t i = 0; i < kernels; ++i) {
    KernelResources r;
    TC_TRY_ASSIGN(r.kernel, in.text());
    TC_TRY_ASSIGN(r.registers, in.u32());
    TC_TRY_ASSIGN(r.static_shared_bytes, in.u32());
    TC_TRY_ASSIGN(r.local_bytes, in.u32());
    TC_TRY_ASSIGN(r.max_threads, in.u32());
    result.resources.push_back(std::move(r));
  }
  return result;
}

void write_module_outline(MessageWriter& out, const ptx::Module& module) {
  out.u32(static_cast<uint32_t>(module.functions.size()));
  for (const ptx::Function& function : module.functions) {
    out.text(function.name).u32(function.is_entry ? 1 : 0).u32(static_cast<uint32_t>(function.parameters.size()));
    for (const ptx::Parameter& parameter : function.parameters) {
      out.text(parameter.name).u32(static_cast<uint32_t>(parameter.type)).u32(parameter.size).u32(parameter.align)
          .u32(parameter.offset);
    }
  }
}

Expected<ptx::Module> read_module_outline(MessageReader& in) {
  ptx::Module module;
  TC_TRY_ASSIGN(uint32_t functions, in.u32());
  for (uint32_t i = 0; i < functions; ++i) {
    ptx::Function function;
    TC_TRY_ASSIGN(function.name, in.text());
    TC_TRY_ASSIGN(uint32_t is_entry, in.u32());
    function.is_entry = is_entry != 0;
    TC_TRY_ASSIGN(uint32_t parameters, in.u32());
    for (uint32_t j = 0; j < parameters; ++j) {
      ptx::Parameter parameter;
      TC_TRY_ASSIGN(parameter.name, in.text());
      TC_TRY_ASSIGN(uint32_t type, in.u32());
      if (type > static_cast<uint32_t>(ptx::Type::F64)) return make_error("malformed message: parameter type " + std::to_string(type));
      parameter.type = static_cast<ptx::Type>(type);
      TC_TRY_ASSIGN(parameter.size, in.u32());
      TC_TRY_ASSIGN(parameter.align, in.u32());
      TC_TRY_ASSIGN(parameter.offset, in.u32());
      function.parameters.push_back(std::move(parameter));
    }
    module.functions.push_back(std::move(function));
  }
  return module;
}

}  // namespace tilecamp::child
