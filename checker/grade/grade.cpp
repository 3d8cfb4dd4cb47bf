#include "checker/grade/grade.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/compile/source_text.h"
#include "checker/model/cost_model.h"
#include "checker/model/sampling.h"
#include "checker/grade/cases.h"
#include "checker/grade/judge.h"
#include "checker/grade/metrics.h"
#include "checker/grade/signature.h"
#include "checker/util/shell.h"
#include "checker/grade/reference.h"
#include "checker/ptx/kernel_lookup.h"
#include "checker/report/profile_report.h"

namespace tilecamp::grade {
namespace {

constexpr const char* k_constants_kernel = "tilecamp_launch_constants";

// A kernel compiled after the learner's file that writes back the launch constants it defines,
// so the checker learns TILE_DIM and friends without running any of the learner's host code.
std::string constants_source(const Exercise& exercise) {
  std::string source;
  for (const std::string& name : exercise.required_constants) {
    source += "#ifndef " + name + "\n#error \"" + name +
              " is not defined: the checker reads it to size the launch; keep its #define\"\n#endif\n";
  }
  source += std::string("extern \"C\" __global__ void ") + k_constants_kernel + "(long long* out) {\n";
  int index = 0;
  for (const std::string& name : exercise.required_constants) {
    source += fmt::format("  out[{}] = (long long)({});\n", index++, name);
  }
  for (const auto& [name, fallback] : exercise.optional_constants) {
    source += fmt::format("#ifdef {0}\n  out[{1}] = 1; out[{2}] = (long long)({0});\n#else\n  out[{1}] = 0;\n#endif\n",
                          name, index, index + 1);
    index += 2;
  }
  return source + "}\n";
}

// "TILE_DIM, BLOCK_ROWS": the constants an exercise reads from the learner's file.
std::string constants_list(const Exercise& exercise) {
  std::string names;
  for (const std::string& name : exercise.required_constants) names += (names.empty() ? "" : ", ") + name;
  for (const auto& [name, fallback] : exercise.optional_constants) names += (names.empty() ? "" : ", ") + name;
  return names;
}

Expected<Bindings> read_constants(const Exercise& exercise, Backend& backend) {
  const size_t count = exercise.required_constants.size() + 2 * exercise.optional_constants.size();
  Bindings constants;
  if (count == 0) return constants;
  LaunchRequest request;
  request.kernel = k_constants_kernel;
  request.config.grid = request.config.block = {1, 1, 1};
  request.buffers = {{"constants", std::vector<uint8_t>(count * 8, 0)}};
  request.arguments = {{{}, 0}};
  TC_TRY_ASSIGN(LaunchOutcome outcome, backend.launch(request));
  for (const Diagnostic& diagnostic : outcome.profile.diagnostics) {
    if (diagnostic.severity == Severity::Error) return make_error(diagnostic.message);
  }
  auto value_at = [&](size_t i) {
    int64_t value;
    std::memcpy(&value, outcome.buffers[0].data() + i * 8, 8);
    return value;
  };
  size_t index = 0;
  for (const std::string& name : exercise.required_constants) constants[name] = value_at(index++);
  for (const auto& [name, fallback] : exercise.optional_constants) {
    if (value_at(index) != 0) constants[name] = value_at(index + 1);
    index += 2;
  }
  for (const auto& [name, fallback] : exercise.optional_constants) {  // defaults may name the others
    if (constants.count(name)) continue;
    TC_TRY_ASSIGN(int64_t value, evaluate(fallback, constants));
    constants[name] = value;
  }
  return constants;
}

// A block's warps: its threads in groups of 32, the last one perhaps partial.
double warps_per_block(const LaunchConfig& config) { return static_cast<double>((config.block.count() + 31) / 32); }

// A line of the source without its indent, for a message that quotes it.
std::string source_line(const std::string& text, int line) {
  const std::string current = physical_line(text, line);
  const size_t start = current.find_first_not_of(" \t");
  return start == std::string::npos ? "" : current.substr(start);
}

// The source line where a ratio metric is worst, for a message that points at the code.
std::string worst_line(const LaunchResult& result, const std::string& metric, const std::string& source,
                       const std::string& exercise, const std::string& explain_file) {
  const LineProfile* worst = nullptr;
  double worst_value = -1;
  for (const LineProfile& line : result.lines) {
    MetricInputs inputs;
    inputs.counters = &line.counters;
    auto value = metric_value(inputs, metric);
    if (value && *value > worst_value) {
      worst_value = *value;
      worst = &line;
    }
  }
  if (worst == nullptr || worst->line == 0) return "";
  return fmt::format("line {} `{}` ({:g}); see: tilecamp explain {} --line {}{}", worst->line,
                     source_line(source, worst->line), worst_value, exercise, worst->line,
                     explain_file.empty() ? "" : " --file " + shell_quoted(explain_file));
}

// 404736 for a count, 4.00 for a ratio.
std::string figure_text(double value) {
  return value == std::floor(value) && value >= 100 ? fmt::format("{:.0f}", value) : fmt::format("{:.2f}", value);
}

std::string first_compile_error(const std::vector<CompileDiagnostic>& diagnostics, const std::string& log) {
  for (const CompileDiagnostic& d : diagnostics) {
    if (d.severity != "error") continue;
    std::string first =
        d.line > 0 ? fmt::format("{}:{}:{}: {}", d.file, d.line, d.column, d.message) : d.file + ": " + d.message;
    if (!d.source_line.empty() && d.column > 0) {  // the line itself, and a caret under the column
      first += "\n  " + d.source_line + "\n  " + std::string(static_cast<size_t>(d.column - 1), ' ') + "^";
    }
    return first;
  }
  return log;
}

bool read_text(const std::filesystem::path& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

// A kernel of the exercise folder (the reference or the baseline), compiled and loaded into a
// backend of its own.
struct HelperKernel {
  std::unique_ptr<Backend> backend;
  std::string entry;  // the PTX entry name
  std::optional<KernelResources> resources;  // its registers and shared memory
};

Expected<HelperKernel> load_helper_kernel(const Exercise& exercise, const KernelFile& kernel, Compiler& compiler,
                                          const Backend& like) {
  const std::filesystem::path path = exercise.directory / kernel.file;
  SourceFile source{path.string(), ""};
  if (!read_text(path, source.text)) return make_error("cannot read " + path.string());
  CompileOptions options;
  options.arch = like.arch();
  TC_TRY_ASSIGN(CompileResult compiled, compiler.compile(source, options));
  if (!compiled.ok) return make_error(path.string() + " does not compile: " + first_compile_error(compiled.diagnostics, compiled.log));
  HelperKernel helper{like.another(), ""};
  TC_TRY(helper.backend->load(compiled.ptx));
  TC_TRY_ASSIGN(helper.entry, ptx::resolve_kernel_name(helper.backend->module(), kernel.kernel));
  if (const KernelResources* resources = find_resources(compiled.resources, helper.entry)) helper.resources = *resources;
  return helper;
}

class Grader {
 public:
  Grader(const Exercise& exercise, const SourceFile& source, Compiler& compiler, Backend& backend,
         const GradeOptions& options)
      : m_exercise(exercise), m_source(source), m_compiler(compiler), m_backend(backend), m_options(options) {
    m_verdict.exercise = exercise.name;
    m_verdict.file = source.path;
    m_verdict.backend = backend.name();
    m_verdict.seed = options.seed;
  }

  Verdict run() {
    if (!compile()) return finish();
    auto constants = read_constants(m_exercise, m_backend);
    if (!constants) {  // the learner's #defines: e.g. a constant that divides by zero
      add(CheckKind::Compile, CheckStatus::Fail, "launch constants can be read",
          "evaluating your launch constants (" + constants_list(m_exercise) + ") failed: " + constants.error());
      return finish();
    }
    m_constants = *constants;
    for (const auto& [name, value] : m_constants) m_verdict.constants[name] = value;
    auto kernel = ptx::resolve_kernel_name(m_backend.module(), m_exercise.kernel);
    if (!kernel) {
      add(CheckKind::Compile, CheckStatus::Fail, "kernel `" + m_exercise.kernel + "` is defined", kernel.error());
      return finish();
    }
    m_kernel = *kernel;
    if (std::string mismatch = signature_mismatch(m_exercise, m_backend.module(), m_kernel); !mismatch.empty()) {
      add(CheckKind::Compile, CheckStatus::Fail, "kernel `" + m_exercise.kernel + "` takes the exercise's parameters", mismatch);
      return finish();
    }
    if (!m_exercise.reference.kernel.file.empty()) {
      auto reference = load_helper_kernel(m_exercise, m_exercise.reference.kernel, m_compiler, m_backend);
      if (!reference) return error("the exercise's reference kernel: " + reference.error());
      m_reference = std::move(*reference);
    }
    bool all_correct = true, safe = true;
    int hidden_index = 0;
    for (const ProblemCase& problem_case : draw_cases(m_exercise.problem, m_options.seed, !m_backend.counts())) {
      if (m_options.performance_case_only && !problem_case.performance) continue;
      const std::string shape = case_shape(m_exercise.problem, problem_case);
      const std::string name = problem_case.performance ? "performance case (" + shape + ")"
                               : problem_case.hidden    ? fmt::format("hidden case {} ({})", ++hidden_index, shape)
                                                        : "public case " + shape;
      const size_t first_check = m_verdict.checks.size();
      const CaseResult result = run_case(problem_case, name);
      for (size_t i = first_check; i < m_verdict.checks.size(); ++i) m_verdict.checks[i].hidden = problem_case.hidden;
      if (result == CaseResult::Error) return finish();
      all_correct &= result == CaseResult::Passed;
      safe &= result != CaseResult::Unsafe;
      if (m_stop) break;
    }
    if (safe && !m_stop) {
      add(CheckKind::Safety, CheckStatus::Pass, "no races, deadlocks or invalid memory accesses", "");
    }
    if (!m_options.cases_only && !m_options.performance_case_only) check_thresholds(all_correct);
    return finish();
  }

 private:
  enum class CaseResult { Passed, Wrong, Unsafe, Error };

  bool compile() {
    CompileOptions options;
    options.arch = m_backend.arch();
    options.appended_source = constants_source(m_exercise);
    auto compiled = m_compiler.compile(m_source, options);
    if (!compiled) {
      error(compiled.error());
      return false;
    }
    for (CompileDiagnostic& diagnostic : compiled->diagnostics) {
      if (diagnostic.file == k_appended_source_name) {  // our generated code: blame the constant, not a line
        diagnostic.file = m_source.path;
        diagnostic.line = 0;
        diagnostic.column = 0;
        diagnostic.source_line.clear();
      } else if (diagnostic.file == m_source.path) {
        // The line as the learner wrote it, from this process's copy: never the compiler's words.
        if (!diagnostic.source_line.empty()) diagnostic.source_line = physical_line(m_source.text, diagnostic.line);
        if (m_options.own_words_only) diagnostic.message = mask_foreign_quotes(diagnostic.message, m_source.text);
      }
    }
    for (Diagnostic& diagnostic : report::compile_diagnostics(compiled->diagnostics)) {
      m_verdict.diagnostics.push_back(std::move(diagnostic));
    }
    if (!compiled->ok) {
      add(CheckKind::Compile, CheckStatus::Fail, "compiles", first_compile_error(compiled->diagnostics, compiled->log));
      return false;
    }
    m_ptx = compiled->ptx;
    m_resources = compiled->resources;
    auto loaded = m_backend.load(compiled->ptx);
    if (!loaded) {  // PTX tilecamp cannot read (or a GPU's driver refuses): the kernel's finding
      add(CheckKind::Compile, CheckStatus::Fail, "compiles",
          "it compiled, but the " + m_backend.name() + " cannot load its PTX: " + loaded.error());
      return false;
    }
    add(CheckKind::Compile, CheckStatus::Pass, "compiles", "");
    return true;
  }

  Bindings names_for(const CaseData& data) const {
    Bindings names = data.dims;
    for (const auto& [name, value] : m_constants) names[name] = value;
    return names;
  }

  // The kernel's printf output of the first public case that printed, cut to what a screen holds.
  void keep_printed(const ProblemCase& problem_case, const std::string& name, const std::string& output) {
    if (problem_case.hidden || problem_case.performance || output.empty() || m_verdict.printed) return;
    Verdict::Printed printed{name, "", false};
    size_t lines = 0, at = 0;
    while (at < output.size() && lines < k_printed_lines && printed.text.size() < k_printed_bytes) {
      size_t end = output.find('\n', at);
      end = end == std::string::npos ? output.size() : end + 1;
      printed.text += output.substr(at, std::min(end - at, k_printed_bytes - printed.text.size()));
      at = end;
      ++lines;
    }
    printed.truncated = at < output.size();
    m_verdict.printed = std::move(printed);
  }

  CaseResult run_case(const ProblemCase& problem_case, const std::string& name) {
    m_in_hidden_case = problem_case.hidden;
    auto data = make_case_data(m_exercise, problem_case, m_options.seed * 1000003 + m_case_counter++);
    if (!data) {
      error("case " + name + ": " + data.error());
      return CaseResult::Error;
    }
    if (problem_case.performance && m_options.performance_case_only) m_options.performance_case_only(problem_case, *data);
    auto config = launch_config(m_exercise.launch, names_for(*data));
    if (!config) {  // the learner's constants make no valid launch
      add(CheckKind::Correctness, CheckStatus::Fail, name, config.error());
      m_stop = true;
      return CaseResult::Wrong;
    }
    note_resources(*config);
    LaunchRequest request{m_kernel, *config, data->buffers, data->arguments, {}, {}};
    if (problem_case.performance) request.config.observer = m_options.observer;
    auto outcome = m_backend.launch(request);
    if (!outcome) {  // e.g. the learner changed the kernel's parameters
      add(CheckKind::Correctness, CheckStatus::Fail, name, outcome.error());
      m_stop = true;
      return CaseResult::Wrong;
    }
    show_path_as_given(outcome->profile, m_source.path);
    keep_printed(problem_case, name, outcome->profile.output);
    std::string unsafe = safety_problem(outcome->profile);
    // A GPU runs a race, a divergent barrier or a small overrun without complaint: the emulator
    // runs every emulator-sized case too, for what only it can see.
    if (unsafe.empty() && !m_backend.counts() && !(problem_case.performance && !m_exercise.problem.gpu_performance.empty())) {
      auto emulator = make_emulator();
      auto emulated = emulator && (*emulator)->load(m_ptx) ? (*emulator)->launch(request)
                                                           : Expected<LaunchOutcome>(make_error("no emulator"));
      if (emulated) {
        show_path_as_given(emulated->profile, m_source.path);
        keep_printed(problem_case, name, emulated->profile.output);
        unsafe = safety_problem(emulated->profile);
      }
    }
    if (!unsafe.empty()) {
      add(CheckKind::Safety, CheckStatus::Fail, name, unsafe);
      m_stop = true;  // the same problem would repeat in every case
      return CaseResult::Unsafe;
    }
    auto expected = expected_buffers(*data);
    if (!expected) {
      error(expected.error());
      return CaseResult::Error;
    }
    const CaseJudgement judgement = judge_case(m_exercise, *data, *expected, outcome->buffers, *config);
    add(CheckKind::Correctness, judgement.passed ? CheckStatus::Pass : CheckStatus::Fail, name, judgement.message);
    if (!judgement.passed) return CaseResult::Wrong;
    if (problem_case.performance) {
      m_performance = Performance{std::move(*data), *config, std::move(outcome->profile)};
    }
    return CaseResult::Passed;
  }

  // The first error among the emulator's findings, else the first warning this exercise treats as
  // one: a deadlock outranks the early exit that often comes with it.
  std::string safety_problem(const LaunchResult& result) {
    const Diagnostic* error = nullptr;
    const Diagnostic* promoted = nullptr;
    for (const Diagnostic& diagnostic : result.diagnostics) {
      note_diagnostic(diagnostic);
      if (diagnostic.severity == Severity::Error) {
        if (error == nullptr) error = &diagnostic;
      } else if (promoted == nullptr && std::find(m_exercise.errors.begin(), m_exercise.errors.end(),
                                                  diagnostic.kind) != m_exercise.errors.end()) {
        promoted = &diagnostic;
      }
    }
    const Diagnostic* chosen = error != nullptr ? error : promoted;
    if (chosen == nullptr) return "";
    std::string problem = (chosen->line > 0 ? fmt::format("line {}: ", chosen->line) : "") + chosen->message;
    if (chosen == promoted) problem += "\n  (this exercise treats `" + chosen->kind + "` as an error)";
    if (chosen->kind.starts_with("gpu-")) {  // a GPU names no line: the emulator does
      problem += "\n  run it on the emulator to find the line: tilecamp check " + m_exercise.name + " --backend emulator";
    }
    return problem;
  }

  Expected<std::vector<std::vector<uint8_t>>> expected_buffers(const CaseData& data) {
    if (!m_reference) return run_builtin_reference(m_exercise, data);
    TC_TRY_ASSIGN(LaunchConfig config, launch_config(m_exercise.reference.kernel.launch, data.dims));
    LaunchRequest request{m_reference->entry, config, data.buffers, data.arguments, {}, {}};
    TC_TRY_ASSIGN(LaunchOutcome outcome, m_reference->backend->launch(request));
    if (outcome.profile.has_error()) return make_error("the exercise's reference kernel failed on this case");
    return std::move(outcome.buffers);
  }

  // Keeps one of each finding; one a public case also shows is no longer hidden.
  void note_diagnostic(const Diagnostic& diagnostic) {
    for (Diagnostic& seen : m_verdict.diagnostics) {
      if (seen.kind == diagnostic.kind && seen.line == diagnostic.line && seen.file == diagnostic.file) {
        seen.hidden &= m_in_hidden_case;
        return;
      }
    }
    m_verdict.diagnostics.push_back(diagnostic);
    m_verdict.diagnostics.back().hidden = m_in_hidden_case;
  }

  // A kernel's modelled time on `data` (its buffers made zeroed where it runs), from a sample of its
  // blocks (model/sampling.h): the time the GPU's timed size would take.
  struct Modelled {
    double seconds = 0;
    std::string failure;  // the kernel's own error on this case, when it stopped
  };
  static Expected<Modelled> sampled_time(Backend& backend, const std::string& entry,
                                         const std::optional<KernelResources>& resources, const LaunchConfig& shape,
                                         const CaseData& data, const model::GpuSpec& gpu) {
    LaunchRequest request{entry, shape, data.buffers, data.arguments, {}, {}};
    if (!shape.cooperative) {  // a cooperative grid's blocks wait for each other: all of them run
      request.config.sample_blocks = model::sample_blocks(shape.grid);
      request.config.sample_uniform_after = model::k_uniform_after;
    }
    TC_TRY_ASSIGN(LaunchOutcome outcome, backend.launch(request));
    for (const Diagnostic& diagnostic : outcome.profile.diagnostics) {
      if (diagnostic.severity == Severity::Error) {
        return Modelled{0, (diagnostic.line > 0 ? fmt::format("line {}: ", diagnostic.line) : "") + diagnostic.message};
      }
    }
    double footprint = 0;
    for (const BufferData& buffer : data.buffers) footprint += static_cast<double>(buffer.zero_bytes);
    const Counters totals = shape.cooperative ? outcome.profile.totals
                                              : model::extrapolate(shape.grid, request.config.sample_blocks,
                                                                   outcome.profile.block_counters);
    return Modelled{model::model_cost(gpu, {totals, shape.grid, shape.block, footprint, resources, shape.dynamic_shared_bytes}).total_s, ""};
  }

  // The baseline's modelled time over the learner's: at the size a GPU times (gpu_performance),
  // sampled, when the exercise has one; else on the performance case.
  Expected<std::optional<double>> modelled_speedup(const LaunchResult& learner) {
    TC_TRY_ASSIGN(model::GpuSpec gpu, model::find_gpu(m_options.gpu));
    if (!m_exercise.problem.gpu_performance.empty()) return modelled_speedup_at_timed_size(gpu);
    TC_TRY_ASSIGN(std::unique_ptr<Backend> like, make_emulator());
    TC_TRY_ASSIGN(HelperKernel baseline, load_helper_kernel(m_exercise, m_exercise.baseline, m_compiler, *like));
    const CaseData& data = m_performance->data;
    TC_TRY_ASSIGN(LaunchConfig config, launch_config(m_exercise.baseline.launch, data.dims));
    LaunchRequest request{baseline.entry, config, data.buffers, data.arguments, {}, {}};
    TC_TRY_ASSIGN(LaunchOutcome outcome, baseline.backend->launch(request));
    if (outcome.profile.has_error()) return make_error("the exercise's baseline kernel failed on the performance case");
    double footprint = 0;
    for (const BufferData& buffer : data.buffers) footprint += static_cast<double>(buffer.bytes.size());
    const double baseline_s = model::model_cost(gpu, {outcome.profile.totals, config.grid, config.block, footprint,
                                                      baseline.resources, config.dynamic_shared_bytes}).total_s;
    const LaunchConfig& shape = m_performance->config;
    const double learner_s = model::model_cost(gpu, {learner.totals, shape.grid, shape.block, footprint,
                                                     learner_resources(), shape.dynamic_shared_bytes}).total_s;
    m_speed_note = fmt::format("{:.1f} us against the baseline's {:.1f} us on the {} model", learner_s * 1e6,
                               baseline_s * 1e6, gpu.name);
    return std::optional<double>(baseline_s / learner_s);
  }

  Expected<std::optional<double>> modelled_speedup_at_timed_size(const model::GpuSpec& gpu) {
    const ProblemCase timed{m_exercise.problem.gpu_performance, true, true};
    TC_TRY_ASSIGN(CaseData data, make_case_data(m_exercise, timed, m_options.seed, true));
    TC_TRY_ASSIGN(LaunchConfig learner_shape, launch_config(m_exercise.launch, names_for(data)));
    TC_TRY_ASSIGN(Modelled learner, sampled_time(m_backend, m_kernel, learner_resources(), learner_shape, data, gpu));
    const std::string size = case_shape(m_exercise.problem, timed);
    if (!learner.failure.empty()) {
      m_speed_note = "at the timed size (" + size + ") the kernel stopped: " + learner.failure;
      return std::optional<double>();
    }
    TC_TRY_ASSIGN(std::unique_ptr<Backend> like, make_emulator());
    TC_TRY_ASSIGN(HelperKernel baseline, load_helper_kernel(m_exercise, m_exercise.baseline, m_compiler, *like));
    TC_TRY_ASSIGN(LaunchConfig baseline_shape, launch_config(m_exercise.baseline.launch, data.dims));
    TC_TRY_ASSIGN(Modelled base,
                  sampled_time(*baseline.backend, baseline.entry, baseline.resources, baseline_shape, data, gpu));
    if (!base.failure.empty()) return make_error("the exercise's baseline kernel failed at the timed size: " + base.failure);
    m_speed_note = fmt::format("{:.1f} us against the baseline's {:.1f} us on the {} model, at the size a GPU times ({})",
                               learner.seconds * 1e6, base.seconds * 1e6, gpu.name, size);
    return std::optional<double>(base.seconds / learner.seconds);
  }

  // On a GPU: the learner's kernel and the baseline timed on the performance case in the same
  // worker, and the timed run's outputs judged again (a kernel that skips work once its output
  // is there leaves the poison of the later runs behind).
  Expected<std::optional<double>> measured_speedup(const MetricInputs& inputs) {
    const CaseData& data = m_performance->data;
    LaunchRequest request{m_kernel, m_performance->config, data.buffers, data.arguments, {}, {}};
    request.timing.enabled = true;
    TC_TRY_ASSIGN(LaunchOutcome learner, m_backend.launch(request));
    if (std::string unsafe = safety_problem(learner.profile); !unsafe.empty()) return make_error("timed runs: " + unsafe);
    TC_TRY_ASSIGN(std::vector<std::vector<uint8_t>> expected, expected_buffers(data));
    const CaseJudgement judgement = judge_case(m_exercise, data, expected, learner.buffers, m_performance->config);
    add(CheckKind::Correctness, judgement.passed ? CheckStatus::Pass : CheckStatus::Fail,
        "performance case, after the timed runs", judgement.message).hidden = true;
    if (!judgement.passed) return std::optional<double>();  // reported just above
    if (!learner.timing) return make_error("the GPU returned no times");
    TC_TRY_ASSIGN(HelperKernel baseline, load_helper_kernel(m_exercise, m_exercise.baseline, m_compiler, m_backend));
    TC_TRY_ASSIGN(LaunchConfig config, launch_config(m_exercise.baseline.launch, data.dims));
    LaunchRequest base_request{baseline.entry, config, data.buffers, data.arguments, {}, {}};
    base_request.timing.enabled = true;
    TC_TRY_ASSIGN(LaunchOutcome base, baseline.backend->launch(base_request));
    if (base.profile.has_error() || !base.timing) return make_error("the exercise's baseline kernel failed on the GPU");
    const double learner_ms = learner.timing->median_ms, base_ms = base.timing->median_ms;
    m_speed_note = fmt::format("{:.4f} ms against the baseline's {:.4f} ms (medians of {} and {} runs)", learner_ms, base_ms,
                               learner.timing->repetitions, base.timing->repetitions);
    if (inputs.fmas > 0) {
      m_speed_note += fmt::format("; {:.2f} TFLOP/s", 2 * inputs.fmas / (learner_ms * 1e-3) / 1e12);
    } else {
      double bytes = 0;  // each input read once, each output written once
      for (const BufferData& buffer : data.buffers) {
        bytes += static_cast<double>(buffer.bytes.size()) * (buffer.role == BufferRole::InOut ? 2 : 1);
      }
      const double gbps = bytes / (learner_ms * 1e-3) / 1e9;
      m_speed_note += fmt::format("; {:.0f} GB/s", gbps);
      if (m_backend.copy_bandwidth_gbps() > 0) {
        m_speed_note += fmt::format(", {:.0f}% of this GPU's measured copy bandwidth ({:.0f} GB/s)",
                                    100 * gbps / m_backend.copy_bandwidth_gbps(), m_backend.copy_bandwidth_gbps());
      }
    }
    return std::optional<double>(base_ms / learner_ms);
  }

  // What a case's counted metrics are divided by: its output elements and multiply-adds.
  MetricInputs inputs_for(const CaseData& data) const {
    MetricInputs inputs;
    inputs.outputs = output_elements(m_exercise, data);
    if (!m_exercise.problem.fmas.empty()) inputs.fmas = static_cast<double>(evaluate(m_exercise.problem.fmas, data.dims).value());
    return inputs;
  }

  // A GPU has no cheap counters: the counted thresholds are measured by running the (emulator-
  // sized) performance case on the emulator, which also reports races and other findings there.
  struct Emulated {
    LaunchResult result;
    MetricInputs inputs;
    LaunchConfig config;
  };
  Expected<Emulated> emulate_performance_case() {
    TC_TRY_ASSIGN(std::unique_ptr<Backend> emulator, make_emulator());
    TC_TRY(emulator->load(m_ptx));
    TC_TRY_ASSIGN(CaseData data, make_case_data(m_exercise, {m_exercise.problem.performance, true, true}, m_options.seed));
    TC_TRY_ASSIGN(LaunchConfig config, launch_config(m_exercise.launch, names_for(data)));
    LaunchRequest request{m_kernel, config, data.buffers, data.arguments, {}, {}};
    TC_TRY_ASSIGN(LaunchOutcome outcome, emulator->launch(request));
    show_path_as_given(outcome.profile, m_source.path);
    if (std::string unsafe = safety_problem(outcome.profile); !unsafe.empty()) {
      add(CheckKind::Safety, CheckStatus::Fail, "performance case on the emulator", unsafe).hidden = true;
    }
    return Emulated{std::move(outcome.profile), inputs_for(data), config};
  }

  void check_thresholds(bool all_correct) {
    const bool on_gpu = !m_backend.counts();
    std::vector<Threshold> thresholds = m_exercise.emulator_thresholds;
    if (on_gpu) {
      std::erase_if(thresholds, [](const Threshold& t) { return t.metric == "modelled_speedup"; });
      thresholds.insert(thresholds.end(), m_exercise.gpu_thresholds.begin(), m_exercise.gpu_thresholds.end());
    }
    if (!all_correct || !m_performance) {
      for (const std::string& requirement : m_exercise.requirements) {
        add(CheckKind::Performance, CheckStatus::Skip, requirement_name(requirement), "skipped: every case must be correct first");
      }
      for (const Threshold& threshold : thresholds) {
        add(CheckKind::Performance, CheckStatus::Skip, threshold_name(threshold), "skipped: every case must be correct first");
      }
      return;
    }
    MetricInputs inputs = inputs_for(m_performance->data);  // the case that ran on this backend
    inputs.counters = &m_performance->result.totals;
    if (!on_gpu) {
      inputs.shared_bytes_per_block = m_performance->result.shared_bytes_per_block;
      inputs.blocks = static_cast<double>(m_performance->config.grid.count());
      inputs.warps = inputs.blocks * warps_per_block(m_performance->config);
    }
    std::optional<Emulated> emulated;
    const bool counts_needed = !m_exercise.requirements.empty() ||
                               std::any_of(thresholds.begin(), thresholds.end(), [](const Threshold& t) { return !metric_is_speedup(t.metric); });
    if (on_gpu && counts_needed) {
      auto result = emulate_performance_case();
      if (!result) {
        add(CheckKind::Performance, CheckStatus::Error, "counted metrics on the emulator", result.error());
        return;
      }
      emulated = std::move(*result);
      emulated->inputs.counters = &emulated->result.totals;
      emulated->inputs.shared_bytes_per_block = emulated->result.shared_bytes_per_block;
      emulated->inputs.blocks = static_cast<double>(emulated->config.grid.count());
      emulated->inputs.warps = emulated->inputs.blocks * warps_per_block(emulated->config);
    }
    const LaunchResult& counted = emulated ? emulated->result : m_performance->result;
    for (const std::string& requirement : m_exercise.requirements) check_requirement(requirement, counted.totals);
    for (const Threshold& threshold : thresholds) {
      if (threshold.metric == "modelled_speedup" || threshold.metric == "speedup") {
        auto speedup = threshold.metric == "speedup" ? measured_speedup(inputs) : modelled_speedup(counted);
        if (!speedup) {
          add(CheckKind::Performance, CheckStatus::Error, threshold_name(threshold), speedup.error());
          continue;
        }
        if (!*speedup && threshold.metric == "modelled_speedup") {  // the kernel stopped at the timed size
          add(CheckKind::Performance, CheckStatus::Fail, threshold_name(threshold), m_speed_note);
          continue;
        }
        if (!*speedup) {
          add(CheckKind::Performance, CheckStatus::Skip, threshold_name(threshold),
              "skipped: the outputs of the timed runs are wrong");
          continue;
        }
        (threshold.metric == "speedup" ? inputs.speedup : inputs.modelled_speedup) = **speedup;
        check_threshold(threshold, inputs, counted);
        continue;
      }
      check_threshold(threshold, emulated ? emulated->inputs : inputs, counted);
    }
  }

  static std::string requirement_name(const std::string& requirement) {
    return requirement == "shared_memory" ? "stages data through shared memory (this exercise's technique)"
           : requirement == "barrier"     ? "synchronizes its block with __syncthreads() (this exercise's technique)"
                                          : "multiplies on the tensor cores (this exercise's technique)";
  }

  // A technique the exercise teaches, on the performance case's counters: a kernel that is correct
  // without it has not shown it, however fast it is.
  void check_requirement(const std::string& requirement, const Counters& totals) {
    std::string missing;
    // A tile filled by cp.async is written all the same, though no shared store counts it.
    const uint64_t writes = totals.shared_st_requests + totals.shared_async_st_requests;
    if (requirement == "shared_memory" && (writes == 0 || totals.shared_ld_requests == 0)) {
      missing = fmt::format("the kernel {} shared memory ({} shared loads, {} shared stores): this exercise asks for a tile "
                            "in shared memory that the block writes and then reads",
                            writes + totals.shared_ld_requests == 0 ? "uses no" : "does not both write and read",
                            totals.shared_ld_requests, writes);
    } else if (requirement == "barrier" && totals.barriers == 0) {
      missing = "the kernel reaches no __syncthreads(): this exercise is about the barrier between the threads that write "
                "shared memory and those that read it";
    } else if (requirement == "tensor_cores" && totals.tensor_instructions == 0) {
      missing = "the kernel executes no tensor-core instruction (mma.sync or wmma::mma_sync): its multiply-adds all ran "
                "on the FP32 lanes";
    }
    add(CheckKind::Performance, missing.empty() ? CheckStatus::Pass : CheckStatus::Fail, requirement_name(requirement), missing);
  }

  static std::string threshold_name(const Threshold& threshold) {
    return fmt::format("{} ({} {} {:g})", metric_label(threshold.metric), threshold.metric,
                       threshold.at_least ? ">=" : "<=", threshold.bound);
  }

  void check_threshold(const Threshold& threshold, const MetricInputs& inputs, const LaunchResult& counted) {
    const std::string name = threshold_name(threshold);
    auto value = metric_value(inputs, threshold.metric);
    if (!value) {
      add(CheckKind::Performance, CheckStatus::Fail, name,
          "the kernel made no such accesses (" + metric_explanation(threshold.metric) + ")");
      return;
    }
    const bool met = threshold.at_least ? *value >= threshold.bound - 1e-9 : *value <= threshold.bound + 1e-9;
    const std::string figure = metric_is_speedup(threshold.metric) ? fmt::format("{:.2f}x: {}", *value, m_speed_note)
                                                                      : figure_text(*value);
    Check& check = add(CheckKind::Performance, met ? CheckStatus::Pass : CheckStatus::Fail, name, figure);
    check.metric = threshold.metric;
    check.value = *value;
    check.threshold = threshold.bound;
    if (met) return;
    check.message += fmt::format(", {} {:g} needed: {}", threshold.at_least ? "at least" : "at most", threshold.bound,
                                 metric_explanation(threshold.metric));
    if (metric_has_lines(threshold.metric)) {
      const std::string where = worst_line(counted, threshold.metric, m_source.text, m_exercise.name,
                                             m_options.explain_file);
      if (!where.empty()) check.message += "\n  worst: " + where;
    }
  }

  // An emulator beside the backend: the options' (the sandbox's), else the backend's own kind when
  // it is one.
  Expected<std::unique_ptr<Backend>> make_emulator() const {
    if (m_options.emulator) return m_options.emulator();
    if (m_backend.counts()) return m_backend.another();
    return make_error("no emulator was given to grade beside the " + m_backend.name());
  }

  Check& add(CheckKind kind, CheckStatus status, std::string name, std::string message) {
    Check check;
    check.name = std::move(name);
    check.kind = kind;
    check.status = status;
    check.message = std::move(message);
    m_verdict.checks.push_back(std::move(check));
    return m_verdict.checks.back();
  }

  Verdict error(const std::string& message) {
    m_verdict.status = VerdictStatus::Error;
    m_verdict.error = message;
    return m_verdict;
  }

  std::optional<KernelResources> learner_resources() const {
    const KernelResources* kernel = find_resources(m_resources, m_kernel);
    return kernel != nullptr ? std::optional<KernelResources>(*kernel) : std::nullopt;
  }

  // The occupancy the kernel's registers and shared memory allow at this launch's block size.
  void note_resources(const LaunchConfig& config) {
    if (m_verdict.resources) return;
    const std::optional<KernelResources> kernel = learner_resources();
    if (!kernel) return;
    m_verdict.resources = Verdict::Resources{
        *kernel,
        model::compute_occupancy(model::h200_occupancy(), *kernel, config.block.count(), config.dynamic_shared_bytes),
        config.block.count(), config.dynamic_shared_bytes};
  }

  Verdict finish() {
    if (m_verdict.status != VerdictStatus::Error) settle_status(m_verdict);
    return m_verdict;
  }

  struct Performance {
    CaseData data;
    LaunchConfig config;
    LaunchResult result;
  };

  const Exercise& m_exercise;
  const SourceFile& m_source;
  Compiler& m_compiler;
  Backend& m_backend;
  const GradeOptions& m_options;
  Verdict m_verdict;
  Bindings m_constants;
  std::string m_kernel;                    // the learner's PTX entry name
  std::optional<HelperKernel> m_reference;  // when the reference is a kernel file
  std::optional<Performance> m_performance;  // the performance case's run, when it was correct
  std::string m_speed_note;  // the times behind a speedup
  std::string m_ptx;         // the learner's compiled module
  std::vector<KernelResources> m_resources;  // what ptxas gave each kernel of the module
  uint64_t m_case_counter = 0;
  bool m_stop = false;
  bool m_in_hidden_case = false;  // the case running now is hidden: its findings are marked so
};

}  // namespace

const char* check_status_name(CheckStatus status) {
  static const char* const k_names[] = {"pass", "fail", "skip", "error"};
  return k_names[static_cast<int>(status)];
}

const char* verdict_status_name(VerdictStatus status) {
  static const char* const k_names[] = {"pass", "fail", "error"};
  return k_names[static_cast<int>(status)];
}

const char* check_kind_name(CheckKind kind) {
  static const char* const k_names[] = {"compile", "correctness", "safety", "performance"};
  return k_names[static_cast<int>(kind)];
}

void settle_status(Verdict& verdict) {
  verdict.status = VerdictStatus::Pass;
  for (const Check& check : verdict.checks) {
    if (check.status == CheckStatus::Error) {
      verdict.status = VerdictStatus::Error;
      verdict.error = check.name + ": " + check.message;
      return;
    }
    if (check.status == CheckStatus::Fail) verdict.status = VerdictStatus::Fail;
  }
}

Verdict grade_exercise(const Exercise& exercise, const SourceFile& source, Compiler& compiler, Backend& backend,
                       const GradeOptions& options) {
  return Grader(exercise, source, compiler, backend, options).run();
}

}  // namespace tilecamp::grade
