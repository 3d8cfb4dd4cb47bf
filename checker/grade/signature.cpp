#include "checker/grade/signature.h"

#include <sstream>

#include "checker/grade/toml_fields.h"
#include "checker/ptx/kernel_lookup.h"

namespace tilecamp::grade {
namespace {

// "float const* __restrict__" -> "float*": what a value of that type is, qualifiers aside.
std::string bare_type(const std::string& type) {
  std::istringstream words(type);
  std::string word, bare;
  while (words >> word) {
    std::string kept;
    for (size_t start = 0; start <= word.size();) {  // "float*" and "const*" hold a star
      const size_t star = word.find('*', start);
      const std::string piece = word.substr(start, star == std::string::npos ? std::string::npos : star - start);
      if (piece != "const" && piece != "volatile" && piece != "__restrict" && piece != "__restrict__" &&
          piece != "restrict") {
        kept += piece;
      }
      if (star == std::string::npos) break;
      kept += '*';
      start = star + 1;
    }
    if (!kept.empty()) bare += (bare.empty() || kept[0] == '*' ? "" : " ") + kept;
  }
  // `unsigned` alone is `unsigned int` (the form a demangled name gives), pointers too.
  if (bare.starts_with("unsigned") && (bare.size() == 8 || bare[8] == '*')) bare.insert(8, " int");
  // The integers the checker passes as 32 bits read the same whichever signedness is declared.
  if (bare == "unsigned int") return "int";
  return bare;
}

std::string exercise_signature(const Exercise& exercise) {
  std::string text = exercise.kernel + "(";
  for (size_t i = 0; i < exercise.params.size(); ++i) {
    text += (i ? ", " : "") + exercise.params[i].type + " " + exercise.params[i].name;
  }
  return text + ")";
}

}  // namespace

std::string signature_mismatch(const Exercise& exercise, const ptx::Module& module, const std::string& entry) {
  const ptx::Function* function = nullptr;
  for (const ptx::Function& candidate : module.functions) {
    if (candidate.name == entry) function = &candidate;
  }
  if (function == nullptr) return "";
  const std::string name = "`" + exercise.kernel + "`";
  const size_t wanted = exercise.params.size();
  const auto types = ptx::kernel_parameter_types(entry);
  const size_t count = types ? types->size() : function->parameters.size();
  if (count != wanted) {
    return "your " + name + " takes " + std::to_string(count) + " parameter" + (count == 1 ? "" : "s") +
           (types ? " (" + joined(*types) + ")" : std::string()) + "; the exercise passes " + std::to_string(wanted) +
           ": " + exercise_signature(exercise) + ". Give the kernel exactly these parameters, in this order";
  }
  if (!types) return "";
  for (size_t i = 0; i < wanted; ++i) {
    const Param& param = exercise.params[i];
    if (bare_type((*types)[i]) == bare_type(param.type)) continue;
    return "parameter " + std::to_string(i + 1) + " of your " + name + " is `" + (*types)[i] + "`, where the exercise passes `" +
           param.type + " " + param.name + "`: " + exercise_signature(exercise) +
           ". Declare it as the exercise does (the checker's buffers hold exactly that type)";
  }
  return "";
}

}  // namespace tilecamp::grade
