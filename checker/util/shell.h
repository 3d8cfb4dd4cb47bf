// A path as a shell reads it back: what a message prints for the learner to paste.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace tilecamp {

// As it is when plain (letters, digits, / . _ - +), else in single quotes.
inline std::string shell_quoted(const std::string& path) {
  const bool plain = !path.empty() && std::all_of(path.begin(), path.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '/' || c == '.' || c == '_' || c == '-' || c == '+';
  });
  if (plain) return path;
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace tilecamp
