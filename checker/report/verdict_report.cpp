#include "checker/report/verdict_report.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <filesystem>

#include "checker/report/occupancy_text.h"
#include "checker/report/profile_report.h"

namespace tilecamp::report {
namespace {

std::string mark(grade::CheckStatus status, const Style& style) {
  switch (status) {
    case grade::CheckStatus::Pass: return style.green("PASS");
    case grade::CheckStatus::Fail: return style.red("FAIL");
    case grade::CheckStatus::Skip: return style.dim("SKIP");
    case grade::CheckStatus::Error: return style.red("ERROR");
  }
  return "";
}

std::string indented(const std::string& text, const std::string& prefix) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += prefix + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

// The line a diagnostic points at, marked: "    > 24 | c[i] = a[i] + b[i];". Empty when the
// diagnostic is about another file (a header) or the source is not at hand.
std::string source_excerpt(const Diagnostic& d, const std::string& checked_file, std::string_view source,
                           const Style& style) {
  if (source.empty() || d.line <= 0) return "";
  if (d.file != checked_file && std::filesystem::path(d.file).filename() != std::filesystem::path(checked_file).filename()) {
    return "";
  }
  size_t start = 0;
  for (int line = 1; line < d.line && start != std::string_view::npos; ++line) {
    start = source.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start >= source.size()) return "";
  const size_t end = source.find('\n', start);
  std::string text(source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
  if (!text.empty() && text.back() == '\r') text.pop_back();
  const std::string marked = style.bold(text);
  const std::string gutter = fmt::format("    > {:>3} | ", d.line);
  return (d.severity == Severity::Error ? style.red(gutter) : style.yellow(gutter)) + marked + "\n";
}

// "occupancy: 38 registers, 8448 B shared memory: 6 blocks of 256 threads an SM, 48 of 64 warps
// (75%), limited by registers": what check says of the kernel's resources, on one line.
std::string occupancy_line(const grade::Verdict::Resources& r) {
  std::string line = fmt::format("occupancy on the H200: {} registers, {} B shared memory", r.kernel.registers,
                                 r.kernel.static_shared_bytes + r.dynamic_shared_bytes);
  if (r.kernel.local_bytes > 0) line += fmt::format(", {} B local", r.kernel.local_bytes);
  if (r.occupancy.blocks_per_sm == 0) return line + fmt::format(": a block of {} threads does not fit an SM ({})", r.threads_per_block, r.occupancy.limited_by);
  return line + fmt::format(": {} blocks of {} threads an SM, {} of 64 warps ({:.0f}%), limited by {}",
                            r.occupancy.blocks_per_sm, r.threads_per_block, r.occupancy.warps_per_sm,
                            r.occupancy.fraction * 100, r.occupancy.limited_by);
}

}  // namespace

std::string verdict_text(const grade::Verdict& verdict, const Style& style, const VerdictTextOptions& options) {
  std::string out = fmt::format("{}  {}\n", style.bold(verdict.exercise),
                                style.dim(fmt::format("{} on the {}, seed {}", verdict.file, verdict.backend, verdict.seed)));
  if (!verdict.constants.empty()) {
    std::string constants;
    for (const auto& [name, value] : verdict.constants) constants += fmt::format("{}{} = {}", constants.empty() ? "" : ", ", name, value);
    out += style.dim("  launch constants: " + constants) + "\n";
  }
  if (verdict.resources) out += style.dim("  " + occupancy_line(*verdict.resources)) + "\n";
  for (const grade::Check& check : verdict.checks) {
    const bool show_message = check.status != grade::CheckStatus::Pass || !check.message.empty();
    out += fmt::format("  {}  {}", mark(check.status, style), check.name);
    if (check.status == grade::CheckStatus::Pass && !check.message.empty()) {
      out += style.dim("  (" + check.message + ")") + "\n";
    } else if (show_message && check.status != grade::CheckStatus::Pass) {
      out += "\n" + indented(check.message, "        ");
    } else {
      out += "\n";
    }
  }
  if (verdict.printed) {
    out += "\n" + style.bold("  your kernel printed") + style.dim(" (" + verdict.printed->case_name + ")") + "\n" +
           indented(verdict.printed->text, "  | ");
    if (verdict.printed->truncated) {
      out += style.dim(fmt::format("  | ... cut after {} lines or {} bytes", grade::k_printed_lines, grade::k_printed_bytes)) +
             "\n";
    }
  }
  if (!verdict.diagnostics.empty()) {
    out += "\n";
    for (const Diagnostic& d : verdict.diagnostics) {
      out += "  " + diagnostic_text(d, style) + "\n" + source_excerpt(d, verdict.file, options.source, style);
    }
  }
  if (!options.next_step) return out;
  out += "\n";
  switch (verdict.status) {
    case grade::VerdictStatus::Pass:
      out += style.green(style.bold("PASSED")) + "  every check passed\n";
      break;
    case grade::VerdictStatus::Fail:
      out += style.red(style.bold("FAILED")) + "  fix the first failing check above and save; re-run the same check with --seed " +
             std::to_string(verdict.seed) + "\n";
      break;
    case grade::VerdictStatus::Error:
      out += style.red(style.bold("COULD NOT CHECK")) + "  " + verdict.error + "\n";
      break;
  }
  return out;
}

nlohmann::ordered_json verdict_json(const grade::Verdict& verdict) {
  nlohmann::ordered_json json;
  json["exercise"] = verdict.exercise;
  json["status"] = grade::verdict_status_name(verdict.status);
  json["file"] = verdict.file;
  json["backend"] = verdict.backend;
  json["seed"] = verdict.seed;
  if (!verdict.notes.empty()) json["notes"] = verdict.notes;
  if (verdict.status == grade::VerdictStatus::Error) json["error"] = verdict.error;
  json["constants"] = nlohmann::ordered_json::object();
  for (const auto& [name, value] : verdict.constants) json["constants"][name] = value;
  json["checks"] = nlohmann::ordered_json::array();
  for (const grade::Check& check : verdict.checks) {
    nlohmann::ordered_json item = {{"name", check.name},
                                   {"status", grade::check_status_name(check.status)},
                                   {"message", check.message},
                                   {"kind", grade::check_kind_name(check.kind)}};
    if (check.value) {
      item["metric"] = check.metric;
      item["value"] = *check.value;
      item["threshold"] = *check.threshold;
    }
    json["checks"].push_back(std::move(item));
  }
  json["diagnostics"] = nlohmann::ordered_json::array();
  for (const Diagnostic& d : verdict.diagnostics) json["diagnostics"].push_back(diagnostic_json(d));
  if (verdict.printed) {
    json["printed"] = {{"case", verdict.printed->case_name},
                       {"text", verdict.printed->text},
                       {"truncated", verdict.printed->truncated}};
  }
  if (verdict.resources) {
    const grade::Verdict::Resources& r = *verdict.resources;
    json["occupancy"] = occupancy_json(r.kernel, r.occupancy, r.dynamic_shared_bytes);
    json["occupancy"]["threads_per_block"] = r.threads_per_block;
  }
  if (verdict.ptx_cache) json["ptx_cache"] = {{"hits", verdict.ptx_cache->hits}, {"misses", verdict.ptx_cache->misses}};
  return json;
}

}  // namespace tilecamp::report
