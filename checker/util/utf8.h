// UTF-8 as the Unicode standard defines it: no overlong forms, no surrogates, nothing past
// U+10FFFF. Learner files and roster folder names are checked with it.
#pragma once

#include <cstddef>
#include <string_view>

namespace tilecamp {

// The length of the UTF-8 sequence that starts at text[i], or 0 when none does.
inline size_t utf8_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t at) { return static_cast<unsigned char>(text[at]); };
  const unsigned char first = byte(i);
  size_t length = 0;
  if (first < 0x80) return 1;
  if (first >= 0xC2 && first <= 0xDF) {
    length = 2;
  } else if (first >= 0xE0 && first <= 0xEF) {
    length = 3;
  } else if (first >= 0xF0 && first <= 0xF4) {
    length = 4;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  if (first == 0xE0 && byte(i + 1) < 0xA0) return 0;   // overlong
  if (first == 0xED && byte(i + 1) >= 0xA0) return 0;  // a surrogate
  if (first == 0xF0 && byte(i + 1) < 0x90) return 0;   // overlong
  if (first == 0xF4 && byte(i + 1) >= 0x90) return 0;  // past U+10FFFF
  return length;
}

inline bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

}  // namespace tilecamp
