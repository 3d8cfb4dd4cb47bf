#include "runner/learner/code_highlight.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "runner/learner/ansi_text.h"

namespace tilecamp::runner {
namespace {

constexpr const char* k_keyword = "35";
constexpr const char* k_type = "36";
constexpr const char* k_cuda = "1;33";
constexpr const char* k_literal = "32";
constexpr const char* k_comment = "2";
constexpr const char* k_todo = "1;33";
constexpr const char* k_preprocessor = "94";

constexpr std::array k_keywords = {
    "auto",     "break",    "case",     "class",  "const",  "constexpr", "continue", "default",
    "do",       "else",     "enum",     "extern", "false",  "for",       "if",       "inline",
    "namespace", "nullptr", "return",   "signed", "sizeof", "static",    "struct",   "switch",
    "template", "true",     "typedef",  "typename", "unsigned", "using", "volatile", "while"};
constexpr std::array k_types = {"bool",     "char",     "dim3",     "double",   "float",   "float2",
                                "float4",   "half",     "int",      "int2",     "int4",    "int32_t",
                                "int64_t",  "long",     "short",    "size_t",   "uint32_t", "uint64_t",
                                "unsigned", "void"};
constexpr std::array k_cuda_names = {"__global__",  "__device__",        "__host__",      "__shared__",
                                     "__constant__", "__restrict__",     "__syncthreads", "__syncwarp",
                                     "__forceinline__", "__launch_bounds__", "threadIdx",  "blockIdx",
                                     "blockDim",    "gridDim",           "warpSize",      "__ldg"};

template <size_t N>
bool contains(const std::array<const char*, N>& words, std::string_view word) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return word == w; });
}

const char* identifier_style(std::string_view word) {
  if (contains(k_cuda_names, word) || word.starts_with("__shfl") || word.starts_with("atomic")) return k_cuda;
  if (contains(k_types, word)) return k_type;
  if (contains(k_keywords, word)) return k_keyword;
  return "";
}

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A comment's text, dimmed, with TODO markers in bold.
std::string comment(std::string_view text) {
  std::string out;
  size_t start = 0;
  for (size_t todo = text.find("TODO"); todo != std::string_view::npos; todo = text.find("TODO", start)) {
    out += sgr(k_comment, text.substr(start, todo - start)) + sgr(k_todo, "TODO");
    start = todo + 4;
  }
  return out + sgr(k_comment, text.substr(start));
}

// The end of the string or character literal opening at line[i].
size_t literal_end(std::string_view line, size_t i) {
  const char quote = line[i];
  size_t j = i + 1;
  while (j < line.size() && line[j] != quote) j += line[j] == '\\' ? 2 : 1;
  return std::min(j + 1, line.size());
}

std::string highlight_cuda(std::string_view line, bool& in_comment) {
  std::string out;
  size_t i = 0;
  if (in_comment) {
    const size_t end = line.find("*/");
    if (end == std::string_view::npos) return comment(line);
    in_comment = false;
    out += comment(line.substr(0, end + 2));
    i = end + 2;
  }
  const size_t first = line.find_first_not_of(" \t");
  if (i == 0 && first != std::string_view::npos && line[first] == '#') return sgr(k_preprocessor, line);
  while (i < line.size()) {
    const char c = line[i];
    if (line.substr(i, 2) == "//") return out + comment(line.substr(i));
    if (line.substr(i, 2) == "/*") {
      const size_t end = line.find("*/", i + 2);
      if (end == std::string_view::npos) {
        in_comment = true;
        return out + comment(line.substr(i));
      }
      out += comment(line.substr(i, end + 2 - i));
      i = end + 2;
    } else if (c == '"' || c == '\'') {
      const size_t end = literal_end(line, i);
      out += sgr(k_literal, line.substr(i, end - i));
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = i;
      while (end < line.size() && (is_identifier_char(line[end]) || line[end] == '.')) ++end;
      out += sgr(k_literal, line.substr(i, end - i));
      i = end;
    } else if (is_identifier_char(c)) {
      size_t end = i;
      while (end < line.size() && is_identifier_char(line[end])) ++end;
      const std::string_view word = line.substr(i, end - i);
      out += sgr(identifier_style(word), word);
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::string highlight_shell(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  if (first != std::string_view::npos && line[first] == '#') return sgr(k_comment, line);
  if (line.starts_with("$ ")) return sgr(k_comment, "$ ") + std::string(line.substr(2));
  const size_t hash = line.find(" #");
  if (hash != std::string_view::npos) return std::string(line.substr(0, hash)) + sgr(k_comment, line.substr(hash));
  return std::string(line);
}

}  // namespace

CodeLanguage code_language(std::string_view info) {
  const std::string_view word = info.substr(0, info.find_first_of(" \t{"));
  for (const char* name : {"cuda", "cu", "cuh", "c++", "cpp", "cxx", "c", "h", "hpp"}) {
    if (word == name) return CodeLanguage::Cuda;
  }
  for (const char* name : {"sh", "bash", "console", "shell"}) {
    if (word == name) return CodeLanguage::Shell;
  }
  return CodeLanguage::Plain;
}

std::string highlight_line(std::string_view line, CodeLanguage language, bool& in_comment) {
  switch (language) {
    case CodeLanguage::Cuda: return highlight_cuda(line, in_comment);
    case CodeLanguage::Shell: return highlight_shell(line);
    case CodeLanguage::Plain: break;
  }
  return std::string(line);
}

std::vector<std::string> highlight_code(std::string_view code, CodeLanguage language, bool color) {
  std::vector<std::string> lines = split_lines(code);
  if (!color) return lines;
  bool in_comment = false;
  for (std::string& line : lines) line = highlight_line(line, language, in_comment);
  return lines;
}

}  // namespace tilecamp::runner
