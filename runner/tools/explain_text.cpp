#include "runner/tools/explain_text.h"

#include <fmt/format.h>

#include <bit>
#include <charconv>

#include "checker/viz/access_map.h"
#include "runner/learner/ansi_text.h"

namespace tilecamp::runner {
namespace {

constexpr size_t k_width = 80;
constexpr const char* k_indent = "  ";

std::string source_text(const std::string& source, int line) {
  const std::vector<std::string> lines = split_lines(source);
  if (line < 1 || static_cast<size_t>(line) > lines.size()) return "";
  const std::string& text = lines[static_cast<size_t>(line - 1)];
  const size_t start = text.find_first_not_of(" \t");
  return start == std::string::npos ? "" : text.substr(start);
}

std::string block_text(const Dim3& block) { return fmt::format("({},{},{})", block.x, block.y, block.z); }

std::string access_kind(const viz::RecordedAccess& access) {
  return fmt::format("{} {}", access.space == ptx::Space::Shared ? "shared" : "global", access.is_store ? "store" : "load");
}

// The two header rows of a 32-column map: the tens digit (where it changes) and the units.
std::string column_heading(const char* name, size_t columns) {
  std::string tens = fmt::format("{}{:<8}", k_indent, name), units = std::string(2 + 8, ' ');
  for (size_t column = 0; column < columns; ++column) {
    tens += column % 10 == 0 ? static_cast<char>('0' + column / 10 % 10) : ' ';
    units += static_cast<char>('0' + column % 10);
  }
  while (tens.back() == ' ') tens.pop_back();
  return tens + "\n" + units + "\n";
}

void add_wrapped(std::string& out, const std::string& text, const std::string& indent = "") {
  for (const std::string& line : wrap_line(indent + text, k_width)) out += line + "\n";
}

char bank_glyph(viz::BankCell cell) {
  switch (cell) {
    case viz::BankCell::Empty: return '.';
    case viz::BankCell::Alone: return 'o';
    case viz::BankCell::Broadcast: return '=';
    case viz::BankCell::Conflict: return 'X';
  }
  return '?';
}

std::string styled_glyph(char glyph, const report::Style& style) {
  const std::string text(1, glyph);
  if (glyph == 'X') return style.red(text);
  if (glyph == '=') return style.cyan(text);
  if (glyph == 'o' || glyph == '#') return style.green(text);
  return style.dim(text);
}

std::string lane_label(int lane) { return fmt::format("{}lane {:>2} ", k_indent, lane); }

// "word 32 of `tile`", "words 64-67 of `tile`": where a lane's shared bytes lie.
std::string shared_place(const viz::RecordedAccess& access, const viz::BankMap& map, int lane) {
  const uint64_t first = (map.addresses[lane] - access.variable_offset) / emu::k_bank_word_bytes;
  const uint64_t last = first + (map.bytes - 1) / emu::k_bank_word_bytes;
  const std::string words = first == last ? fmt::format("word {}", first) : fmt::format("words {}-{}", first, last);
  return access.variable.empty() ? words : fmt::format("{} of `{}`", words, access.variable);
}

std::string draw_banks(const viz::RecordedAccess& access, const viz::BankMap& map, const report::Style& style) {
  std::string out = column_heading("bank", emu::k_bank_count);
  for (int lane = 0; lane < emu::k_warp_size; ++lane) {
    if (map.phases > 1 && lane % map.lanes_per_phase() == 0) {
      out += fmt::format("{}phase {} (lanes {}-{}):\n", k_indent, lane / map.lanes_per_phase() + 1, lane,
                         lane + map.lanes_per_phase() - 1);
    }
    if (!(map.lanes >> lane & 1u)) {
      out += lane_label(lane) + style.dim("(not active)") + "\n";
      continue;
    }
    out += lane_label(lane);
    for (viz::BankCell cell : map.cells[size_t(lane)]) out += styled_glyph(bank_glyph(cell), style);
    out += "  " + shared_place(access, map, lane) + "\n";
  }
  out += fmt::format("{0}o: the bank serves this lane's word, and no other\n"
                     "{0}=: the bank serves one word to several lanes at once (a broadcast)\n"
                     "{0}X: the bank must serve several different words, one wavefront each\n",
                     k_indent);
  for (size_t phase = 0; phase < map.words_per_bank.size(); ++phase) {
    const auto& counts = map.words_per_bank[phase];
    uint32_t busiest = 0, bank = 0;
    for (uint32_t b = 0; b < emu::k_bank_count; ++b) {
      if (counts[b] > busiest) busiest = counts[b], bank = b;
    }
    if (busiest == 0) continue;
    out += fmt::format("{}{}the busiest bank is {}: {} different word{}, so {} wavefront{}\n", k_indent,
                       map.phases > 1 ? fmt::format("phase {}: ", phase + 1) : "", bank, busiest,
                       busiest == 1 ? "" : "s", busiest, busiest == 1 ? "" : "s");
  }
  return out;
}

std::string draw_sectors(const viz::SectorMap& map, const report::Style& style) {
  std::string out = column_heading("sector", map.sectors.size());
  const int first_lane = std::countr_zero(map.lanes);
  for (int lane = 0; lane < emu::k_warp_size; ++lane) {
    if (!(map.lanes >> lane & 1u)) {
      out += lane_label(lane) + style.dim("(not active)") + "\n";
      continue;
    }
    std::string row(map.sectors.size(), '.');
    for (size_t column : map.columns(lane)) row[column] = '#';
    out += lane_label(lane);
    for (char glyph : row) out += styled_glyph(glyph, style);
    const int64_t offset = static_cast<int64_t>(map.addresses[lane] - map.addresses[first_lane]);
    out += fmt::format("  {}{} bytes\n", offset >= 0 ? "+" : "", offset);
  }
  out += fmt::format("{0}#: the lane's {1} bytes lie in this sector; the columns are the 32-byte sectors\n"
                     "{0}the warp touches, in address order; on the right, each lane's address\n"
                     "{0}counted from lane {2}'s\n",
                     k_indent, map.bytes, first_lane);
  return out;
}

// "shared load, the costliest of line 44's 13056 shared loads (417792 wavefronts):" and who made it.
std::string access_heading(const viz::RecordedAccess& access, int line, const viz::AccessKind& kind, const char* unit) {
  return fmt::format("{}, the costliest of line {}'s {} {}{} ({} {}):\n{}warp {} of block {}, {} lane{} x {} bytes\n",
                     access_kind(access), line, kind.requests, access_kind(access), kind.requests == 1 ? "" : "s",
                     kind.cost, unit, k_indent, access.warp, block_text(access.block), std::popcount(access.lanes),
                     std::popcount(access.lanes) == 1 ? "" : "s", access.bytes);
}

std::string explain_shared(const viz::LineAccesses& line, const viz::AccessKind& kind, const report::Style& style) {
  const viz::RecordedAccess& access = *kind.worst;
  std::string out = access_heading(access, line.line, kind, "wavefronts");
  out += fmt::format("{}{} wavefront{} where {} would do ({} bank conflict{})\n", k_indent, access.cost,
                     access.cost == 1 ? "" : "s", access.ideal, access.excess(), access.excess() == 1 ? "" : "s");
  const auto map = viz::map_banks(access.addresses, access.lanes, access.bytes, access.fused_bytes, access.fused_first);
  if (!map) return out;  // never: a recorded access is one that was charged
  if (map->bytes != access.bytes) {
    out += fmt::format("{}ptxas merges it with its neighbours into one {}-byte access per lane, drawn here\n", k_indent,
                       map->bytes);
  }
  out += "\n" + draw_banks(access, *map, style);
  add_wrapped(out, style.bold("fix: ") + viz::bank_advice(*map), k_indent);
  return out;
}

std::string explain_global(const viz::LineAccesses& line, const viz::AccessKind& kind, const report::Style& style) {
  const viz::RecordedAccess& access = *kind.worst;
  std::string out = access_heading(access, line.line, kind, "sectors");
  out += fmt::format("{}{} sector{} of 32 bytes where {} would do\n\n", k_indent, access.cost,
                     access.cost == 1 ? "" : "s", access.ideal);
  const viz::SectorMap map = viz::map_sectors(access.addresses, access.lanes, access.bytes);
  out += draw_sectors(map, style);
  add_wrapped(out, style.bold("fix: ") + viz::sector_advice(map), k_indent);
  return out;
}

std::string explain_kind(const viz::LineAccesses& line, const viz::AccessKind& kind, const report::Style& style) {
  return kind.worst->space == ptx::Space::Shared ? explain_shared(line, kind, style) : explain_global(line, kind, style);
}

// "line 28  out[...] = ...", cut to the width of the rest.
std::string line_heading(const viz::LineAccesses& line, const std::string& source, const report::Style& style) {
  const std::string label = fmt::format("line {}", line.line);
  std::string text = source_text(source, line.line);
  const size_t room = k_width - label.size() - 2;
  if (visible_width(text) > room) text = truncate_visible(text, room - 3) + "...";
  return style.bold(label) + "  " + text + "\n";
}

// "(ptxas merges this line's shared loads into line 13's access, which is charged for them and drawn
// with line 13)", or nothing.
std::string merged_note(const viz::LineAccesses& line) {
  if (line.merged_into.empty()) return "";
  std::string lines;
  for (int other : line.merged_into) lines += (lines.empty() ? "" : " and ") + std::to_string(other);
  std::string out;
  add_wrapped(out, fmt::format("ptxas merged line {}'s shared accesses ({} request{}) with line {}'s into one wider "
                               "access per lane, charged to line {} and drawn there (--line {}).",
                               line.line, line.merged_requests, line.merged_requests == 1 ? "" : "s", lines,
                               *line.merged_into.begin(), *line.merged_into.begin()));
  return out;
}

// The worst line of one kind of access (shared or global) drawn, or a sentence when it wastes nothing.
std::string explain_worst(const viz::LineAccesses* line, bool shared, const std::string& source,
                          const report::Style& style) {
  const char* kind = shared ? "shared-memory" : "global";
  if (line == nullptr) {
    return fmt::format("{} memory: the kernel makes no {} load or store.\n", shared ? "shared" : "global", kind);
  }
  const viz::AccessKind& worst = *line->worst(shared);
  if (worst.worst->excess() > 0) {
    return fmt::format("the worst {} access:\n", kind) + line_heading(*line, source, style) + "\n" +
           explain_kind(*line, worst, style);
  }
  std::string out;
  add_wrapped(out, std::string(shared ? "shared memory: no bank conflicts; every request costs the fewest wavefronts"
                                      : "global memory: coalesced; every request touches the fewest sectors") +
                       fmt::format(" it can (line {} the most: {}).", line->line, worst.worst->cost));
  return out;
}

}  // namespace

std::string explain_line(const viz::LineAccesses& line, const std::string& source, const report::Style& style) {
  std::string out = line_heading(line, source, style);
  for (bool shared : {true, false}) {
    // Every kind that wastes, the worst first; when none does, the costliest one alone.
    const std::vector<const viz::AccessKind*> kinds = line.kinds(shared);
    for (size_t i = 0; i < kinds.size(); ++i) {
      if (i > 0 && kinds[i]->worst->excess() == 0) break;
      out += "\n" + explain_kind(line, *kinds[i], style);
    }
  }
  if (!line.merged_into.empty()) out += "\n" + merged_note(line);
  return out;
}

std::string explain_kernel(const viz::WorstAccessFinder& finder, const std::string& source, const report::Style& style) {
  return explain_worst(finder.worst_shared_line(), true, source, style) + "\n" +
         explain_worst(finder.worst_global_line(), false, source, style);
}

std::string no_access_at(const viz::WorstAccessFinder& finder, int line, const std::string& source) {
  const size_t count = split_lines(source).size();
  if (!source.empty() && static_cast<size_t>(line) > count) {
    return fmt::format("line {} is past the end of the kernel: the file has {} line{}", line, count,
                       count == 1 ? "" : "s");
  }
  std::string lines;
  for (const auto& [key, accesses] : finder.lines()) {
    if (accesses.line > 0 && accesses.has_charged_access()) {
      lines += (lines.empty() ? "" : ", ") + std::to_string(accesses.line);
    }
  }
  return fmt::format("line {} makes no global or shared-memory access; the lines that do: {}", line, lines);
}

std::string check_line_number(const std::string& text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 1) {
    return "expected a line number, 1 or more (got '" + text + "')";
  }
  return "";
}

}  // namespace tilecamp::runner
