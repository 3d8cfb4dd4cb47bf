#include "checker/ptx/parser.h"

#include <charconv>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "checker/ptx/access_fusion.h"
#include "checker/ptx/cfg.h"
#include "checker/ptx/inliner.h"
#include "checker/ptx/instruction_decoder.h"
#include "checker/ptx/lexer.h"
#include "checker/ptx/matrix_decoder.h"
#include "checker/ptx/video_decoder.h"

namespace tilecamp::ptx {
namespace {

const std::unordered_map<std::string_view, std::pair<SpecialRegister, bool>>& special_table() {
  // name -> (register, has .x/.y/.z components)
  static const std::unordered_map<std::string_view, std::pair<SpecialRegister, bool>> table = {
      {"%tid", {SpecialRegister::Tid, true}},         {"%ntid", {SpecialRegister::Ntid, true}},
      {"%ctaid", {SpecialRegister::Ctaid, true}},     {"%nctaid", {SpecialRegister::Nctaid, true}},
      {"%laneid", {SpecialRegister::Laneid, false}},  {"%warpid", {SpecialRegister::Warpid, false}},
      {"%nwarpid", {SpecialRegister::Nwarpid, false}}, {"%smid", {SpecialRegister::Smid, false}},
      {"%nsmid", {SpecialRegister::Nsmid, false}},    {"%gridid", {SpecialRegister::Gridid, false}},
      {"%lanemask_eq", {SpecialRegister::LanemaskEq, false}},
      {"%lanemask_le", {SpecialRegister::LanemaskLe, false}},
      {"%lanemask_lt", {SpecialRegister::LanemaskLt, false}},
      {"%lanemask_ge", {SpecialRegister::LanemaskGe, false}},
      {"%lanemask_gt", {SpecialRegister::LanemaskGt, false}},
      {"%clock", {SpecialRegister::Clock, false}},    {"%clock64", {SpecialRegister::Clock64, false}},
      {"%globaltimer", {SpecialRegister::Globaltimer, false}},
      {"%globaltimer_lo", {SpecialRegister::GlobaltimerLo, false}},
      {"%globaltimer_hi", {SpecialRegister::GlobaltimerHi, false}},
  };
  return table;
}

// Special registers with a number or a name of their own: %envreg0..31, the reserved shared
// memory's offsets, the shared memory sizes. (register, Operand::component)
std::optional<std::pair<SpecialRegister, uint8_t>> numbered_special(std::string_view name) {
  static const std::unordered_map<std::string_view, std::pair<SpecialRegister, uint8_t>> named = {
      {"%reserved_smem_offset_begin", {SpecialRegister::ReservedSmemBegin, 0}},
      {"%reserved_smem_offset_end", {SpecialRegister::ReservedSmemEnd, 0}},
      {"%reserved_smem_offset_cap", {SpecialRegister::ReservedSmemCap, 0}},
      {"%reserved_smem_offset_0", {SpecialRegister::ReservedSmemOffset, 0}},
      {"%reserved_smem_offset_1", {SpecialRegister::ReservedSmemOffset, 1}},
      {"%total_smem_size", {SpecialRegister::TotalSmemSize, 0}},
      {"%dynamic_smem_size", {SpecialRegister::DynamicSmemSize, 0}},
      {"%aggr_smem_size", {SpecialRegister::AggrSmemSize, 0}},
  };
  if (auto it = named.find(name); it != named.end()) return it->second;
  constexpr std::string_view envreg = "%envreg";
  if (!name.starts_with(envreg) || name.size() == envreg.size() || name.size() > envreg.size() + 2) return std::nullopt;
  int number = 0;
  for (const char c : name.substr(envreg.size())) {
    if (c < '0' || c > '9') return std::nullopt;
    number = number * 10 + (c - '0');
  }
  if (number > 31) return std::nullopt;
  return std::pair{SpecialRegister::Envreg, static_cast<uint8_t>(number)};
}

// More virtual registers than any real kernel declares (nvcc's largest unrolled kernels use a
// few thousand); the emulator keeps every register of every thread of a block, so a `%r<N>` with
// an absurd N must be an error, not an allocation that never ends.
constexpr uint64_t k_max_registers = 1 << 16;

uint32_t align_up(uint64_t value, uint64_t alignment) {
  return static_cast<uint32_t>((value + alignment - 1) / alignment * alignment);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : m_tokens(tokenize(text)) {}

  Expected<Module> parse() {
    while (!at_end()) {
      Status status = parse_module_item();
      if (!status) return Error{status.error()};
    }
    return finish();
  }

 private:
  // ---- token helpers ----
  const Token& peek(size_t ahead = 0) const {
    size_t index = std::min(m_pos + ahead, m_tokens.size() - 1);
    return m_tokens[index];
  }
  bool at_end() const { return peek().kind == Token::Kind::End; }
  const Token& next() { return m_tokens[std::min(m_pos++, m_tokens.size() - 1)]; }
  bool accept(std::string_view text) {
    if (peek().text == text && peek().kind != Token::Kind::String) {
      ++m_pos;
      return true;
    }
    return false;
  }
  Error error_here(const std::string& what) const {
    return make_error("PTX line " + std::to_string(peek().line) + ": " + what + " (found `" +
                      peek().text + "`)");
  }
  Status expect(std::string_view text) {
    if (accept(text)) return ok();
    return error_here("expected `" + std::string(text) + "`");
  }
  Expected<uint64_t> expect_integer() {
    const Token& token = peek();
    uint64_t value = 0;
    if (token.kind != Token::Kind::Number || !literal_bits(token.text, false, Type::U64, value)) {
      return error_here("expected a number");
    }
    ++m_pos;
    return value;
  }
  void skip_statement() {
    while (!at_end() && !accept(";")) ++m_pos;
  }
  void skip_balanced_braces() {
    int depth = 0;
    while (!at_end()) {
      const std::string& text = next().text;
      if (text == "{") ++depth;
      if (text == "}" && --depth == 0) return;
    }
  }

  // ---- module level ----
  Status parse_module_item() {
    const std::string word = peek().text;
    if (word == ".version" || word == ".address_size") {
      m_pos += 2;
      return ok();
    }
    if (word == ".target") {
      ++m_pos;
      do { ++m_pos; } while (accept(","));
      return ok();
    }
    if (word == ".file") return parse_file_directive();
    if (word == ".section") {
      ++m_pos;
      ++m_pos;  // section name
      skip_balanced_braces();
      return ok();
    }
    if (word == ".visible" || word == ".extern" || word == ".weak") {
      m_extern = word == ".extern";
      ++m_pos;
      Status status = parse_module_item();
      m_extern = false;
      return status;
    }
    if (word == ".entry" || word == ".func") return parse_function(word == ".entry");
    if (word == ".global" || word == ".shared" || word == ".const") {
      return parse_variable(nullptr);
    }
    return error_here("unexpected PTX at module scope");
  }

  Status parse_file_directive() {
    ++m_pos;
    TC_TRY_ASSIGN(uint64_t index, expect_integer());
    if (peek().kind != Token::Kind::String) return error_here("expected a file name");
    if (m_module.files.size() <= index) m_module.files.resize(index + 1);
    m_module.files[index] = next().text;
    while (accept(",")) ++m_pos;  // optional timestamp and size
    return ok();
  }

  // `.shared .align 4 .b8 name[4224];`, `.global .u32 counter = 7;`, `.extern .shared ... dyn[];`
  Status parse_variable(Function* function) {
    Symbol symbol;
    symbol.space = Space::Global;
    const std::string space_word = next().text.substr(1);
    if (space_word == "shared") symbol.space = Space::Shared;
    if (space_word == "const") symbol.space = Space::Const;
    if (space_word == "local") symbol.space = Space::Local;
    if (space_word == "param") symbol.space = Space::Param;
    Type element = Type::None;
    uint64_t vector_width = 1;
    while (peek().text.starts_with(".")) {
      std::string modifier = next().text;
      if (modifier == ".align") {
        TC_TRY_ASSIGN(uint64_t alignment, expect_integer());
        symbol.align = static_cast<uint32_t>(alignment);
      } else if (Type t = type_from_modifier(modifier.substr(1)); t != Type::None) {
        element = t;
      } else if (modifier == ".v2" || modifier == ".v4") {
        vector_width = modifier == ".v2" ? 2 : 4;
      }
    }
    if (peek().kind != Token::Kind::Word) return error_here("expected a variable name");
    symbol.name = next().text;
    uint64_t element_bytes = std::max(1, type_bits(element) / 8) * vector_width;
    uint64_t count = 1;
    while (accept("[")) {
      if (accept("]")) {  // unsized: dynamic shared memory
        count = 0;
        continue;
      }
      TC_TRY_ASSIGN(uint64_t dimension, expect_integer());
      count *= dimension;
      TC_TRY(expect("]"));
    }
    symbol.size = element_bytes * count;
    if (symbol.space == Space::Param && function != nullptr) {
      symbol.space = Space::Local;
      symbol.call_parameter = true;
    }
    if (symbol.align < element_bytes) symbol.align = static_cast<uint32_t>(std::min<uint64_t>(element_bytes, 16));
    if (accept("=")) {
      TC_TRY(parse_initializer(symbol, element, element_bytes));
    }
    TC_TRY(expect(";"));
    add_symbol(std::move(symbol), function);
    return ok();
  }

  Status parse_initializer(Symbol& symbol, Type element, uint64_t element_bytes) {
    symbol.initializer.assign(symbol.size, 0);
    uint64_t index = 0;
    auto store_value = [&]() -> Status {
      bool negative = accept("-");
      const Token& token = next();
      uint64_t bits = 0;
      if (token.kind != Token::Kind::Number || !literal_bits(token.text, negative, element, bits)) {
        return make_error("PTX line " + std::to_string(token.line) +
                          ": unsupported initializer `" + token.text + "` for " + symbol.name);
      }
      for (uint64_t b = 0; b < element_bytes && index * element_bytes + b < symbol.size; ++b) {
        symbol.initializer[index * element_bytes + b] = static_cast<uint8_t>(bits >> (8 * b));
      }
      ++index;
      return ok();
    };
    if (accept("{")) {
      while (!accept("}")) {
        if (accept("{") || accept("}") || accept(",")) continue;
        TC_TRY(store_value());
      }
      return ok();
    }
    return store_value();
  }

  void add_symbol(Symbol symbol, Function* function) {
    int index = static_cast<int>(m_module.symbols.size());
    if (function) {
      m_function_symbols[symbol.name] = index;
    } else {
      m_module_symbols[symbol.name] = index;
    }
    m_module.symbols.push_back(std::move(symbol));
  }

  // ---- functions ----
  Status parse_function(bool is_entry) {
    ++m_pos;
    Function function;
    function.is_entry = is_entry;
    m_function_symbols.clear();
    m_registers.clear();
    if (!is_entry && peek().text == "(") {  // return value declaration
      TC_TRY(parse_parameter_list(function, /*is_return=*/true));
    }
    if (peek().kind != Token::Kind::Word) return error_here("expected a function name");
    function.name = next().text;
    if (peek().text == "(") TC_TRY(parse_parameter_list(function, false));
    while (peek().text.starts_with(".") && peek().text != ".entry") {  // .maxntid 256, 1, 1 etc.
      ++m_pos;
      while (peek().kind == Token::Kind::Number || peek().text == ",") ++m_pos;
    }
    if (accept(";") || m_extern) {  // declaration only
      if (!m_extern) m_module.functions.push_back(std::move(function));
      return ok();
    }
    TC_TRY(expect("{"));
    function.has_body = true;
    TC_TRY(parse_body(function));
    m_module.functions.push_back(std::move(function));
    return ok();
  }

  Status parse_parameter_list(Function& function, bool is_return) {
    TC_TRY(expect("("));
    while (!accept(")")) {
      if (accept(",")) continue;
      if (!accept(".param") && !accept(".reg")) return error_here("expected `.param`");
      Parameter parameter;
      uint32_t alignment = 0;
      while (peek().text.starts_with(".")) {
        std::string modifier = next().text;
        if (modifier == ".align") {
          TC_TRY_ASSIGN(uint64_t a, expect_integer());
          alignment = static_cast<uint32_t>(a);
        } else if (Type t = type_from_modifier(modifier.substr(1)); t != Type::None) {
          parameter.type = t;
        }
        // .ptr, .global and similar attributes do not change the layout
      }
      parameter.name = next().text;
      uint64_t count = 1;
      while (accept("[")) {
        TC_TRY_ASSIGN(uint64_t dimension, expect_integer());
        count *= dimension;
        TC_TRY(expect("]"));
      }
      uint32_t element = static_cast<uint32_t>(std::max(1, type_bits(parameter.type) / 8));
      parameter.size = element * static_cast<uint32_t>(count);
      parameter.align = alignment ? alignment : element;
      Symbol symbol;
      symbol.name = parameter.name;
      symbol.space = Space::Param;
      symbol.size = parameter.size;
      symbol.align = parameter.align;
      if (is_return) {  // read by the caller after the call; see inliner.cpp
        function.result_symbols.push_back(static_cast<int32_t>(m_module.symbols.size()));
        add_symbol(std::move(symbol), &function);
        continue;
      }
      parameter.offset = align_up(function.parameter_bytes, parameter.align);
      function.parameter_bytes = parameter.offset + parameter.size;
      symbol.offset = parameter.offset;
      function.parameter_symbols.push_back(static_cast<int32_t>(m_module.symbols.size()));
      add_symbol(std::move(symbol), &function);
      function.parameters.push_back(std::move(parameter));
    }
    return ok();
  }

  Status parse_body(Function& function) {
    int depth = 1;
    SourceLocation location;
    std::vector<std::pair<size_t, std::string>> branch_fixups;
    std::unordered_map<std::string, uint32_t> labels;
    while (depth > 0) {
      if (at_end()) return error_here("unexpected end of PTX inside " + function.name);
      const Token& token = peek();
      if (token.text == "{") { ++depth; ++m_pos; continue; }
      if (token.text == "}") { --depth; ++m_pos; continue; }
      // `.reg.b32 f;` (no space, as cuda_fp16.hpp's inline asm writes it) is one token.
      if (token.text == ".reg" || token.text.starts_with(".reg.")) { TC_TRY(parse_register_declaration(function)); continue; }
      if (token.text == ".shared" || token.text == ".local" || token.text == ".param" ||
          token.text == ".global" || token.text == ".const") {
        TC_TRY(parse_variable(&function));
        continue;
      }
      if (token.text == ".loc") { TC_TRY(parse_loc(location)); continue; }
      if (token.text == ".pragma" && peek(1).text == "nounroll") {  // ptxas keeps this loop rolled
        function.nounroll_starts.push_back(static_cast<uint32_t>(function.instructions.size()));
      }
      if (token.text == ".pragma") { skip_statement(); continue; }
      if (token.kind == Token::Kind::Word && peek(1).text == ":") {
        labels[token.text] = static_cast<uint32_t>(function.instructions.size());
        m_pos += 2;
        continue;
      }
      if (function.location.line == 0) function.location = location;
      TC_TRY(parse_instruction(function, location, branch_fixups));
    }
    for (auto& [index, label] : branch_fixups) {
      auto it = labels.find(label);
      if (it == labels.end()) {
        return make_error("PTX: branch to unknown label `" + label + "` in " + function.name);
      }
      function.instructions[index].target = it->second;
    }
    return ok();
  }

  Status parse_register_declaration(Function& function) {
    Type type = Type::None;
    std::string_view joined = next().text;  // ".reg", or ".reg.b32" written without a space
    joined.remove_prefix(4);
    while (joined.starts_with(".")) {
      joined.remove_prefix(1);
      const std::string_view modifier = joined.substr(0, joined.find('.'));
      if (Type t = type_from_modifier(std::string(modifier)); t != Type::None) type = t;
      joined.remove_prefix(modifier.size());
    }
    while (peek().text.starts_with(".")) {
      std::string modifier = next().text;
      if (Type t = type_from_modifier(modifier.substr(1)); t != Type::None) type = t;
    }
    do {
      std::string name = next().text;
      if (accept("<")) {
        TC_TRY_ASSIGN(uint64_t count, expect_integer());
        TC_TRY(expect(">"));
        if (count > k_max_registers || function.register_names.size() + count > k_max_registers) {
          return error_here("more than " + std::to_string(k_max_registers) + " registers in " + function.name);
        }
        for (uint64_t i = 0; i < count; ++i) add_register(function, name + std::to_string(i), type);
      } else {
        add_register(function, name, type);
      }
    } while (accept(","));
    return expect(";");
  }

  void add_register(Function& function, const std::string& name, Type type) {
    m_registers[name] = static_cast<int32_t>(function.register_names.size());
    function.register_names.push_back(name);
    function.register_types.push_back(type);
  }

  // `.loc 1 23 9` optionally followed by `, function_name ..., inlined_at 1 40 3` on the same line.
  Status parse_loc(SourceLocation& location) {
    const int line = next().line;
    TC_TRY_ASSIGN(uint64_t file, expect_integer());
    TC_TRY_ASSIGN(uint64_t source_line, expect_integer());
    location.file = static_cast<int>(file);
    location.line = static_cast<int>(source_line);
    while (!at_end() && peek().line == line) ++m_pos;
    return ok();
  }

  Status parse_instruction(Function& function, const SourceLocation& location,
                           std::vector<std::pair<size_t, std::string>>& branch_fixups) {
    Instruction instruction;
    instruction.location = location;
    const int ptx_line = peek().line;
    if (accept("@")) {
      instruction.guard_negated = accept("!");
      auto it = m_registers.find(peek().text);
      if (it == m_registers.end()) return error_here("unknown guard predicate");
      instruction.guard = it->second;
      ++m_pos;
    }
    if (peek().kind != Token::Kind::Word) return error_here("expected an instruction");
    const std::string word = next().text;
    instruction.text = word;
    decode_opcode(word, instruction);
    if (instruction.opcode == Opcode::Call) return parse_call(function, std::move(instruction));
    int index = 0;
    while (!accept(";")) {
      if (at_end()) return error_here("unterminated instruction `" + word + "`");
      if (index > 0) TC_TRY(expect(","));
      if (index >= static_cast<int>(instruction.operands.size())) {
        return make_error("PTX line " + std::to_string(ptx_line) + ": too many operands for `" +
                          word + "`");
      }
      TC_TRY_ASSIGN(Operand operand, parse_operand(instruction, index));
      if (operand.kind == Operand::Kind::Label) {
        branch_fixups.emplace_back(function.instructions.size(), m_last_label);
      }
      instruction.operands[index++] = operand;
      instruction.text += (index == 1 ? " " : ", ") + m_last_operand_text;
    }
    instruction.operand_count = static_cast<uint8_t>(index);
    resolve_video_operands(instruction);
    if (std::string problem = matrix_operand_problem(instruction); !problem.empty()) {
      instruction.unsupported_reason = "`" + word + "`: " + problem;
      instruction.opcode = Opcode::Unsupported;
    }
    if (instruction.opcode != Opcode::Unsupported && index < minimum_operands(instruction)) {
      // Hand-written PTX (inline asm that NVRTC passes on unchecked): refused at its line rather
      // than run with operands that are not there.
      instruction.unsupported_reason = "`" + word + "` with " + std::to_string(index) + " operand(s): it needs at least " +
                                       std::to_string(minimum_operands(instruction));
      instruction.opcode = Opcode::Unsupported;
    }
    function.instructions.push_back(std::move(instruction));
    return ok();
  }

  // call[.uni] [(results),] callee [, (arguments)];  -- results and arguments are .param names
  Status parse_call(Function& function, Instruction instruction) {
    CallSite site;
    auto parse_symbol_list = [&](std::vector<int32_t>& out) -> Status {
      TC_TRY(expect("("));
      while (!accept(")")) {
        if (accept(",")) continue;
        const int symbol = find_symbol(peek().text);
        if (symbol < 0) return error_here("unknown call parameter");
        out.push_back(symbol);
        ++m_pos;
      }
      return ok();
    };
    if (peek().text == "(") {
      TC_TRY(parse_symbol_list(site.results));
      TC_TRY(expect(","));
    }
    if (peek().kind != Token::Kind::Word) return error_here("expected the called function");
    site.callee = next().text;
    if (accept(",")) {
      if (peek().text != "(") {
        instruction.opcode = Opcode::Unsupported;
        instruction.unsupported_reason = "indirect calls through a function pointer";
        skip_statement();
        instruction.text += " " + site.callee;
        function.instructions.push_back(std::move(instruction));
        return ok();
      }
      TC_TRY(parse_symbol_list(site.arguments));
    }
    TC_TRY(expect(";"));
    instruction.text += " " + site.callee;
    instruction.call = static_cast<int32_t>(function.calls.size());
    function.calls.push_back(std::move(site));
    function.instructions.push_back(std::move(instruction));
    return ok();
  }

  Expected<Operand> parse_operand(const Instruction& instruction, int index) {
    size_t start = m_pos;
    Expected<Operand> operand = parse_operand_inner(instruction, index);
    m_last_operand_text.clear();
    for (size_t i = start; i < m_pos; ++i) m_last_operand_text += m_tokens[i].text;
    return operand;
  }

  Expected<Operand> parse_operand_inner(const Instruction& instruction, int index) {
    Operand operand;
    if (accept("[")) {
      operand.kind = Operand::Kind::Address;
      const std::string base = next().text;
      if (auto it = m_registers.find(base); it != m_registers.end()) {
        operand.reg = it->second;
      } else if (int symbol = find_symbol(base); symbol >= 0) {
        operand.symbol = symbol;
      } else if (base.size() && std::isdigit(static_cast<unsigned char>(base[0]))) {
        uint64_t absolute = 0;
        if (!literal_bits(base, false, Type::U64, absolute)) return error_here("bad address");
        operand.offset = static_cast<int64_t>(absolute);
      } else {
        return error_here("unknown address base `" + base + "`");
      }
      while (peek().text == "+" || peek().text == "-") {
        bool negative = next().text == "-";
        negative = accept("-") ? !negative : negative;
        TC_TRY_ASSIGN(uint64_t displacement, expect_integer());
        operand.offset += negative ? -static_cast<int64_t>(displacement)
                                   : static_cast<int64_t>(displacement);
      }
      TC_TRY(expect("]"));
      return operand;
    }
    if (accept("{")) {
      operand.kind = Operand::Kind::Vector;
      while (!accept("}")) {
        if (accept(",")) continue;
        const std::string name = next().text;
        int32_t reg = -1;
        if (name != "_") {
          auto it = m_registers.find(name);
          if (it == m_registers.end()) return error_here("unknown register `" + name + "`");
          reg = it->second;
        }
        if (operand.count >= 8) return error_here("vector operand with more than 8 elements");
        operand.elements[operand.count++] = reg;
      }
      return operand;
    }
    if (peek().text == "!") {
      ++m_pos;
      operand.negate = true;
    }
    bool negative = false;
    if (peek().text == "-") {
      ++m_pos;
      negative = true;
    }
    const Token& token = next();
    if (token.kind == Token::Kind::Number) {
      operand.kind = Operand::Kind::Immediate;
      Type type = source_operand_type(instruction, index);
      if (!literal_bits(token.text, negative, type == Type::None ? Type::S64 : type, operand.bits)) {
        return make_error("PTX line " + std::to_string(token.line) + ": bad literal `" +
                          token.text + "`");
      }
      return operand;
    }
    if (auto it = m_registers.find(token.text); it != m_registers.end()) {
      operand.kind = Operand::Kind::Register;
      operand.reg = it->second;
      operand.minus = negative;  // vmad's `-%r2`; refused anywhere else
      if (index == 0 && accept("|")) {  // setp's second destination: `%p1|%p2`
        auto second = m_registers.find(next().text);
        if (second == m_registers.end()) return error_here("unknown predicate after `|`");
        operand.elements[0] = second->second;
      }
      return operand;
    }
    // A refused instruction's selectors are read too, so that it is refused at its line.
    const bool selectable = instruction.opcode == Opcode::Vop4 || instruction.opcode == Opcode::Vop2 ||
                            instruction.opcode == Opcode::Vop || instruction.opcode == Opcode::Unsupported;
    if (selectable && parse_selected_register(token.text, operand)) {
      operand.minus = negative;
      return operand;
    }
    if (token.text.starts_with("%")) {
      std::string_view name = token.text;
      uint8_t component = 0;
      if (name.size() > 2 && name[name.size() - 2] == '.') {
        component = static_cast<uint8_t>(name.back() - 'x');
        name.remove_suffix(2);
      }
      if (auto numbered = numbered_special(token.text)) {
        operand.kind = Operand::Kind::Special;
        operand.special = numbered->first;
        operand.component = numbered->second;
        return operand;
      }
      auto it = special_table().find(name);
      if (it == special_table().end() || component > 2) {
        return make_error("PTX line " + std::to_string(token.line) + ": unknown register `" +
                          token.text + "`");
      }
      operand.kind = Operand::Kind::Special;
      operand.special = it->second.first;
      operand.component = component;
      return operand;
    }
    if (token.text == "WARP_SZ") {  // what NVRTC writes for warpSize used as a value
      operand.kind = Operand::Kind::Immediate;
      operand.bits = 32;
      return operand;
    }
    if (instruction.opcode == Opcode::Bra) {
      operand.kind = Operand::Kind::Label;
      m_last_label = token.text;
      return operand;
    }
    if (int symbol = find_symbol(token.text); symbol >= 0) {
      operand.kind = Operand::Kind::Symbol;
      operand.symbol = symbol;
      if (accept("+")) {
        TC_TRY_ASSIGN(uint64_t displacement, expect_integer());
        operand.offset = static_cast<int64_t>(displacement);
      }
      return operand;
    }
    if (instruction.opcode == Opcode::Unsupported) {  // e.g. `call` targets: reported at launch
      operand.kind = Operand::Kind::Label;
      return operand;
    }
    return make_error("PTX line " + std::to_string(token.line) + ": unknown operand `" +
                      token.text + "`");
  }

  // `%r2.b3210`: a register and the selector a video instruction writes after it, kept as written
  // for resolve_video_operands to check (a malformed one is kind '?').
  bool parse_selected_register(const std::string& text, Operand& operand) {
    const size_t dot = text.rfind('.');
    if (dot == std::string::npos) return false;
    auto it = m_registers.find(text.substr(0, dot));
    if (it == m_registers.end()) return false;
    operand.kind = Operand::Kind::Register;
    operand.reg = it->second;
    const std::string_view selector = std::string_view(text).substr(dot + 1);
    operand.select_kind = '?';
    if (selector.size() < 2 || selector.size() > 5 || (selector[0] != 'b' && selector[0] != 'h')) return true;
    uint16_t digits = 0;
    for (char digit : selector.substr(1)) {
      if (!std::isdigit(static_cast<unsigned char>(digit))) return true;
      digits = static_cast<uint16_t>(digits << 4 | (digit - '0'));
    }
    operand.select_kind = selector[0];
    operand.select_count = static_cast<uint8_t>(selector.size() - 1);
    operand.select_digits = digits;
    return true;
  }

  // An H200 keeps 1 KiB of every block's shared memory for the system: cooperative groups'
  // scratch (barrier words, a slot per warp) lives there.
  static constexpr uint32_t k_reserved_shared_bytes = 1024;

  int find_symbol(const std::string& name) const {
    if (auto it = m_function_symbols.find(name); it != m_function_symbols.end()) return it->second;
    if (auto it = m_module_symbols.find(name); it != m_module_symbols.end()) return it->second;
    return -1;
  }

  Expected<Module> finish() {
    layout_shared_memory();
    TC_TRY(inline_calls(m_module));
    for (Function& function : m_module.functions) {
      if (reads_special(function.instructions, {SpecialRegister::ReservedSmemOffset, SpecialRegister::ReservedSmemBegin,
                                                SpecialRegister::ReservedSmemEnd, SpecialRegister::ReservedSmemCap})) {
        function.reserved_shared_bytes = k_reserved_shared_bytes;
      }
      function.reconvergence_pc = compute_reconvergence_points(function);
      fuse_shared_accesses(function, m_module.symbols);
    }
    return std::move(m_module);
  }

  void layout_shared_memory() {
    uint64_t offset = 0;
    for (Symbol& symbol : m_module.symbols) {
      if (symbol.space != Space::Shared || symbol.size == 0) continue;
      offset = align_up(offset, symbol.align);
      symbol.offset = offset;
      offset += symbol.size;
    }
    // Dynamic shared memory (`extern .shared x[]`) starts after every static variable.
    uint64_t dynamic_start = align_up(offset, 16);
    for (Symbol& symbol : m_module.symbols) {
      if (symbol.space == Space::Shared && symbol.size == 0) symbol.offset = dynamic_start;
    }
    m_module.module_shared_bytes = static_cast<uint32_t>(dynamic_start);
    uint64_t local_offset = 0;
    for (Symbol& symbol : m_module.symbols) {
      if (symbol.space != Space::Local) continue;
      local_offset = align_up(local_offset, symbol.align);
      symbol.offset = local_offset;
      local_offset += symbol.size;
    }
    m_module.module_local_bytes = align_up(local_offset, 16);
    for (Function& function : m_module.functions) {
      function.static_shared_bytes = m_module.module_shared_bytes;
      function.local_bytes = m_module.module_local_bytes;
    }
  }

  std::vector<Token> m_tokens;
  size_t m_pos = 0;
  Module m_module;
  bool m_extern = false;
  std::unordered_map<std::string, int32_t> m_registers;
  std::unordered_map<std::string, int> m_function_symbols;
  std::unordered_map<std::string, int> m_module_symbols;
  std::string m_last_label;
  std::string m_last_operand_text;
};

}  // namespace

Expected<Module> parse_module(std::string_view text) { return Parser(text).parse(); }

}  // namespace tilecamp::ptx
