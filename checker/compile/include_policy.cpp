#include "checker/compile/include_policy.h"

#include <cctype>
#include <string>
#include <string_view>

namespace tilecamp {
namespace {

// A logical line: the text the preprocessor sees once backslash-newlines are spliced and each
// comment is one space, with the physical line it starts on.
struct LogicalLine {
  std::string text;
  int line = 1;
};

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Splits the source into logical lines. String and character literals are kept as written (an
// include's name is one); a raw string's newlines do not end its line.
class LineSplitter {
 public:
  explicit LineSplitter(std::string_view text) : m_text(text) {}

  std::vector<LogicalLine> split() {
    while (!at_end()) {
      const char c = take();
      if (c == '\n') {
        finish_line();
      } else if (c == '/' && peek() == '/') {
        skip_line_comment();
      } else if (c == '/' && peek() == '*') {
        skip_block_comment();
      } else if (c == '"' && raw_string_prefix()) {
        copy_raw_string();
      } else if (c == '"' || (c == '\'' && !digit_separator())) {
        copy_literal(c);
      } else {
        m_current.text += c;
      }
    }
    finish_line();
    return std::move(m_lines);
  }

 private:
  bool at_end() {
    skip_splices();
    return m_position >= m_text.size();
  }
  // Backslash-newline vanishes before anything else happens (translation phase 2).
  void skip_splices() {
    while (m_position < m_text.size() && m_text[m_position] == '\\') {
      size_t next = m_position + 1;
      if (next < m_text.size() && m_text[next] == '\r') ++next;
      if (next >= m_text.size() || m_text[next] != '\n') return;
      m_position = next + 1;
      ++m_physical_line;
    }
  }
  char take() {
    skip_splices();
    const char c = m_text[m_position++];
    if (c == '\n') ++m_physical_line;
    return c;
  }
  char peek() {
    skip_splices();
    return m_position < m_text.size() ? m_text[m_position] : '\0';
  }
  void finish_line() {
    m_lines.push_back(std::move(m_current));
    m_current = LogicalLine{};
    m_current.line = m_physical_line;
  }
  void skip_line_comment() {
    while (!at_end() && peek() != '\n') take();
  }
  void skip_block_comment() {
    take();  // the '*'
    char previous = '\0';
    while (!at_end()) {
      const char c = take();
      if (previous == '*' && c == '/') break;
      previous = c;
    }
    m_current.text += ' ';
  }
  // 1'000'000: a quote after a digit or letter of a number separates digits.
  bool digit_separator() const {
    return !m_current.text.empty() && std::isalnum(static_cast<unsigned char>(m_current.text.back())) != 0;
  }
  // R"...", u8R"...", LR"...": the 'R' just before the quote, not the end of a longer name.
  bool raw_string_prefix() const {
    const std::string& text = m_current.text;
    if (text.empty() || text.back() != 'R') return false;
    size_t start = text.size() - 1;
    while (start > 0 && identifier_char(text[start - 1])) --start;
    const std::string_view prefix = std::string_view(text).substr(start);
    return prefix == "R" || prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR";
  }
  void copy_literal(char quote) {
    m_current.text += quote;
    while (!at_end() && peek() != '\n') {
      const char c = take();
      m_current.text += c;
      if (c == '\\' && !at_end() && peek() != '\n') {
        m_current.text += take();
      } else if (c == quote) {
        return;
      }
    }
  }
  // R"delim( ... )delim": no escapes, no splices, newlines included.
  void copy_raw_string() {
    const size_t open = m_text.find('(', m_position);
    if (open == std::string_view::npos) return;
    const std::string closing = ")" + std::string(m_text.substr(m_position, open - m_position)) + "\"";
    const size_t close = m_text.find(closing, open);
    const size_t end = close == std::string_view::npos ? m_text.size() : close + closing.size();
    for (size_t i = m_position; i < end; ++i) {
      if (m_text[i] == '\n') ++m_physical_line;
    }
    m_current.text += "\"\"";  // its text cannot be a directive
    m_position = end;
  }

  std::string_view m_text;
  size_t m_position = 0;
  int m_physical_line = 1;
  LogicalLine m_current;
  std::vector<LogicalLine> m_lines;
};

void skip_space(std::string_view text, size_t& position) {
  while (position < text.size() && (text[position] == ' ' || text[position] == '\t' || text[position] == '\r' ||
                                    text[position] == '\f' || text[position] == '\v')) {
    ++position;
  }
}

std::string read_identifier(std::string_view text, size_t& position) {
  const size_t start = position;
  while (position < text.size() && identifier_char(text[position])) ++position;
  return std::string(text.substr(start, position - start));
}

// The header name at `position` ("<...>" or "\"...\""), or empty when what follows is not one.
std::string read_header_name(std::string_view text, size_t position) {
  if (position >= text.size() || (text[position] != '<' && text[position] != '"')) return "";
  const char close = text[position] == '<' ? '>' : '"';
  const size_t end = text.find(close, position + 1);
  if (end == std::string_view::npos) return "";
  return std::string(text.substr(position, end - position + 1));
}

// Why a header name reaches outside the toolkit's headers, or empty when it does not.
std::string why_refused(const std::string& header) {
  if (header.empty()) {
    return "the header's name must be written out as <name> or \"name\", not built by a macro, so that "
           "what is included is known";
  }
  const std::string_view name = std::string_view(header).substr(1, header.size() - 2);
  if (name.empty()) return "the header's name is empty";
  if (name.front() == '/' || name.front() == '~' || name.find(':') != std::string_view::npos) {
    return "it names a file by its path";
  }
  if (name.find('\\') != std::string_view::npos) return "it names a file with a backslash in its path";
  for (size_t start = 0; start <= name.size();) {
    const size_t end = std::min(name.find('/', start), name.size());
    if (name.substr(start, end - start) == "..") return "it climbs out of the toolkit's headers with '..'";
    start = end + 1;
  }
  return "";
}

std::string physical_line(std::string_view text, int line) {
  size_t start = 0;
  for (int current = 1; current < line; ++current) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return "";
    ++start;
  }
  const size_t end = text.find('\n', start);
  std::string result(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
  if (!result.empty() && result.back() == '\r') result.pop_back();
  return result;
}

// `marker` is what the caret points at in the physical line: "#" or "__has_include".
CompileDiagnostic refusal(const SourceFile& source, const LogicalLine& line, const std::string& what,
                          const std::string& why, std::string_view marker) {
  CompileDiagnostic diagnostic;
  diagnostic.file = source.path;
  diagnostic.line = line.line;
  diagnostic.severity = "error";
  diagnostic.message = what + " is refused: " + why + ". A kernel is one file; it may include only the CUDA "
                       "toolkit's headers, such as <cuda_fp16.h> or <cstdio>";
  diagnostic.source_line = physical_line(source.text, line.line);
  const size_t column = diagnostic.source_line.find(marker);
  diagnostic.column = column == std::string::npos ? 1 : static_cast<int>(column) + 1;
  return diagnostic;
}

// `#include`, `#include_next`, `#import` and `#embed` at the start of a logical line; `%:` is the
// digraph of `#` and introduces a directive just as well.
void check_directive(const SourceFile& source, const LogicalLine& line, std::vector<CompileDiagnostic>& refused) {
  const std::string_view text = line.text;
  size_t position = 0;
  skip_space(text, position);
  const std::string_view hash = text.substr(position, 1) == "#" ? "#" : text.substr(position, 2) == "%:" ? "%:" : "";
  if (hash.empty()) return;
  position += hash.size();
  skip_space(text, position);
  const std::string directive = read_identifier(text, position);
  if (directive != "include" && directive != "include_next" && directive != "import" && directive != "embed") {
    return;
  }
  skip_space(text, position);
  const std::string header = read_header_name(text, position);
  const std::string why = why_refused(header);
  if (!why.empty()) {
    const std::string what = std::string(hash) + directive + (header.empty() ? "" : " " + header);
    refused.push_back(refusal(source, line, what, why, hash));
  }
}

// `__has_include(...)` anywhere on the line: it would tell the kernel whether a path exists.
void check_has_include(const SourceFile& source, const LogicalLine& line, std::vector<CompileDiagnostic>& refused) {
  const std::string_view text = line.text;
  for (size_t found = text.find("__has_include"); found != std::string_view::npos;
       found = text.find("__has_include", found + 1)) {
    if (found > 0 && identifier_char(text[found - 1])) continue;
    size_t position = found;
    const std::string name = read_identifier(text, position);
    if (name != "__has_include" && name != "__has_include_next") continue;
    skip_space(text, position);
    if (position >= text.size() || text[position] != '(') continue;
    ++position;
    skip_space(text, position);
    const std::string header = read_header_name(text, position);
    const std::string why = why_refused(header);
    if (!why.empty()) refused.push_back(refusal(source, line, name + "(" + header + ")", why, name));
  }
}

}  // namespace

std::vector<CompileDiagnostic> forbidden_includes(const SourceFile& source) {
  std::vector<CompileDiagnostic> refused;
  for (const LogicalLine& line : LineSplitter(source.text).split()) {
    check_directive(source, line, refused);
    check_has_include(source, line, refused);
  }
  return refused;
}

}  // namespace tilecamp
