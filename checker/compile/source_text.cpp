#include "checker/compile/source_text.h"

#include <fmt/format.h>

#include "checker/util/utf8.h"

namespace tilecamp {

std::string physical_line(std::string_view text, int line) {
  size_t start = 0;
  for (int current = 1; current < line; ++current) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return "";
    ++start;
  }
  if (line < 1 || start > text.size()) return "";
  const size_t end = text.find('\n', start);
  std::string result(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
  if (!result.empty() && result.back() == '\r') result.pop_back();
  return result;
}

std::vector<CompileDiagnostic> non_text_bytes(const SourceFile& source) {
  std::vector<CompileDiagnostic> found;
  const std::string_view text = source.text;
  int line = 1;
  size_t line_start = 0;
  int reported_line = 0;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    const size_t length = text[i] == '\0' ? 0 : utf8_length(text, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (reported_line != line) {  // the first bad byte of each line
      reported_line = line;
      CompileDiagnostic diagnostic;
      diagnostic.file = source.path;
      diagnostic.line = line;
      diagnostic.column = static_cast<int>(i - line_start) + 1;
      diagnostic.severity = "error";
      diagnostic.message = fmt::format("byte 0x{:02X} is not text: a kernel file is UTF-8 text, and the compiler would "
                                       "stop or lose its way here",
                                       static_cast<unsigned char>(text[i]));
      found.push_back(std::move(diagnostic));
    }
    ++i;
  }
  return found;
}

}  // namespace tilecamp
