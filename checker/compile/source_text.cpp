#include "checker/compile/source_text.h"

#include <fmt/format.h>

#include <cctype>
#include <set>

#include "checker/util/utf8.h"

namespace tilecamp {
namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The words (identifiers and numbers) of `text`.
std::set<std::string, std::less<>> words_of(std::string_view text) {
  std::set<std::string, std::less<>> words;
  for (size_t i = 0; i < text.size();) {
    if (!word_char(text[i])) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && word_char(text[i])) ++i;
    words.emplace(text.substr(start, i - start));
  }
  return words;
}

// Words a compiler message may quote that no file need hold: C++'s and CUDA's own.
bool language_word(std::string_view word) {
  static const std::set<std::string, std::less<>> k_words = {
      "auto", "bool", "char", "class", "const", "constexpr", "double", "enum", "false", "float", "int", "long",
      "nullptr", "short", "signed", "struct", "true", "typename", "union", "unsigned", "void", "volatile",
      "__device__", "__global__", "__host__", "__shared__", "__constant__", "__restrict__", "__restrict",
      "__half", "__nv_bfloat16", "float2", "float4", "int2", "int4", "uint", "size_t", "std"};
  return k_words.count(word) > 0;
}

}  // namespace

std::string mask_foreign_quotes(const std::string& message, std::string_view source) {
  const auto known = words_of(source);
  std::string out;
  size_t position = 0;
  for (;;) {
    const size_t open = message.find('"', position);
    const size_t close = open == std::string::npos ? std::string::npos : message.find('"', open + 1);
    if (close == std::string::npos) break;
    const std::string_view quoted = std::string_view(message).substr(open + 1, close - open - 1);
    bool foreign = false;
    for (const std::string& word : words_of(quoted)) {
      if (!known.count(word) && !language_word(word)) foreign = true;
    }
    out += message.substr(position, open + 1 - position);
    out += foreign ? "(not from your file)" : std::string(quoted);
    out += '"';
    position = close + 1;
  }
  return out + message.substr(position);
}

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
