#include "checker/ptx/lexer.h"

#include <cctype>

namespace tilecamp::ptx {
namespace {

bool is_word_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.';
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  int line = 1;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(text[i] == '*' && text[i + 1] == '/')) {
        if (text[i] == '\n') ++line;
        ++i;
      }
      i += 2;
    } else if (c == '"') {
      size_t start = ++i;
      while (i < n && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < n) ++i;
        ++i;
      }
      tokens.push_back({Token::Kind::String, std::string(text.substr(start, i - start)), line});
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = i;
      while (i < n && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
      tokens.push_back({Token::Kind::Number, std::string(text.substr(start, i - start)), line});
    } else if (is_word_start(c)) {
      size_t start = i++;
      // `::` glues cache-hint modifiers such as `.L2::128B` into the opcode word.
      while (i < n && (is_word_char(text[i]) ||
                       (text[i] == ':' && i + 2 < n && text[i + 1] == ':' && is_word_char(text[i + 2])))) {
        i += text[i] == ':' ? 2 : 1;
      }
      tokens.push_back({Token::Kind::Word, std::string(text.substr(start, i - start)), line});
    } else {
      tokens.push_back({Token::Kind::Punct, std::string(1, c), line});
      ++i;
    }
  }
  tokens.push_back({Token::Kind::End, "", line});
  return tokens;
}

}  // namespace tilecamp::ptx
