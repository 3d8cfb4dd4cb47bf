#include "checker/ptx/inliner.h"

#include <map>

namespace tilecamp::ptx {
namespace {

constexpr int k_max_call_depth = 16;

class Inliner {
 public:
  explicit Inliner(Module& module) : m_module(module) {}

  // The function's instructions with every call of a defined function expanded; its register
  // list grows by the callees' registers.
  Expected<std::vector<Instruction>> expand(Function& function, int depth) {
    if (depth > k_max_call_depth) {
      return make_error("`" + function.name + "` calls itself (recursion deeper than " +
                        std::to_string(k_max_call_depth) + " calls); tilecamp's emulator does not support recursion");
    }
    std::vector<Instruction> out;
    std::vector<uint32_t> new_index(function.instructions.size() + 1, 0);
    std::vector<size_t> caller_branches;  // positions in `out` whose target is an old index
    for (size_t i = 0; i < function.instructions.size(); ++i) {
      new_index[i] = static_cast<uint32_t>(out.size());
      const Instruction& in = function.instructions[i];
      const Function* callee = in.opcode == Opcode::Call ? find_defined(function.calls[in.call].callee) : nullptr;
      if (callee == nullptr) {
        if (in.opcode == Opcode::Bra) caller_branches.push_back(out.size());
        out.push_back(in);
        continue;
      }
      TC_TRY(append_callee(function, function.calls[in.call], *callee, in, depth, out));
    }
    new_index[function.instructions.size()] = static_cast<uint32_t>(out.size());
    for (size_t position : caller_branches) out[position].target = new_index[out[position].target];
    return out;
  }

 private:
  const Function* find_defined(const std::string& name) const {
    for (const Function& f : m_module.functions) {
      if (f.name == name && f.has_body) return &f;
    }
    return nullptr;
  }

  Status append_callee(Function& caller, const CallSite& site, const Function& callee_template,
                       const Instruction& call, int depth, std::vector<Instruction>& out) {
    if (site.arguments.size() != callee_template.parameter_symbols.size() ||
        site.results.size() > callee_template.result_symbols.size()) {
      return make_error("the call of `" + site.callee + "` at " + m_module.location_text(call.location) +
                        " passes " + std::to_string(site.arguments.size()) + " argument(s); it takes " +
                        std::to_string(callee_template.parameter_symbols.size()));
    }
    Function callee = callee_template;  // expanded separately for every call site
    TC_TRY_ASSIGN(std::vector<Instruction> body, expand(callee, depth + 1));
    const int32_t register_base = static_cast<int32_t>(caller.register_names.size());
    for (size_t r = 0; r < callee.register_names.size(); ++r) {
      caller.register_names.push_back(callee.register_names[r] + "@" + callee.name);
      caller.register_types.push_back(callee.register_types[r]);
    }
    std::map<int32_t, int32_t> renamed_symbols;
    for (size_t k = 0; k < site.arguments.size(); ++k) renamed_symbols[callee.parameter_symbols[k]] = site.arguments[k];
    for (size_t k = 0; k < site.results.size(); ++k) renamed_symbols[callee.result_symbols[k]] = site.results[k];
    const uint32_t start = static_cast<uint32_t>(out.size());
    const uint32_t after = start + static_cast<uint32_t>(body.size());
    for (Instruction in : body) {
      rename(in, register_base, renamed_symbols);
      if (in.opcode == Opcode::Bra) in.target += start;
      if (in.opcode == Opcode::Ret) {  // return to the instruction after the call
        in.opcode = Opcode::Bra;
        in.target = after;
        in.text = "ret (from " + callee.name + ")";
      }
      if (in.call >= 0) {  // an extern call inside the callee: its call site moves to the caller
        caller.calls.push_back(callee.calls[in.call]);
        for (int32_t& symbol : caller.calls.back().results) symbol = renamed(symbol, renamed_symbols);
        for (int32_t& symbol : caller.calls.back().arguments) symbol = renamed(symbol, renamed_symbols);
        in.call = static_cast<int32_t>(caller.calls.size() - 1);
      }
      out.push_back(std::move(in));
    }
    return ok();
  }

  static int32_t renamed(int32_t symbol, const std::map<int32_t, int32_t>& renamed_symbols) {
    auto it = renamed_symbols.find(symbol);
    return it == renamed_symbols.end() ? symbol : it->second;
  }

  static void rename(Instruction& in, int32_t register_base, const std::map<int32_t, int32_t>& renamed_symbols) {
    if (in.guard >= 0) in.guard += register_base;
    for (int i = 0; i < in.operand_count; ++i) {
      Operand& operand = in.operands[i];
      if (operand.reg >= 0) operand.reg += register_base;
      if (operand.symbol >= 0) operand.symbol = renamed(operand.symbol, renamed_symbols);
      for (int e = 0; e < static_cast<int>(operand.elements.size()); ++e) {
        const bool holds_register = operand.kind == Operand::Kind::Vector ? e < operand.count : e == 0;
        if (holds_register && operand.elements[e] >= 0) operand.elements[e] += register_base;
      }
    }
  }

  Module& m_module;
};

}  // namespace

Status inline_calls(Module& module) {
  Inliner inliner(module);
  for (Function& function : module.functions) {
    if (!function.is_entry || !function.has_body) continue;
    bool has_calls = false;
    for (const Instruction& in : function.instructions) has_calls |= in.opcode == Opcode::Call;
    if (!has_calls) continue;
    TC_TRY_ASSIGN(std::vector<Instruction> expanded, inliner.expand(function, 0));
    function.instructions = std::move(expanded);
  }
  return ok();
}

}  // namespace tilecamp::ptx
