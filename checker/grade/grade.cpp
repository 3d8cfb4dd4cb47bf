#include "checker/grade/grade.h"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <sstream>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/grade/metrics.h"
#include "checker/grade/problem.h"
#include "checker/ptx/kernel_lookup.h"
#include "checker/report/profile_report.h"

namespace tilecamp::grade {
namespace {

constexpr const char* k_constants_kernel = "tilecamp_launch_constants";

// A kernel compiled after the learner's file that writes back the launch constants it defines,
// so the checker learns TILE_DIM and friends without running any of the learner's host code.
std::string constants_source(const Exercise& exercise) {
  std::string source;
  for (const std::string& name : exercise.launch_constants) {
    source += "#ifndef " + name + "\n#error \"" + name + " is not defined: the checker reads it to size the launch; keep its #define\"\n#endif\n";
  }
  source += std::string("extern \"C\" __global__ void ") + k_constants_kernel + "(long long* out) {\n";
  int index = 0;
  for (const std::string& name : exercise.launch_constants) {
    source += fmt::format("  out[{}] = (long long)({});\n", index++, name);
  }
  for (const std::string& name : exercise.optional_launch_constants) {
    source += fmt::format("#ifdef {0}\n  out[{1}] = (long long)({0});\n#else\n  out[{1}] = -1;\n#endif\n", name, index++);
  }
  return source + "}\n";
}

Expected<LaunchConstants> read_constants(const Exercise& exercise, Backend& backend) {
  const size_t count = exercise.launch_constants.size() + exercise.optional_launch_constants.size();
  LaunchConstants constants;
  if (count == 0) return constants;
  LaunchRequest request;
  request.kernel = k_constants_kernel;
  request.buffers = {{"constants", std::vector<uint8_t>(count * 8, 0)}};
  request.arguments = {{{}, 0}};
  TC_TRY_ASSIGN(LaunchOutcome outcome, backend.launch(request));
  if (outcome.profile.has_error()) return make_error("could not read the launch constants");
  size_t index = 0;
  auto value_at = [&](size_t i) {
    int64_t value;
    std::memcpy(&value, outcome.buffers[0].data() + i * 8, 8);
    return value;
  };
  for (const std::string& name : exercise.launch_constants) constants[name] = value_at(index++);
  for (const std::string& name : exercise.optional_launch_constants) {
    const int64_t value = value_at(index++);
    if (value != -1) constants[name] = value;
  }
  return constants;
}

std::string source_line(const std::string& text, int line) {
  std::istringstream in(text);
  std::string current;
  for (int i = 1; std::getline(in, current); ++i) {
    if (i == line) {
      const size_t start = current.find_first_not_of(" \t");
      return start == std::string::npos ? "" : current.substr(start);
    }
  }
  return "";
}

// The source line where a ratio metric is worst, for a message that points at the code.
std::string worst_line(const emu::LaunchResult& result, const std::string& metric, const std::string& source) {
  const emu::LineProfile* worst = nullptr;
  double worst_value = -1;
  for (const emu::LineProfile& line : result.lines) {
    auto value = metric_value(line.counters, metric);
    if (value && *value > worst_value) {
      worst_value = *value;
      worst = &line;
    }
  }
  if (worst == nullptr || worst->line == 0) return "";
  return fmt::format("line {} `{}` ({:.1f})", worst->line, source_line(source, worst->line), worst_value);
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
    auto problem = make_problem(m_exercise.problem);
    if (!problem) return error(problem.error());
    if (!compile()) return finish();
    auto constants = read_constants(m_exercise, m_backend);
    if (!constants) return error(constants.error());
    for (const auto& [name, value] : *constants) m_verdict.constants[name] = value;
    auto kernel = ptx::resolve_kernel_name(m_backend.module(), m_exercise.kernel);
    if (!kernel) {
      add(CheckStatus::Fail, "kernel `" + m_exercise.kernel + "` is defined", kernel.error());
      return finish();
    }
    bool all_correct = true;
    int hidden_index = 0;
    for (const ProblemCase& problem_case : (*problem)->cases(m_options.seed)) {
      const std::string name = problem_case.hidden
                                   ? fmt::format("hidden case {} ({})", ++hidden_index, problem_case.shape)
                                   : "public case " + problem_case.shape;
      auto result = run_case(**problem, problem_case, *constants, *kernel, name);
      if (!result) return error(result.error());
      if (!result->passed) all_correct = false;
      if (problem_case.performance && result->passed) m_performance_result = std::move(result->profile);
      if (m_stop) break;
    }
    check_thresholds(all_correct && m_performance_result ? &*m_performance_result : nullptr);
    return finish();
  }

 private:
  struct CaseOutcome {
    bool passed = false;
    emu::LaunchResult profile;
  };

  bool compile() {
    CompileOptions options;
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
      }
    }
    for (Diagnostic& diagnostic : report::compile_diagnostics(compiled->diagnostics)) {
      m_verdict.diagnostics.push_back(std::move(diagnostic));
    }
    if (!compiled->ok) {
      std::string first;
      for (const CompileDiagnostic& d : compiled->diagnostics) {
        if (d.severity != "error") continue;
        first = d.line > 0 ? fmt::format("{}:{}:{}: {}", d.file, d.line, d.column, d.message) : d.file + ": " + d.message;
        if (!d.source_line.empty() && d.column > 0) {  // the line itself, and a caret under the column
          first += "\n  " + d.source_line + "\n  " + std::string(static_cast<size_t>(d.column - 1), ' ') + "^";
        }
        break;
      }
      add(CheckStatus::Fail, "compiles", first.empty() ? compiled->log : first);
      return false;
    }
    auto loaded = m_backend.load(compiled->ptx);
    if (!loaded) {
      error(loaded.error());
      return false;
    }
    add(CheckStatus::Pass, "compiles", "");
    return true;
  }

  Expected<CaseOutcome> run_case(const Problem& problem, const ProblemCase& problem_case,
                                 const LaunchConstants& constants, const std::string& kernel, const std::string& name) {
    CaseOutcome result;
    auto request = problem.make_launch(problem_case, constants, m_options.seed + m_case_counter++);
    if (!request) {
      add(CheckStatus::Fail, name, request.error());
      m_stop = true;
      return result;
    }
    request->kernel = kernel;
    auto outcome = m_backend.launch(*request);
    if (!outcome) {  // e.g. the learner changed the kernel's parameters
      add(CheckStatus::Fail, name, outcome.error());
      m_stop = true;
      return result;
    }
    emu::show_path_as_given(outcome->profile, m_source.path);
    std::string error_message;
    for (const Diagnostic& diagnostic : outcome->profile.diagnostics) {
      note_diagnostic(diagnostic);
      if (diagnostic.severity == Severity::Error && error_message.empty()) {
        error_message = (diagnostic.line > 0 ? fmt::format("line {}: ", diagnostic.line) : "") + diagnostic.message;
      }
    }
    if (!error_message.empty()) {
      add(CheckStatus::Fail, name, error_message);
      m_stop = true;  // the same error would repeat in every case
      return result;
    }
    CaseJudgement judgement = problem.judge(problem_case, constants, *request, *outcome);
    add(judgement.passed ? CheckStatus::Pass : CheckStatus::Fail, name, judgement.message);
    result.passed = judgement.passed;
    result.profile = std::move(outcome->profile);
    return result;
  }

  void note_diagnostic(const Diagnostic& diagnostic) {
    for (const Diagnostic& seen : m_verdict.diagnostics) {
      if (seen.kind == diagnostic.kind && seen.line == diagnostic.line && seen.file == diagnostic.file) return;
    }
    m_verdict.diagnostics.push_back(diagnostic);
  }

  void check_thresholds(const emu::LaunchResult* performance) {
    for (const Threshold& threshold : m_exercise.emulator_thresholds) {
      const std::string name =
          fmt::format("{} ({} <= {:g})", metric_label(threshold.metric), threshold.metric, threshold.max);
      if (performance == nullptr) {
        add(CheckStatus::Skip, name, "skipped: the kernel must be correct first");
        continue;
      }
      auto value = metric_value(performance->totals, threshold.metric);
      if (!value) {
        add(CheckStatus::Fail, name, "the kernel made no such accesses (" + metric_explanation(threshold.metric) + ")");
        continue;
      }
      if (*value <= threshold.max + 1e-9) {
        add(CheckStatus::Pass, name, fmt::format("{:.2f}", *value));
        continue;
      }
      std::string message = fmt::format("{:.2f}, at most {:g} allowed: {}", *value, threshold.max,
                                        metric_explanation(threshold.metric));
      const std::string where = worst_line(*performance, threshold.metric, m_source.text);
      if (!where.empty()) message += "\n  worst: " + where;
      add(CheckStatus::Fail, name, message);
    }
  }

  void add(CheckStatus status, std::string name, std::string message) {
    m_verdict.checks.push_back({std::move(name), status, std::move(message)});
  }

  Verdict error(const std::string& message) {
    m_verdict.status = VerdictStatus::Error;
    m_verdict.error = message;
    return m_verdict;
  }

  Verdict finish() {
    if (m_verdict.status == VerdictStatus::Error) return m_verdict;
    m_verdict.status = VerdictStatus::Pass;
    for (const Check& check : m_verdict.checks) {
      if (check.status == CheckStatus::Fail) m_verdict.status = VerdictStatus::Fail;
    }
    return m_verdict;
  }

  const Exercise& m_exercise;
  const SourceFile& m_source;
  Compiler& m_compiler;
  Backend& m_backend;
  const GradeOptions& m_options;
  Verdict m_verdict;
  std::optional<emu::LaunchResult> m_performance_result;  // the performance case's run
  uint64_t m_case_counter = 0;
  bool m_stop = false;
};

}  // namespace

const char* check_status_name(CheckStatus status) {
  static const char* const k_names[] = {"pass", "fail", "skip", "info"};
  return k_names[static_cast<int>(status)];
}

const char* verdict_status_name(VerdictStatus status) {
  static const char* const k_names[] = {"pass", "fail", "error"};
  return k_names[static_cast<int>(status)];
}

Verdict grade_exercise(const Exercise& exercise, const SourceFile& source, Compiler& compiler, Backend& backend,
                       const GradeOptions& options) {
  return Grader(exercise, source, compiler, backend, options).run();
}

}  // namespace tilecamp::grade
