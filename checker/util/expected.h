// A value or an error message, for the library's fallible operations. The library never throws
// for expected failures (bad input, unsupported PTX): it returns one of these and the runner
// decides how to show it.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace tilecamp {

struct Error {
  std::string message;
};

inline Error make_error(std::string message) { return Error{std::move(message)}; }

template <typename T>
class Expected {
 public:
  Expected(T value) : m_state(std::move(value)) {}
  Expected(Error error) : m_state(std::move(error)) {}

  bool has_value() const { return m_state.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(m_state); }
  const T& value() const& { return std::get<0>(m_state); }
  T&& value() && { return std::get<0>(std::move(m_state)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const std::string& error() const { return std::get<1>(m_state).message; }

 private:
  std::variant<T, Error> m_state;
};

// For operations that produce nothing but may fail.
struct Done {};
using Status = Expected<Done>;
inline Status ok() { return Done{}; }

}  // namespace tilecamp

// Propagates an error from an Expected expression, or binds its value.
#define TC_TRY_ASSIGN(lhs, expr)                                   \
  auto TC_CONCAT(tc_result_, __LINE__) = (expr);                   \
  if (!TC_CONCAT(tc_result_, __LINE__)) {                          \
    return ::tilecamp::Error{TC_CONCAT(tc_result_, __LINE__).error()}; \
  }                                                                \
  lhs = std::move(*TC_CONCAT(tc_result_, __LINE__))

#define TC_TRY(expr)                                               \
  do {                                                             \
    auto tc_status_ = (expr);                                      \
    if (!tc_status_) return ::tilecamp::Error{tc_status_.error()}; \
  } while (0)

#define TC_CONCAT_INNER(a, b) a##b
#define TC_CONCAT(a, b) TC_CONCAT_INNER(a, b)
