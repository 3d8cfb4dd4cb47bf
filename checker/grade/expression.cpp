#include "checker/grade/expression.h"

#include <cctype>
#include <cstdint>

namespace tilecamp::grade {
namespace {

// Nesting deeper than this is refused: a metadata file could otherwise exhaust the stack.
constexpr int k_max_depth = 64;

// A recursive-descent evaluator: the expressions are a few dozen characters, evaluated a few
// times per case, so they are not compiled to a tree. Every operation is checked: a value the
// learner chose (a launch constant) may be anything a 64-bit integer holds.
class Evaluator {
 public:
  Evaluator(std::string_view text, const Bindings& names) : m_text(text), m_names(names) {}

  Expected<int64_t> run() {
    auto value = sum();
    if (!value) return value;
    skip_spaces();
    if (m_position != m_text.size()) return fail("unexpected `" + std::string(1, m_text[m_position]) + "`");
    return value;
  }

 private:
  Expected<int64_t> sum() {
    TC_TRY_ASSIGN(int64_t value, product());
    for (;;) {
      const char op = peek();
      if (op != '+' && op != '-') return value;
      ++m_position;
      TC_TRY_ASSIGN(int64_t right, product());
      const bool overflow = op == '+' ? __builtin_add_overflow(value, right, &value) : __builtin_sub_overflow(value, right, &value);
      if (overflow) return overflowed();
    }
  }

  Expected<int64_t> product() {
    TC_TRY_ASSIGN(int64_t value, unary());
    for (;;) {
      const char op = peek();
      if (op != '*' && op != '/' && op != '%') return value;
      ++m_position;
      TC_TRY_ASSIGN(int64_t right, unary());
      if (op == '*') {
        if (__builtin_mul_overflow(value, right, &value)) return overflowed();
      } else if (right == 0) {
        return fail("division by zero");
      } else if (value == INT64_MIN && right == -1) {
        return overflowed();
      } else {
        value = op == '/' ? value / right : value % right;
      }
    }
  }

  Expected<int64_t> unary() {
    if (peek() == '-') {
      ++m_position;
      TC_TRY(enter());
      TC_TRY_ASSIGN(int64_t value, unary());
      --m_depth;
      if (value == INT64_MIN) return overflowed();
      return -value;
    }
    return primary();
  }

  // One level deeper into parentheses, a call or a minus sign.
  Status enter() {
    if (++m_depth > k_max_depth) return fail("nesting deeper than " + std::to_string(k_max_depth) + " levels");
    return ok();
  }

  Error overflowed() const { return fail("a value beyond a 64-bit integer's range"); }

  Expected<int64_t> primary() {
    const char next = peek();
    if (next == '(') {
      ++m_position;
      TC_TRY(enter());
      TC_TRY_ASSIGN(int64_t value, sum());
      TC_TRY(expect(')'));
      --m_depth;
      return value;
    }
    if (std::isdigit(static_cast<unsigned char>(next))) {
      int64_t value = 0;
      while (m_position < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_position]))) {
        if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, m_text[m_position++] - '0', &value)) {
          return overflowed();
        }
      }
      return value;
    }
    if (std::isalpha(static_cast<unsigned char>(next)) || next == '_') {
      const size_t start = m_position;
      while (m_position < m_text.size() &&
             (std::isalnum(static_cast<unsigned char>(m_text[m_position])) || m_text[m_position] == '_')) {
        ++m_position;
      }
      const std::string name(m_text.substr(start, m_position - start));
      if (peek() == '(') return call(name);
      auto found = m_names.find(name);
      if (found == m_names.end()) return fail("unknown name `" + name + "` (known: " + known_names() + ")");
      return found->second;
    }
    if (next == '\0') return fail("the expression ends too early");
    return fail("unexpected `" + std::string(1, next) + "`");
  }

  Expected<int64_t> call(const std::string& function) {
    if (function != "ceil_div" && function != "min" && function != "max") {
      return fail("unknown function `" + function + "` (known: ceil_div, min, max)");
    }
    ++m_position;  // '('
    TC_TRY(enter());
    TC_TRY_ASSIGN(int64_t a, sum());
    TC_TRY(expect(','));
    TC_TRY_ASSIGN(int64_t b, sum());
    TC_TRY(expect(')'));
    --m_depth;
    if (function == "min") return a < b ? a : b;
    if (function == "max") return a > b ? a : b;
    if (b <= 0) return fail("ceil_div by " + std::to_string(b) + " (it needs a positive divisor)");
    return a / b + (a % b > 0 ? 1 : 0);
  }

  Status expect(char wanted) {
    if (peek() != wanted) return fail(std::string("expected `") + wanted + "`");
    ++m_position;
    return ok();
  }

  char peek() {
    skip_spaces();
    return m_position < m_text.size() ? m_text[m_position] : '\0';
  }

  void skip_spaces() {
    while (m_position < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_position]))) ++m_position;
  }

  std::string known_names() const {
    std::string known;
    for (const auto& [name, value] : m_names) known += (known.empty() ? "" : ", ") + name;
    return known.empty() ? "none" : known;
  }

  Error fail(const std::string& what) const {
    return make_error(what + " in `" + std::string(m_text) + "`");
  }

  std::string_view m_text;
  const Bindings& m_names;
  size_t m_position = 0;
  int m_depth = 0;
};

}  // namespace

Expected<int64_t> evaluate(std::string_view text, const Bindings& names) { return Evaluator(text, names).run(); }

}  // namespace tilecamp::grade
