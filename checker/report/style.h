// ANSI styling for text reports, switched off as a whole (NO_COLOR, output not a terminal).
#pragma once

#include <string>
#include <string_view>

namespace tilecamp::report {

class Style {
 public:
  explicit Style(bool color) : m_color(color) {}
  std::string bold(std::string_view text) const { return wrap("1", text); }
  std::string dim(std::string_view text) const { return wrap("2", text); }
  std::string red(std::string_view text) const { return wrap("31", text); }
  std::string green(std::string_view text) const { return wrap("32", text); }
  std::string yellow(std::string_view text) const { return wrap("33", text); }
  std::string cyan(std::string_view text) const { return wrap("36", text); }
  bool color() const { return m_color; }

 private:
  std::string wrap(std::string_view code, std::string_view text) const {
    if (!m_color) return std::string(text);
    return "\x1b[" + std::string(code) + "m" + std::string(text) + "\x1b[0m";
  }
  bool m_color;
};

}  // namespace tilecamp::report
