#include "checker/compile/include_policy.h"

#include "checker/compile/source_text.h"

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

bool identifier_char(char c) {
  // Bytes of UTF-8 sequences belong to identifiers too (EDG accepts them in names).
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// A raw string's delimiter holds at most 16 characters, none of them a space, a parenthesis, a
// backslash or a control character; otherwise NVRTC says "raw string indicator ignored" and reads
// an ordinary string literal, whose directive-looking lines are then directives.
constexpr size_t k_raw_delimiter_limit = 16;
bool raw_delimiter_char(char c) {
  return c != ' ' && c != '(' && c != ')' && c != '\\' && c != '\t' && c != '\v' && c != '\f' && c != '\n' && c != '\r';
}

// Splits the source into logical lines as the preprocessor tokenizes them: backslash-newlines
// spliced, each comment one space, string and character literals kept as written (an include's
// name is one), a raw string's newlines not ending its line. A quote after a pp-number's digit is
// a digit separator (1'000), anywhere else it opens a character literal ('x', u8'x'); a header
// name after #include or __has_include( is read whole, comment-like text and all.
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
      } else if ((c == '<' || c == '"') && expects_header_name()) {
        copy_header_name(c);
      } else if (c == '"' && raw_string_prefix() && raw_string_opens()) {
        copy_raw_string();
      } else if (c == '\'' && m_token == Token::Number && identifier_char(peek())) {
        m_current.text += c;  // a digit separator
      } else if (c == '"' || c == '\'') {
        copy_literal(c);
      } else {
        append(c);
      }
    }
    finish_line();
    return std::move(m_lines);
  }

 private:
  enum class Token { None, Identifier, Number };

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
  // Appends a character outside literals and comments, following which pp-token it extends: a
  // pp-number (digits, letters, '.', and a sign after e/E/p/P) or an identifier.
  void append(char c) {
    const char previous = m_current.text.empty() ? '\0' : m_current.text.back();
    if (m_token == Token::Number) {
      const bool sign = (c == '+' || c == '-') && (previous == 'e' || previous == 'E' || previous == 'p' || previous == 'P');
      if (!identifier_char(c) && c != '.' && !sign) m_token = Token::None;
    } else if (m_token == Token::Identifier && !identifier_char(c)) {
      m_token = Token::None;
    }
    if (m_token == Token::None) {
      if (digit(c) || (c == '.' && digit(peek()))) {
        m_token = Token::Number;
      } else if (identifier_char(c)) {
        m_token = Token::Identifier;
      }
    }
    m_current.text += c;
  }
  void finish_line() {
    m_lines.push_back(std::move(m_current));
    m_current = LogicalLine{};
    m_current.line = m_physical_line;
    m_token = Token::None;
  }
  void skip_line_comment() {
    while (!at_end() && peek() != '\n') take();
    m_token = Token::None;
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
    m_token = Token::None;
  }
  // R"...", u8R"...", LR"...": an identifier token that is exactly one of the raw prefixes.
  bool raw_string_prefix() const {
    if (m_token != Token::Identifier) return false;
    const std::string& text = m_current.text;
    size_t start = text.size();
    while (start > 0 && identifier_char(text[start - 1])) --start;
    const std::string_view prefix = std::string_view(text).substr(start);
    return prefix == "R" || prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR";
  }
  // Whether a valid delimiter and its '(' follow the quote just taken.
  bool raw_string_opens() const {
    for (size_t i = m_position; i < m_text.size() && i - m_position <= k_raw_delimiter_limit; ++i) {
      if (m_text[i] == '(') return true;
      if (!raw_delimiter_char(m_text[i])) return false;
    }
    return false;
  }
  // After `#include` (`#include_next`, `#import`, `#embed`, or their %: spelling) or
  // `__has_include(`, a '<' or a '"' opens a header name.
  bool expects_header_name() const {
    const std::string_view text = m_current.text;
    size_t end = text.find_last_not_of(" \t\f\v\r");
    if (end == std::string_view::npos) return false;
    if (text[end] == '(') {
      end = text.find_last_not_of(" \t\f\v\r", end - 1);
      if (end == std::string_view::npos) return false;
      size_t start = end + 1;
      while (start > 0 && identifier_char(text[start - 1])) --start;
      const std::string_view name = text.substr(start, end + 1 - start);
      return name == "__has_include" || name == "__has_include_next";
    }
    size_t position = text.find_first_not_of(" \t\f\v\r");
    if (text.substr(position, 1) == "#") {
      position += 1;
    } else if (text.substr(position, 2) == "%:") {
      position += 2;
    } else {
      return false;
    }
    position = text.find_first_not_of(" \t\f\v\r", position);
    if (position == std::string_view::npos) return false;
    const std::string_view directive = text.substr(position, end + 1 - position);
    return directive == "include" || directive == "include_next" || directive == "import" || directive == "embed";
  }
  // <...> or "...": no escapes and no comments inside, up to the closing character or the line's end.
  void copy_header_name(char open) {
    const char close = open == '<' ? '>' : '"';
    m_current.text += open;
    while (!at_end() && peek() != '\n') {
      const char c = take();
      m_current.text += c;
      if (c == close) break;
    }
    m_token = Token::None;
  }
  void copy_literal(char quote) {
    m_current.text += quote;
    while (!at_end() && peek() != '\n') {
      const char c = take();
      m_current.text += c;
      if (c == '\\' && !at_end() && peek() != '\n') {
        m_current.text += take();
      } else if (c == quote) {
        break;
      }
    }
    m_token = Token::None;
  }
  // R"delim( ... )delim": no escapes, no splices, newlines included.
  void copy_raw_string() {
    const size_t open = m_text.find('(', m_position);
    const std::string closing = ")" + std::string(m_text.substr(m_position, open - m_position)) + "\"";
    const size_t close = m_text.find(closing, open);
    const size_t end = close == std::string_view::npos ? m_text.size() : close + closing.size();
    for (size_t i = m_position; i < end; ++i) {
      if (m_text[i] == '\n') ++m_physical_line;
    }
    m_current.text += "\"\"";  // its text cannot be a directive
    m_position = end;
    m_token = Token::None;
  }

  std::string_view m_text;
  size_t m_position = 0;
  int m_physical_line = 1;
  LogicalLine m_current;
  Token m_token = Token::None;
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

CompileDiagnostic renumbering_refusal(const SourceFile& source, const LogicalLine& line, std::string_view hash) {
  CompileDiagnostic diagnostic = refusal(source, line, std::string(hash) + "line", "", hash);
  diagnostic.message = std::string(hash) + "line is refused: a kernel may not renumber its own lines, so that every "
                       "finding points at the line of the file you wrote";
  return diagnostic;
}

// `#include`, `#include_next`, `#import` and `#embed` at the start of a logical line; `%:` is the
// digraph of `#` and introduces a directive just as well. `#line` and its short form `# 12 "f"`
// are refused outright.
void check_directive(const SourceFile& source, const LogicalLine& line, std::vector<CompileDiagnostic>& refused) {
  const std::string_view text = line.text;
  size_t position = 0;
  skip_space(text, position);
  const std::string_view hash = text.substr(position, 1) == "#" ? "#" : text.substr(position, 2) == "%:" ? "%:" : "";
  if (hash.empty()) return;
  position += hash.size();
  skip_space(text, position);
  if (position < text.size() && digit(text[position])) {
    refused.push_back(renumbering_refusal(source, line, hash));
    return;
  }
  const std::string directive = read_identifier(text, position);
  if (directive == "line") {
    refused.push_back(renumbering_refusal(source, line, hash));
    return;
  }
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

// `__has_include` anywhere on the line (a macro may carry it into an #if): it would tell the
// kernel whether a path exists, so it must be followed at once by the name of a toolkit header.
void check_has_include(const SourceFile& source, const LogicalLine& line, std::vector<CompileDiagnostic>& refused) {
  const std::string_view text = line.text;
  for (size_t found = text.find("__has_include"); found != std::string_view::npos;
       found = text.find("__has_include", found + 1)) {
    if (found > 0 && identifier_char(text[found - 1])) continue;
    size_t position = found;
    const std::string name = read_identifier(text, position);
    if (name != "__has_include" && name != "__has_include_next") continue;
    skip_space(text, position);
    std::string header;
    if (position < text.size() && text[position] == '(') {
      ++position;
      skip_space(text, position);
      header = read_header_name(text, position);
    }
    const std::string why = why_refused(header);
    if (!why.empty()) refused.push_back(refusal(source, line, name + (header.empty() ? "" : "(" + header + ")"), why, name));
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
