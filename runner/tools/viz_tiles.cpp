// tilecamp viz tiles EXERCISE [--file PATH] [--block BX,BY] [--warp W] [--lane L] [--json]
// What one block, one warp and one thread of the learner's kernel read and wrote, level by level
// (global memory, shared memory, registers), on the exercise's performance case: the block tile,
// the warp tile and the thread tile of an SGEMM, drawn over A, B and C. The kernel runs in the
// sandbox, as `check` runs it; the inputs hold values that name their elements
// (checker/viz/tile_footprint.h), so a word read from shared memory says where it came from.
#include "runner/tools/viz_tiles.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "checker/grade/cases.h"
#include "checker/grade/grade.h"
#include "checker/viz/tile_footprint.h"
#include "runner/command.h"
#include "runner/grading.h"
#include "runner/learner/tty.h"
#include "runner/ptx_cache.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

using viz::k_block;
using viz::k_scopes;
using viz::k_thread;
using viz::k_warp;

std::string range_text(uint64_t first, uint64_t last) {
  return first == last ? std::to_string(first) : fmt::format("{}-{}", first, last);
}

std::string box_text(const viz::MatrixFootprint& matrix, int scope) {
  const auto& box = matrix.box[scope];
  if (box.empty) return "nothing";
  if (matrix.spec.rows == 1) return fmt::format("{} elements in {}", matrix.count[scope], range_text(box.col0, box.col1));
  return fmt::format("{} elements in rows {}, columns {}", matrix.count[scope], range_text(box.row0, box.row1),
                     range_text(box.col0, box.col1));
}

std::string ratio(uint64_t numerator, uint64_t denominator) {
  if (denominator == 0) return "-";
  return fmt::format("{:.4g}", static_cast<double>(numerator) / static_cast<double>(denominator));
}

struct Summary {
  std::string exercise, file, kernel, shape;
  uint32_t threads_per_block = 0;
  Dim3 grid;
  std::optional<double> fmas_per_output;  // the exercise's multiply-adds over its outputs
  viz::Footprint footprint;
  std::vector<viz::MatrixFootprint> matrices;

  uint64_t outputs(int scope) const {
    uint64_t count = 0;
    for (const viz::MatrixFootprint& matrix : matrices) count += matrix.spec.output ? matrix.count[scope] : 0;
    return count;
  }
  uint64_t inputs_read(int scope) const {
    uint64_t count = 0;
    for (const viz::MatrixFootprint& matrix : matrices) count += matrix.spec.input ? matrix.count[scope] : 0;
    return count;
  }
  std::optional<uint64_t> fmas(int scope) const {
    if (!fmas_per_output) return std::nullopt;
    return static_cast<uint64_t>(*fmas_per_output * static_cast<double>(outputs(scope)) + 0.5);
  }
};

std::string scope_title(const Summary& summary, int scope) {
  const viz::FootprintTarget& target = summary.footprint.target;
  if (scope == k_block) return fmt::format("block ({},{})", target.block.x, target.block.y);
  if (scope == k_warp) return fmt::format("warp {}", target.warp);
  return fmt::format("thread {}", target.warp * 32 + target.lane);
}

std::string table(const Summary& summary) {
  std::string out = fmt::format("{:<30}{:>16}{:>14}{:>14}\n", "", scope_title(summary, k_block), scope_title(summary, k_warp),
                                scope_title(summary, k_thread));
  auto row = [&](const std::string& label, auto value) {
    out += fmt::format("{:<30}{:>16}{:>14}{:>14}\n", label, value(k_block), value(k_warp), value(k_thread));
  };
  auto count = [&](auto member, bool cost) {
    return [&summary, member, cost](int scope) -> std::string {
      const viz::LevelCount& level = summary.footprint.scopes[scope].*member;
      if (cost && scope == k_thread) return "-";
      return std::to_string(cost ? level.cost : level.requests);
    };
  };
  auto bytes_per_fma = [&](auto member) {
    return [&summary, member](int scope) -> std::string {
      const auto fmas = summary.fmas(scope);
      return fmas ? ratio((summary.footprint.scopes[scope].*member).bytes, *fmas) : "-";
    };
  };
  using viz::ScopeRecord;
  row("outputs written", [&](int scope) { return std::to_string(summary.outputs(scope)); });
  if (summary.fmas_per_output) row("multiply-adds", [&](int scope) { return std::to_string(*summary.fmas(scope)); });
  out += "global memory\n";
  row("  load requests", count(&ScopeRecord::global_loads, false));
  row("  load sectors", count(&ScopeRecord::global_loads, true));
  row("  bytes loaded", [&](int scope) { return std::to_string(summary.footprint.scopes[scope].global_loads.bytes); });
  if (summary.fmas_per_output) row("  bytes per multiply-add", bytes_per_fma(&ScopeRecord::global_loads));
  row("  store requests", count(&ScopeRecord::global_stores, false));
  out += "shared memory\n";
  row("  store requests", count(&ScopeRecord::shared_stores, false));
  row("  store wavefronts", count(&ScopeRecord::shared_stores, true));
  row("  load requests", count(&ScopeRecord::shared_loads, false));
  row("  load wavefronts", count(&ScopeRecord::shared_loads, true));
  row("  bytes loaded", [&](int scope) { return std::to_string(summary.footprint.scopes[scope].shared_loads.bytes); });
  if (summary.fmas_per_output) {
    row("  bytes per multiply-add", bytes_per_fma(&ScopeRecord::shared_loads));
    row("  wavefronts per FMA instr.", [&](int scope) -> std::string {
      if (scope == k_thread) return "-";
      return ratio(summary.footprint.scopes[scope].shared_loads.cost * 32, *summary.fmas(scope));
    });
  }
  out += "inputs\n";
  row("  elements read", [&](int scope) { return std::to_string(summary.inputs_read(scope)); });
  row("  elements read per output", [&](int scope) { return ratio(summary.inputs_read(scope), summary.outputs(scope)); });
  return out;
}

std::string describe_matrices(const Summary& summary) {
  std::string out;
  for (const viz::MatrixFootprint& matrix : summary.matrices) {
    if (matrix.spec.input) {
      out += fmt::format("{}: {} loaded {} from global memory\n", matrix.spec.name, scope_title(summary, k_block),
                         box_text(matrix, k_block));
      for (int scope : {k_warp, k_thread}) {
        out += fmt::format("  {} read {} {}\n", scope_title(summary, scope), box_text(matrix, scope),
                           matrix.through_shared[scope] ? "from shared memory" : "from global memory");
      }
    } else {
      out += fmt::format("{}: {} wrote {}\n", matrix.spec.name, scope_title(summary, k_block), box_text(matrix, k_block));
      for (int scope : {k_warp, k_thread}) out += fmt::format("  {} wrote {}\n", scope_title(summary, scope), box_text(matrix, scope));
    }
  }
  return out;
}

// Two columns of drawings: the inputs' first matrix under nothing, then the others; an SGEMM's
// B is drawn over C and A beside C, as on paper.
std::string maps(const Summary& summary) {
  std::vector<std::vector<std::string>> drawings;
  for (const viz::MatrixFootprint& matrix : summary.matrices) drawings.push_back(viz::draw_footprint(matrix, 16, 32));
  std::string out;
  auto width = [](const std::vector<std::string>& lines) {
    size_t most = 0;
    for (const std::string& line : lines) most = std::max(most, line.size());
    return most;
  };
  auto side_by_side = [&](const std::vector<std::string>& left, const std::vector<std::string>& right, size_t left_width) {
    for (size_t i = 0; i < std::max(left.size(), right.size()); ++i) {
      std::string line = i < left.size() ? left[i] : "";
      if (i < right.size()) line += std::string(left_width + 3 - line.size(), ' ') + right[i];
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  };
  if (drawings.size() == 3 && summary.matrices[0].spec.input && summary.matrices[1].spec.input && summary.matrices[2].spec.output) {
    const size_t left = std::max<size_t>(width(drawings[0]), 20);
    side_by_side({}, drawings[1], left);
    out += "\n";
    side_by_side(drawings[0], drawings[2], left);
  } else {
    for (size_t i = 0; i < drawings.size(); i += 2) {
      if (i + 1 < drawings.size()) {
        side_by_side(drawings[i], drawings[i + 1], width(drawings[i]));
      } else {
        side_by_side(drawings[i], {}, 0);
      }
      out += "\n";
    }
  }
  return out;
}

nlohmann::json level_json(const viz::LevelCount& level, const char* cost_name) {
  return {{"requests", level.requests}, {"bytes", level.bytes}, {cost_name, level.cost}};
}

nlohmann::json summary_json(const Summary& summary) {
  const viz::FootprintTarget& target = summary.footprint.target;
  nlohmann::json scopes = nlohmann::json::object();
  const char* k_names[k_scopes] = {"block", "warp", "thread"};
  for (int scope = 0; scope < k_scopes; ++scope) {
    const viz::ScopeRecord& record = summary.footprint.scopes[scope];
    nlohmann::json matrices = nlohmann::json::object();
    for (const viz::MatrixFootprint& matrix : summary.matrices) {
      const auto& box = matrix.box[scope];
      nlohmann::json entry = {{"elements", matrix.count[scope]}};
      entry[matrix.spec.input ? "read_from" : "written_to"] =
          matrix.spec.input ? (matrix.through_shared[scope] ? "shared" : "global") : "global";
      entry["rows"] = box.empty ? nlohmann::json(nullptr) : nlohmann::json::array({box.row0, box.row1});
      entry["columns"] = box.empty ? nlohmann::json(nullptr) : nlohmann::json::array({box.col0, box.col1});
      matrices[matrix.spec.name] = entry;
    }
    const auto fmas = summary.fmas(scope);
    scopes[k_names[scope]] = {
        {"outputs", summary.outputs(scope)},
        {"multiply_adds", fmas ? nlohmann::json(*fmas) : nlohmann::json(nullptr)},
        {"global_loads", level_json(record.global_loads, "sectors")},
        {"global_stores", level_json(record.global_stores, "sectors")},
        {"shared_loads", level_json(record.shared_loads, "wavefronts")},
        {"shared_stores", level_json(record.shared_stores, "wavefronts")},
        {"matrices", matrices},
    };
  }
  return {{"exercise", summary.exercise},
          {"file", summary.file},
          {"kernel", summary.kernel},
          {"case", summary.shape},
          {"grid", {summary.grid.x, summary.grid.y, summary.grid.z}},
          {"threads_per_block", summary.threads_per_block},
          {"block", {target.block.x, target.block.y, target.block.z}},
          {"warp", target.warp},
          {"thread", target.warp * 32 + target.lane},
          {"truncated", summary.footprint.truncated},
          {"scopes", scopes}};
}

}  // namespace

int run_viz_tiles(const VizTilesOptions& options) {
  auto found = find_exercise_file(options.exercise, options.file);
  if (!found) return fail_with_code(found.error(), k_exit_usage);
  const grade::Exercise* exercise = &found->exercise;
  const SourceFile& source = found->source;
  if (options.lane >= 32) return fail_with_code(fmt::format("--lane {}: a warp has lanes 0 to 31", options.lane), k_exit_usage);

  viz::TileFootprint observer({{options.block_x, options.block_y, 0}, options.warp, options.lane});
  Summary summary;
  summary.exercise = exercise->name;
  summary.file = source.path;
  summary.kernel = exercise->kernel;
  std::string setup_error;
  std::vector<viz::MatrixSpec> specs;
  grade::Bindings names;
  grade::GradeOptions grading;
  grading.cases_only = true;
  grading.observer = &observer;
  grading.performance_case_only = [&](const grade::ProblemCase& problem_case, grade::CaseData& data) {
    auto made = viz::code_case_inputs(*exercise, data);
    if (!made) {
      setup_error = made.error();
      return;
    }
    specs = std::move(*made);
    names = data.dims;
    summary.shape = grade::case_shape(exercise->problem, problem_case);
    if (!exercise->problem.fmas.empty()) {
      auto fmas = grade::evaluate(exercise->problem.fmas, data.dims);
      const double outputs = grade::output_elements(*exercise, data);
      if (fmas && outputs > 0) summary.fmas_per_output = static_cast<double>(*fmas) / outputs;
    }
  };
  auto sandbox = open_sandbox(options.sandbox, false);
  if (!sandbox) return fail_with_code(sandbox.error(), k_exit_usage);
  grading.emulator = [sandbox = *sandbox] { return sandbox->emulator(); };
  std::unique_ptr<Compiler> compiler = cached_compiler(**sandbox);
  std::unique_ptr<Backend> emulator = (*sandbox)->emulator();
  const grade::Verdict verdict = grade::grade_exercise(*exercise, source, *compiler, *emulator, grading);
  if (!setup_error.empty()) return fail_with_code(setup_error, k_exit_failed);
  if (specs.empty()) {
    return fail_with_code("the kernel did not run, so there is nothing to draw: " + stopping_failure(verdict) + "\n  (tilecamp check " + exercise->name +
                         " shows every check)",
                     k_exit_failed);
  }
  for (const auto& [name, value] : verdict.constants) names[name] = value;
  if (auto config = grade::launch_config(exercise->launch, names)) {
    summary.grid = config->grid;
    summary.threads_per_block = static_cast<uint32_t>(config->block.count());
  }
  if (options.block_x >= summary.grid.x || options.block_y >= summary.grid.y) {
    return fail_with_code(fmt::format("--block {},{}: the performance case ({}) has a grid of {} x {} blocks", options.block_x,
                                 options.block_y, summary.shape, summary.grid.x, summary.grid.y),
                     k_exit_usage);
  }
  if (uint64_t{options.warp} * 32 >= summary.threads_per_block) {
    return fail_with_code(fmt::format("--warp {}: a block of the performance case has {} threads, warps 0 to {}", options.warp,
                                 summary.threads_per_block, (summary.threads_per_block + 31) / 32 - 1),
                     k_exit_usage);
  }
  summary.footprint = observer.footprint();
  if (!summary.footprint.block_ran) {
    return fail_with_code(fmt::format("block ({},{}) made no global or shared access in the performance case ({})", options.block_x,
                                 options.block_y, summary.shape),
                     k_exit_failed);
  }
  summary.matrices = viz::matrix_footprints(summary.footprint, specs);
  if (options.json) {
    std::cout << summary_json(summary).dump(2) << "\n";
    return k_exit_ok;
  }
  const report::Style style = style_for(stdout);
  std::cout << style.bold(exercise->name) << "  " << source.path << " on the emulator\n"
            << "  performance case " << summary.shape << ": " << summary.grid.x << " x " << summary.grid.y << " blocks of "
            << summary.threads_per_block << " threads\n  each column counts what that block, warp or thread did itself\n\n"
            << table(summary) << "\n"
            << describe_matrices(summary) << "\n"
            << maps(summary)
            << "# thread " << summary.footprint.target.warp * 32 + summary.footprint.target.lane << "   w warp "
            << summary.footprint.target.warp << "   o the block   . none of them (inputs: read; outputs: written)\n";
  if (summary.footprint.truncated) std::cout << style.dim("note: the block read more words than are kept; its counts are whole, its drawing is not") << "\n";
  return k_exit_ok;
}

}  // namespace tilecamp::runner
