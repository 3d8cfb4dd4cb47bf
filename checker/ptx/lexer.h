// Splits PTX text into tokens. Opcodes with their modifiers (`ld.global.nc.v4.f32`) and special
// registers (`%ctaid.x`) stay one token; comments are dropped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilecamp::ptx {

struct Token {
  enum class Kind { Word, Number, String, Punct, End };
  Kind kind = Kind::End;
  std::string text;
  int line = 0;  // line in the PTX text, for parse errors
};

std::vector<Token> tokenize(std::string_view text);

}  // namespace tilecamp::ptx
