#include "runner/learner/ansi_text.h"

#include <algorithm>

namespace tilecamp::runner {
namespace {

// The length of the escape sequence starting at text[i] (ESC '[' params final, or ESC and one
// more character).
size_t escape_length(std::string_view text, size_t i) {
  if (i + 1 >= text.size()) return 1;
  if (text[i + 1] != '[') return 2;
  size_t j = i + 2;
  while (j < text.size() && !(text[j] >= 0x40 && text[j] <= 0x7e)) ++j;
  return j < text.size() ? j - i + 1 : text.size() - i;
}

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

}  // namespace

std::string sgr(std::string_view codes, std::string_view text) {
  if (codes.empty() || text.empty()) return std::string(text);
  return "\x1b[" + std::string(codes) + "m" + std::string(text) + "\x1b[0m";
}

size_t visible_width(std::string_view text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\x1b') {
      i += escape_length(text, i);
      continue;
    }
    if (!is_continuation_byte(text[i])) ++width;
    ++i;
  }
  return width;
}

std::string strip_escapes(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\x1b') {
      i += escape_length(text, i);
      continue;
    }
    out += text[i++];
  }
  return out;
}

std::string truncate_visible(std::string_view text, size_t width) {
  std::string out;
  size_t columns = 0;
  bool styled = false;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\x1b') {
      const size_t length = escape_length(text, i);
      out += text.substr(i, length);
      styled = text.substr(i, length) != "\x1b[0m";
      i += length;
      continue;
    }
    if (!is_continuation_byte(text[i])) {
      if (columns == width) break;
      ++columns;
    }
    out += text[i++];
  }
  if (styled) out += "\x1b[0m";
  return out;
}

std::string pad_visible(std::string_view text, size_t width) {
  const size_t columns = visible_width(text);
  return std::string(text) + std::string(columns < width ? width - columns : 0, ' ');
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> wrap_line(std::string_view line, size_t width) {
  if (visible_width(line) <= width) return {std::string(line)};
  const size_t leading = std::min(line.find_first_not_of(' '), line.size());
  const std::string indent(std::min(leading + 2, width / 2), ' ');
  std::vector<std::string> lines{std::string(line.substr(0, leading))};
  size_t used = leading;
  bool fresh = true;  // nothing after the indent yet
  // Split at every space (so "PASS  compiles" keeps its two), join with one.
  for (size_t start = leading; start <= line.size();) {
    size_t end = line.find(' ', start);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view word = line.substr(start, end - start);
    const size_t columns = visible_width(word);
    if (!fresh && !word.empty() && used + 1 + columns > width) {
      lines.push_back(indent);
      used = indent.size();
      fresh = true;
    }
    if (!fresh || !word.empty()) {
      if (!fresh) {
        lines.back() += ' ';
        ++used;
      }
      lines.back() += word;
      used += columns;
      fresh = false;
    }
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> split_columns(std::string_view text, size_t width) {
  std::vector<std::string> pieces(1);
  size_t columns = 0;
  for (char c : text) {
    if (!is_continuation_byte(c)) {
      if (columns == width && width > 0) {
        pieces.emplace_back();
        columns = 0;
      }
      ++columns;
    }
    pieces.back() += c;
  }
  return pieces;
}

}  // namespace tilecamp::runner
