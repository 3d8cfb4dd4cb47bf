#include "checker/ptx/kernel_lookup.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace tilecamp::ptx {
namespace {

std::string without_spaces(std::string_view text) {
  std::string result;
  for (char c : text) {
    if (c != ' ') result += c;
  }
  return result;
}

// "void ns::k<16>(float const*, int)" -> "ns::k<16>"
std::string strip_signature(const std::string& demangled) {
  int angle = 0;
  size_t name_start = 0;
  for (size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (c == '<') ++angle;
    if (c == '>') --angle;
    if (angle == 0 && c == ' ') name_start = i + 1;  // skips a return type
    if (angle == 0 && c == '(') return demangled.substr(name_start, i - name_start);
  }
  return demangled.substr(name_start);
}

std::string without_template_arguments(const std::string& name) {
  const size_t angle = name.find('<');
  return angle == std::string::npos ? name : name.substr(0, angle);
}

std::string unqualified(const std::string& name) {
  const std::string base = without_template_arguments(name);
  const size_t colon = base.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

}  // namespace

static std::string demangled(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : mangled;
}

std::string readable_kernel_name(const std::string& mangled) {
  const std::string text = demangled(mangled);
  return text == mangled ? mangled : strip_signature(text);
}

std::optional<std::vector<std::string>> kernel_parameter_types(const std::string& mangled) {
  const std::string text = demangled(mangled);
  if (text == mangled) return std::nullopt;
  // The parameter list is the first parenthesis at template depth 0, after the name.
  int angle = 0;
  size_t open = std::string::npos;
  for (size_t i = 0; i < text.size() && open == std::string::npos; ++i) {
    if (text[i] == '<') ++angle;
    if (text[i] == '>') --angle;
    if (angle == 0 && text[i] == '(') open = i;
  }
  if (open == std::string::npos) return std::nullopt;
  std::vector<std::string> types;
  std::string current;
  int depth = 0;
  for (size_t i = open + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<' || c == '(') ++depth;
    if ((c == '>' || c == ')') && depth > 0) {
      --depth;
    } else if (c == ')' && depth == 0) {
      break;
    }
    if (c == ',' && depth == 0) {
      types.push_back(current);
      current.clear();
      continue;
    }
    if (!(c == ' ' && current.empty())) current += c;
  }
  if (!current.empty() && current != "void") types.push_back(current);
  return types;
}

std::string readable_variable_name(const std::string& mangled) {
  const std::string readable = demangled(mangled);  // "transposeTiled(float const*, ...)::tile"
  const size_t colons = readable.rfind("::");
  return colons == std::string::npos ? readable : readable.substr(colons + 2);
}

Expected<std::string> resolve_kernel_name(const Module& module, std::string_view requested) {
  const std::string wanted = without_spaces(requested);
  std::vector<const Function*> matches;
  std::string available;
  for (const Function& function : module.functions) {
    // `tilecamp_` kernels are the checker's own generated code, never the learner's.
    if (!function.is_entry || function.name.starts_with("tilecamp_")) continue;
    const std::string readable = without_spaces(readable_kernel_name(function.name));
    if (function.name == requested) return function.name;
    available += (available.empty() ? "" : ", ") + readable_kernel_name(function.name);
    const bool matches_name = readable == wanted || unqualified(readable) == wanted ||
                              without_template_arguments(readable) == wanted ||
                              without_template_arguments(unqualified(readable)) == wanted;
    if (matches_name) matches.push_back(&function);
  }
  if (matches.size() == 1) return matches.front()->name;
  if (matches.empty()) {
    return make_error("no kernel named `" + std::string(requested) + "`" +
                      (available.empty() ? std::string(": the file defines no __global__ function")
                                         : "; the kernels are: " + available));
  }
  std::string candidates;
  for (const Function* function : matches) {
    candidates += "\n  " + readable_kernel_name(function->name) + "  (" + function->name + ")";
  }
  return make_error("`" + std::string(requested) + "` names several kernels; pick one:" + candidates);
}

}  // namespace tilecamp::ptx
