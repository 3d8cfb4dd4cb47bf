#include "checker/report/profile_report.h"

#include "checker/report/occupancy_text.h"
#include "checker/report/roofline_text.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <sstream>

namespace tilecamp::report {
namespace {

std::string dim3_text(const Dim3& d) { return fmt::format("{},{},{}", d.x, d.y, d.z); }

nlohmann::ordered_json dim3_json(const Dim3& d) { return nlohmann::ordered_json::array({d.x, d.y, d.z}); }

void add_counters(nlohmann::ordered_json& object, const Counters& counters) {
  counters.for_each([&](const char* name, uint64_t value) { object[name] = value; });
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string trimmed(std::string text, size_t width) {
  const size_t start = text.find_first_not_of(" \t");
  text = start == std::string::npos ? "" : text.substr(start);
  for (char& c : text) {
    if (c == '\t') c = ' ';
  }
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  return text;
}

// One row of the per-line table: counters grouped by memory, so a bad line stands out.
struct Column {
  const char* heading;
  uint64_t Counters::*field;
};

constexpr Column k_columns[] = {
    {"gld req", &Counters::global_ld_requests},
    {"gld sect", &Counters::global_ld_sectors},
    {"gst req", &Counters::global_st_requests},
    {"gst sect", &Counters::global_st_sectors},
    {"sld req", &Counters::shared_ld_requests},
    {"sld wavef", &Counters::shared_ld_wavefronts},
    {"sld confl", &Counters::shared_ld_bank_conflicts},
    {"sst req", &Counters::shared_st_requests},
    {"sst wavef", &Counters::shared_st_wavefronts},
    {"sst confl", &Counters::shared_st_bank_conflicts},
    {"instr", &Counters::warp_instructions},
    {"diverg", &Counters::divergent_warp_instructions},
    {"barriers", &Counters::barriers},
    {"gatom req", &Counters::global_atom_requests},
    {"satom req", &Counters::shared_atom_requests},
    {"lld req", &Counters::local_ld_requests},
    {"lst req", &Counters::local_st_requests},
};

// A line whose accesses cost more than the ideal: uncoalesced global or conflicting shared.
bool is_costly(const Counters& c) {
  return c.shared_ld_bank_conflicts > 0 || c.shared_st_bank_conflicts > 0 ||
         c.global_ld_sectors > 4 * c.global_ld_requests || c.global_st_sectors > 4 * c.global_st_requests;
}

// Where the kernel sits against its GPU's roofline; nothing when the backend counted nothing (a
// GPU times a kernel but does not count its FLOPs) or the GPU is unknown.
std::optional<model::Roofline> roofline_of(const profile::ProfileReport& report) {
  Expected<model::GpuSpec> gpu = model::find_gpu(report.gpu);
  if (!gpu || report.result.totals.warp_instructions == 0) return std::nullopt;
  return model::place_on_roofline(*gpu, report.result.totals, report.modelled.dram_bytes, report.modelled.total_s);
}

}  // namespace

std::vector<Diagnostic> compile_diagnostics(const std::vector<CompileDiagnostic>& diagnostics) {
  std::vector<Diagnostic> result;
  for (const CompileDiagnostic& d : diagnostics) {
    std::string message = d.message;
    if (d.column > 0) message = "column " + std::to_string(d.column) + ": " + message;
    result.push_back({d.severity == "warning" ? Severity::Warning : Severity::Error, d.kind.empty() ? "compile" : d.kind,
                      d.file, d.line, message});
  }
  return result;
}

std::string diagnostic_text(const Diagnostic& d, const Style& style) {
  const std::string severity = d.severity == Severity::Error ? style.red("error") : style.yellow("warning");
  std::string where = d.file.empty() ? "" : d.file + (d.line > 0 ? ":" + std::to_string(d.line) : "") + ": ";
  return fmt::format("{}: {}{} [{}]", severity, style.bold(where), d.message, d.kind);
}

nlohmann::ordered_json diagnostic_json(const Diagnostic& d) {
  return {{"severity", severity_name(d.severity)}, {"kind", d.kind}, {"file", d.file},
          {"line", d.line}, {"message", d.message}};
}

std::string profile_text(const profile::ProfileReport& report, const std::string& source, const Style& style) {
  std::string out;
  if (!report.compiled) {
    for (const Diagnostic& d : compile_diagnostics(report.compile_diagnostics)) out += diagnostic_text(d, style) + "\n";
    return out;
  }
  const LaunchResult& result = report.result;
  out += fmt::format("{}  grid {}  block {}{}\n", style.bold(report.kernel), dim3_text(report.grid),
                     dim3_text(report.block), result.completed ? "" : style.red("  (stopped by an error)"));
  if (report.sampled_blocks > 0) {
    out += style.dim(fmt::format("sampled: {} of the grid's {} blocks ran, on zeroed buffers; the totals are the grid's "
                                 "estimate, the lines those of the blocks that ran",
                                 report.sampled_blocks, report.grid.count())) +
           "\n";
  }
  out += "\n";
  out += style.bold("totals") + "\n";
  result.totals.for_each([&](const char* name, uint64_t value) { out += fmt::format("  {:<26}{:>14}\n", name, value); });
  out += fmt::format("  {:<26}{:>14.2f}  ({}-bound, cost model)\n", "modelled_time_us (" + report.gpu + ")",
                     report.modelled.total_s * 1e6, report.modelled.bound);
  if (report.measured) {
    out += fmt::format("  {:<26}{:>14.2f}  (median of {} runs on {}, min {:.2f}, max {:.2f})\n", "measured_time_us",
                       report.measured->median_ms * 1e3, report.measured->repetitions, report.measured_on,
                       report.measured->min_ms * 1e3, report.measured->max_ms * 1e3);
  }
  if (report.resources && report.occupancy) {
    out += "\n" + occupancy_text(*report.resources, *report.occupancy, report.dynamic_shared_bytes, report.gpu, style);
  }
  if (const auto roofline = roofline_of(report)) out += "\n" + roofline_text(*roofline, report.gpu, style);
  const std::vector<std::string> source_lines = split_lines(source);
  out += "\n" + style.bold("per source line") + "\n";
  // Only the counters this kernel touched, so the table fits a terminal.
  std::vector<const Column*> columns;
  for (const Column& column : k_columns) {
    if (result.totals.*column.field != 0) columns.push_back(&column);
  }
  std::string header = fmt::format("  {:>5}  {:<36}", "line", "source");
  for (const Column* column : columns) header += fmt::format(" {:>9}", column->heading);
  out += style.dim(header) + "\n";
  for (const LineProfile& line : result.lines) {
    std::string text;
    if (line.file != report.path) {  // an included header: name it instead of showing its code
      text = "(" + std::filesystem::path(line.file).filename().string() + ")";
    } else if (line.line > 0 && line.line <= static_cast<int>(source_lines.size())) {
      text = source_lines[line.line - 1];
    }
    std::string row = fmt::format("  {:>5}  {:<36}", line.line, trimmed(text, 36));
    for (const Column* column : columns) row += fmt::format(" {:>9}", line.counters.*column->field);
    out += (is_costly(line.counters) ? style.yellow(row) : row) + "\n";
  }
  if (!result.output.empty()) {
    out += "\n" + style.bold("printf output") + "\n" + result.output;
    if (result.output.back() != '\n') out += "\n";
  }
  if (!result.diagnostics.empty()) {
    out += "\n" + style.bold("diagnostics") + "\n";
    for (const Diagnostic& d : result.diagnostics) out += "  " + diagnostic_text(d, style) + "\n";
  }
  return out;
}

nlohmann::ordered_json profile_json(const profile::ProfileReport& report) {
  nlohmann::ordered_json json;
  json["kernel"] = report.kernel;
  json["grid"] = dim3_json(report.grid);
  json["block"] = dim3_json(report.block);
  json["totals"] = nlohmann::ordered_json::object();
  json["lines"] = nlohmann::ordered_json::array();
  json["diagnostics"] = nlohmann::ordered_json::array();
  if (!report.compiled) {
    for (const Diagnostic& d : compile_diagnostics(report.compile_diagnostics)) {
      json["diagnostics"].push_back(diagnostic_json(d));
    }
    return json;
  }
  json["mangled"] = report.mangled;
  json["completed"] = report.result.completed;
  add_counters(json["totals"], report.result.totals);
  json["totals"]["modelled_time_us"] = report.modelled.total_s * 1e6;
  json["gpu"] = report.gpu;
  if (report.sampled_blocks > 0) {
    json["sampled"] = {{"blocks_run", report.sampled_blocks}, {"blocks", report.grid.count()}};
  }
  if (report.measured) {
    json["measured"] = {{"device", report.measured_on},
                        {"median_us", report.measured->median_ms * 1e3},
                        {"min_us", report.measured->min_ms * 1e3},
                        {"max_us", report.measured->max_ms * 1e3},
                        {"repetitions", report.measured->repetitions}};
  }
  if (report.resources && report.occupancy) {
    json["occupancy"] = occupancy_json(*report.resources, *report.occupancy, report.dynamic_shared_bytes);
  }
  if (const auto roofline = roofline_of(report)) json["roofline"] = roofline_json(*roofline);
  for (const LineProfile& line : report.result.lines) {
    nlohmann::ordered_json row = {{"file", line.file}, {"line", line.line}};
    add_counters(row, line.counters);
    json["lines"].push_back(std::move(row));
  }
  for (const Diagnostic& d : report.result.diagnostics) json["diagnostics"].push_back(diagnostic_json(d));
  json["output"] = report.result.output;
  return json;
}

}  // namespace tilecamp::report
