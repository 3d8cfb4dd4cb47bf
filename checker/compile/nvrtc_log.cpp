#include "checker/compile/nvrtc_log.h"

#include <cctype>

#include <algorithm>
#include <optional>
#include <regex>
#include <string>

namespace tilecamp {
namespace {

// NVRTC indents the echoed source line and its caret line by this much.
constexpr std::size_t k_source_indent = 2;

// `FILE(LINE): SEVERITY[ #NUMBER-D]: MESSAGE`, `At end of source: SEVERITY: MESSAGE`, or a
// location-less `Command-line error: MESSAGE`. The file is matched lazily so that a message quoting
// "x(3): error:" cannot pass for the location.
const std::regex& header_pattern() {
  static const std::regex pattern(
      R"(^(?:(\S.*?)\((\d{1,9})\): |(At end of source): )?)"
      R"(((?:[A-Za-z-]+ )?error|warning|note|remark)(?: #\d+(?:-[A-Z])?)?: (.*)$)");
  return pattern;
}

struct Header {
  CompileDiagnostic diagnostic;
  bool is_note = false;  // notes and remarks elaborate the diagnostic before them
};

std::optional<Header> parse_header(std::string_view line, std::string_view end_of_source_file) {
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_match(line.begin(), line.end(), match, header_pattern())) return std::nullopt;
  Header header;
  const std::string severity = match[4].str();
  header.is_note = severity == "note" || severity == "remark";
  header.diagnostic.severity = severity == "warning" ? "warning" : "error";
  header.diagnostic.file = match[3].matched ? std::string(end_of_source_file) : match[1].str();
  header.diagnostic.line = match[2].matched ? std::stoi(match[2].str()) : 0;
  header.diagnostic.message = match[5].str();
  return header;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return lines;
}

bool starts_with_blank(std::string_view line) {
  return !line.empty() && (line.front() == ' ' || line.front() == '\t');
}

bool is_caret_line(std::string_view line) {
  const std::size_t caret = line.find('^');
  return caret != std::string_view::npos &&
         line.find_first_not_of(" \t") == caret &&
         line.find_first_not_of(" \t", caret + 1) == std::string_view::npos;
}

std::string_view strip_indent(std::string_view line) {
  return line.substr(std::min(k_source_indent, line.size()));
}

// Completes a diagnostic from the lines under its header: the last caret line gives the column
// and, just above it, the source line; every other line continues the message.
CompileDiagnostic finish(CompileDiagnostic diagnostic, const std::vector<std::string_view>& body) {
  std::size_t caret_index = body.size();
  for (std::size_t i = body.size(); i-- > 1;) {
    if (is_caret_line(body[i])) {
      caret_index = i;
      break;
    }
  }
  if (caret_index < body.size()) {
    diagnostic.source_line = std::string(strip_indent(body[caret_index - 1]));
    const std::size_t caret = body[caret_index].find('^');
    diagnostic.column = static_cast<int>(caret >= k_source_indent ? caret - k_source_indent : 0) + 1;
  }
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (caret_index < body.size() && (i == caret_index || i + 1 == caret_index)) continue;
    const std::size_t text_start = body[i].find_first_not_of(" \t");
    if (text_start == std::string_view::npos) continue;
    diagnostic.message += '\n';
    diagnostic.message += body[i].substr(text_start);
  }
  return diagnostic;
}

// NVRTC's advice for a function without __device__ names a flag the learner cannot pass (tilecamp
// compiles with its own options); say what the function is and what to do instead.
void explain_host_code(CompileDiagnostic& diagnostic) {
  if (!diagnostic.message.starts_with("A function without execution space annotations")) return;
  std::string name;
  if (diagnostic.column > 0 && static_cast<size_t>(diagnostic.column) <= diagnostic.source_line.size()) {
    for (size_t i = static_cast<size_t>(diagnostic.column) - 1; i < diagnostic.source_line.size(); ++i) {
      const char c = diagnostic.source_line[i];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) break;
      name += c;
    }
  }
  if (name == "main") {
    diagnostic.message = "main() is host code, which tilecamp never compiles or runs: the checker launches your kernel "
                         "itself. Delete main() and any other host code";
    return;
  }
  const std::string what = name.empty() ? "this function" : "`" + name + "`";
  diagnostic.message = what + " has no __device__ (or __global__), so it is host code, which tilecamp never compiles or "
                       "runs. If the kernel calls it, declare it `__device__`; if it is host code (a main(), a "
                       "launch), delete it: the checker launches your kernel itself";
}

}  // namespace

std::vector<CompileDiagnostic> parse_nvrtc_log(std::string_view log,
                                               std::string_view end_of_source_file) {
  std::vector<CompileDiagnostic> diagnostics;
  std::optional<Header> current;
  std::vector<std::string_view> body;
  const auto close_current = [&] {
    if (current && !current->is_note) {
      diagnostics.push_back(finish(current->diagnostic, body));
      explain_host_code(diagnostics.back());
    }
    current.reset();
    body.clear();
  };
  for (const std::string_view line : split_lines(log)) {
    if (std::optional<Header> header = parse_header(line, end_of_source_file)) {
      close_current();
      current = std::move(header);
    } else if (current && starts_with_blank(line)) {
      body.push_back(line);
    } else {
      // A blank line ends a diagnostic; an unindented line that is no header is one of the
      // closing lines ("1 error detected ...", "Remark: ..."), which carry nothing of their own.
      close_current();
    }
  }
  close_current();
  return diagnostics;
}

}  // namespace tilecamp
