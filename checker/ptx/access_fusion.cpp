#include "checker/ptx/access_fusion.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <set>

#include "checker/ptx/cfg.h"

namespace tilecamp::ptx {
namespace {

constexpr uint64_t k_any_alignment = uint64_t{1} << 32;  // what 0 counts as a multiple of
constexpr uint32_t k_max_unroll = 6;
constexpr uint32_t k_max_trip_count = 4096;

uint64_t low_bit(uint64_t value) {
  return value == 0 ? k_any_alignment : std::min(k_any_alignment, value & (~value + 1));
}

uint64_t product(uint64_t a, uint64_t b) { return a >= k_any_alignment / b ? k_any_alignment : a * b; }

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// An immediate operand's value, sign-extended from the instruction's width.
int64_t signed_value(const Instruction& in, uint64_t bits) {
  const int width = type_bits(in.type);
  if (width <= 0 || width >= 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((bits & ((sign << 1) - 1)) ^ sign) - static_cast<int64_t>(sign);
}

std::vector<int32_t> destinations(const Instruction& in) {
  if (in.operand_count == 0 || in.opcode == Opcode::St || in.opcode == Opcode::Red) return {};
  const Operand& out = in.operands[0];
  if (out.kind == Operand::Kind::Register) return {out.reg};
  std::vector<int32_t> registers;
  if (out.kind != Operand::Kind::Vector) return registers;
  for (int i = 0; i < out.count; ++i) {
    if (out.elements[i] >= 0) registers.push_back(out.elements[i]);
  }
  return registers;
}

bool defines(const Instruction& in, int32_t reg) {
  const std::vector<int32_t> written = destinations(in);
  return std::find(written.begin(), written.end(), reg) != written.end();
}

// The power of two each register's value is known to be a multiple of, as ptxas sees it: every
// definition of the register counts, so a loop counter that starts 16-aligned and steps by 8 is
// only 8-aligned.
class Alignments {
 public:
  Alignments(const Function& function, const std::vector<Symbol>& symbols)
      : m_symbols(symbols), m_registers(function.register_names.size(), k_any_alignment) {
    for (bool changed = true; changed;) {  // falls monotonically: ends within 33 rounds a register
      changed = false;
      for (const Instruction& in : function.instructions) {
        const uint64_t alignment = defined_by(in);
        for (int32_t reg : destinations(in)) {
          if (alignment >= m_registers[reg]) continue;
          m_registers[reg] = alignment;
          changed = true;
        }
      }
    }
  }

  uint64_t of_register(int32_t reg) const { return m_registers[reg]; }

  uint64_t of_symbol(int32_t symbol) const {
    const Symbol& s = m_symbols[symbol];
    return s.space == Space::Shared ? low_bit(s.offset) : 1;
  }

  uint64_t of(const Operand& operand) const {
    switch (operand.kind) {
      case Operand::Kind::Register: return m_registers[operand.reg];
      case Operand::Kind::Immediate: return low_bit(operand.bits);
      case Operand::Kind::Symbol:
        return std::min(of_symbol(operand.symbol), low_bit(static_cast<uint64_t>(operand.offset)));
      default: return 1;
    }
  }

  // The alignment of the value `in` writes.
  uint64_t defined_by(const Instruction& in) const {
    const auto& op = in.operands;
    switch (in.opcode) {
      case Opcode::Mov: case Opcode::Cvt: case Opcode::Cvta: return of(op[1]);
      case Opcode::Add: case Opcode::Sub: case Opcode::Or: case Opcode::Selp: return std::min(of(op[1]), of(op[2]));
      case Opcode::And: return std::max(of(op[1]), of(op[2]));
      case Opcode::Mul: return in.mul_mode == MulMode::Hi ? 1 : product(of(op[1]), of(op[2]));
      case Opcode::Mad:
        return in.mul_mode == MulMode::Hi ? 1 : std::min(product(of(op[1]), of(op[2])), of(op[3]));
      case Opcode::Shl:
        if (op[2].kind != Operand::Kind::Immediate) return of(op[1]);
        return product(of(op[1]), uint64_t{1} << std::min<uint64_t>(op[2].bits, 32));
      default: return 1;
    }
  }

 private:
  const std::vector<Symbol>& m_symbols;
  std::vector<uint64_t> m_registers;
};

// The least alignment the definitions of `reg` outside [first, last] give it.
uint64_t alignment_outside(const Function& function, const Alignments& alignments, int32_t reg, uint32_t first,
                           uint32_t last) {
  uint64_t alignment = k_any_alignment;
  for (uint32_t pc = 0; pc < function.instructions.size(); ++pc) {
    if ((pc < first || pc > last) && defines(function.instructions[pc], reg)) {
      alignment = std::min(alignment, alignments.defined_by(function.instructions[pc]));
    }
  }
  return alignment;
}

// --- Loops ptxas unrolls -------------------------------------------------------------------------

bool compare(CompareOp op, int64_t a, int64_t b, bool is_unsigned) {
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
    case CompareOp::Eq: return a == b;
    case CompareOp::Ne: return a != b;
    case CompareOp::Lt: return is_unsigned ? ua < ub : a < b;
    case CompareOp::Le: return is_unsigned ? ua <= ub : a <= b;
    case CompareOp::Gt: return is_unsigned ? ua > ub : a > b;
    case CompareOp::Ge: return is_unsigned ? ua >= ub : a >= b;
    case CompareOp::Lo: return ua < ub;
    case CompareOp::Ls: return ua <= ub;
    case CompareOp::Hi: return ua > ub;
    case CompareOp::Hs: return ua >= ub;
    default: return false;
  }
}

// The value a register always holds when it has a single definition `mov reg, constant`.
std::optional<int64_t> constant_register(const Function& function, int32_t reg) {
  std::optional<int64_t> value;
  for (const Instruction& in : function.instructions) {
    if (!defines(in, reg)) continue;
    if (value || in.opcode != Opcode::Mov || in.operands[1].kind != Operand::Kind::Immediate) return std::nullopt;
    value = signed_value(in, in.operands[1].bits);
  }
  return value;
}

// A loop counter: set once before the loop, stepped once inside, compared to end it.
struct Counter {
  int64_t start = 0, step = 0, bound = 0;
  bool stepped_before_compare = false;
};

std::optional<Counter> find_counter(const Function& function, uint32_t first, uint32_t last, const Instruction& setp) {
  const auto& code = function.instructions;
  const int32_t reg = setp.operands[1].kind == Operand::Kind::Register ? setp.operands[1].reg : -1;
  const Operand& bound = setp.operands[2];
  if (reg < 0) return std::nullopt;
  Counter counter;
  std::optional<int64_t> limit = bound.kind == Operand::Kind::Immediate ? signed_value(setp, bound.bits)
                                 : bound.kind == Operand::Kind::Register ? constant_register(function, bound.reg)
                                                                         : std::nullopt;
  if (!limit) return std::nullopt;
  counter.bound = *limit;
  int steps = 0, starts = 0;
  for (uint32_t pc = 0; pc < code.size(); ++pc) {
    const Instruction& in = code[pc];
    if (!defines(in, reg)) continue;
    const Operand& source = in.operands[1];
    if (pc >= first && pc <= last) {
      const bool steps_itself = in.opcode == Opcode::Add && source.reg == reg;
      if (!steps_itself || in.operands[2].kind != Operand::Kind::Immediate) return std::nullopt;
      counter.step = signed_value(in, in.operands[2].bits);
      counter.stepped_before_compare = &in < &setp;
      ++steps;
    } else if (in.opcode == Opcode::Mov && source.kind == Operand::Kind::Immediate) {
      counter.start = signed_value(in, source.bits);
      ++starts;
    } else if (auto value = in.opcode == Opcode::Mov && source.kind == Operand::Kind::Register
                                ? constant_register(function, source.reg)
                                : std::nullopt) {
      counter.start = *value;
      ++starts;
    } else {
      return std::nullopt;
    }
  }
  if (steps != 1 || starts != 1 || counter.step == 0) return std::nullopt;
  return counter;
}

// How many times the single-block loop [first, last] runs, when that is a constant.
std::optional<uint32_t> trip_count(const Function& function, uint32_t first, uint32_t last) {
  const auto& code = function.instructions;
  const Instruction& branch = code[last];
  if (branch.opcode != Opcode::Bra || branch.target != first || branch.guard < 0) return std::nullopt;
  const Instruction* setp = nullptr;
  for (uint32_t pc = first; pc < last; ++pc) {
    if (defines(code[pc], branch.guard)) setp = code[pc].opcode == Opcode::Setp ? &code[pc] : nullptr;
  }
  if (setp == nullptr) return std::nullopt;
  const std::optional<Counter> counter = find_counter(function, first, last, *setp);
  if (!counter) return std::nullopt;
  const bool is_unsigned = !is_signed(setp->type);
  const int width = type_bits(setp->type);
  const int64_t mask = is_unsigned && width < 64 ? (int64_t{1} << width) - 1 : -1;
  auto wrap = [&](int64_t v) { return signed_value(*setp, static_cast<uint64_t>(v)) & mask; };
  int64_t value = counter->start;
  for (uint32_t trips = 1; trips <= k_max_trip_count; ++trips) {
    const int64_t compared = wrap(counter->stepped_before_compare ? value + counter->step : value);
    value += counter->step;
    if (compare(setp->compare, compared, wrap(counter->bound), is_unsigned) == branch.guard_negated) return trips;
  }
  return std::nullopt;
}

// By how many iterations ptxas unrolls the block [first, last]: 1 when it is not a loop ptxas unrolls.
uint32_t unroll_factor(const Function& function, uint32_t first, uint32_t last) {
  const auto& pragmas = function.nounroll_starts;
  if (std::find(pragmas.begin(), pragmas.end(), first) != pragmas.end()) return 1;
  const std::optional<uint32_t> trips = trip_count(function, first, last);
  if (!trips) return 1;
  if (*trips <= k_max_unroll) return *trips;
  for (uint32_t factor = k_max_unroll; factor > 1; --factor) {
    if (*trips % factor == 0) return factor;
  }
  return 1;
}

// --- Grouping accesses ---------------------------------------------------------------------------

// A value inside one basic block, as a sum of values the pass does not know (its terms: registers
// on entry to the block, symbols' addresses, results of other operations) and a constant.
// Addresses with the same terms differ by a constant ptxas sees.
struct Affine {
  std::vector<int32_t> terms;  // sorted
  int64_t constant = 0;
};

struct Access {
  uint32_t pc;
  int64_t offset;   // from the group's base
  uint32_t bytes;
};

struct GroupKey {
  bool is_store;
  uint32_t granule;              // 2 or 4 bytes
  std::vector<int32_t> terms;    // the base
  int32_t guard;
  bool guard_negated;
  uint32_t guard_version;        // the guard's definition the accesses saw
  auto operator<=>(const GroupKey&) const = default;
};

// The wider accesses found: one per chunk, with the instructions that make it up.
struct Chunk {
  uint8_t bytes;
  uint8_t first;  // offset in the chunk of the access charged for it
  std::vector<uint32_t> pcs;
};

struct FusionPlan {
  std::vector<Chunk> chunks;
  std::vector<uint32_t> alone;
};

// Merges the unplaced accesses of each naturally aligned `width`-byte chunk when, without
// overlapping, two or more of them cover at least `needed` of its granules.
void place_chunks(const std::vector<Access>& accesses, uint32_t width, uint32_t needed, uint32_t granule,
                  std::vector<bool>& placed, FusionPlan& plan) {
  for (size_t i = 0, end = 0; i < accesses.size(); i = end) {
    const int64_t chunk = floor_div(accesses[i].offset, width);
    uint32_t covered = 0, members = 0;
    bool overlap = false;
    for (end = i; end < accesses.size() && floor_div(accesses[end].offset, width) == chunk; ++end) {
      if (placed[end]) continue;
      const uint64_t position = static_cast<uint64_t>(accesses[end].offset - chunk * width);
      const uint32_t mask = ((1u << (accesses[end].bytes / granule)) - 1) << (position / granule);
      overlap |= (covered & mask) != 0 || position + accesses[end].bytes > width;
      covered |= mask;
      ++members;
    }
    if (overlap || members < 2 || static_cast<uint32_t>(std::popcount(covered)) < needed) continue;
    Chunk merged{static_cast<uint8_t>(width), static_cast<uint8_t>(std::countr_zero(covered) * granule), {}};
    for (size_t k = i; k < end; ++k) {
      if (placed[k]) continue;
      merged.pcs.push_back(accesses[k].pc);
      placed[k] = true;
    }
    plan.chunks.push_back(std::move(merged));
  }
}

// The accesses ptxas makes of one group: whole 4-granule chunks first, then aligned pairs.
void plan_group(const GroupKey& key, uint64_t alignment, std::vector<Access> accesses, FusionPlan& plan) {
  std::sort(accesses.begin(), accesses.end(), [](const Access& a, const Access& b) { return a.offset < b.offset; });
  std::vector<bool> placed(accesses.size(), false);
  const uint32_t granule = key.granule;
  if (alignment >= 4 * granule) place_chunks(accesses, 4 * granule, key.is_store ? 4 : 3, granule, placed, plan);
  if (alignment >= 2 * granule) place_chunks(accesses, 2 * granule, 2, granule, placed, plan);
  for (size_t i = 0; i < accesses.size(); ++i) {
    if (!placed[i]) plan.alone.push_back(accesses[i].pc);
  }
}

// 2 or 4 when `in` is a shared load or store ptxas may merge (the granule it merges in), else 0.
uint32_t fusable_granule(const Instruction& in) {
  if ((in.opcode != Opcode::Ld && in.opcode != Opcode::St) || in.space != Space::Shared) return 0;
  if (in.text.find(".volatile") != std::string::npos) return 0;
  const int element = type_bits(in.type) / 8;
  const int bytes = element * in.vector;
  if (element == 2 && bytes <= 4) return 2;
  if (element >= 4 && bytes <= 8) return 4;
  return 0;
}

bool orders_shared_memory(const Instruction& in) {
  switch (in.opcode) {
    case Opcode::Bar: case Opcode::BarRed: case Opcode::BarWarp: case Opcode::Membar: case Opcode::Atom:
    case Opcode::Red: case Opcode::Call: case Opcode::CpAsync: case Opcode::CpAsyncCommit:
    case Opcode::CpAsyncWait: case Opcode::Trap:
      return true;
    default:
      return false;
  }
}

// Walks one basic block (repeated `iterations` times for a loop ptxas unrolls), following the
// registers' values, and groups the shared accesses ptxas can merge.
class BlockScan {
 public:
  BlockScan(const Function& function, const std::vector<Symbol>& symbols, const Alignments& alignments,
            FusionPlan& plan)
      : m_function(function), m_alignments(alignments), m_plan(plan),
        m_register_count(static_cast<int32_t>(function.register_names.size())),
        m_symbol_count(static_cast<int32_t>(symbols.size())) {}

  void scan(uint32_t first, uint32_t last, uint32_t iterations, std::map<int32_t, uint64_t> entry_alignments) {
    reset();
    m_entry_alignments = std::move(entry_alignments);
    for (uint32_t iteration = 0; iteration < iterations; ++iteration) {
      for (uint32_t pc = first; pc <= last; ++pc) step(pc);
    }
    close_groups([](const GroupKey&) { return true; });
  }

  // The registers the block steps by a constant each time through: register -> step.
  std::map<int32_t, int64_t> inductions(uint32_t first, uint32_t last) {
    reset();
    for (uint32_t pc = first; pc <= last; ++pc) define(m_function.instructions[pc]);
    std::map<int32_t, int64_t> steps;
    for (const auto& [reg, value] : m_values) {
      if (value.terms == std::vector<int32_t>{reg}) steps[reg] = value.constant;
    }
    reset();
    return steps;
  }

 private:
  void reset() {
    m_values.clear();
    m_versions.clear();
    m_open.clear();
    m_opaque_alignments.clear();
  }

  void step(uint32_t pc) {
    const Instruction& in = m_function.instructions[pc];
    const bool shared_side = in.space == Space::Shared || in.space == Space::Generic;
    const bool is_load = in.opcode == Opcode::Ld && shared_side, is_store = in.opcode == Opcode::St && shared_side;
    if (orders_shared_memory(in)) close_groups([](const GroupKey&) { return true; });
    if (const uint32_t granule = fusable_granule(in)) {
      add_access(in, pc, granule);
    } else if (is_store) {
      close_groups([](const GroupKey&) { return true; });
    } else if (is_load) {
      close_groups([](const GroupKey& key) { return key.is_store; });
    }
    define(in);
  }

  void add_access(const Instruction& in, uint32_t pc, uint32_t granule) {
    const bool is_store = in.opcode == Opcode::St;
    const Operand& address = in.operands[is_store ? 0 : 1];
    Affine base = address.reg >= 0 ? value_of(address.reg) : Affine{};
    if (address.symbol >= 0) insert_term(base, m_register_count + address.symbol);
    const uint32_t version = in.guard >= 0 ? m_versions[in.guard] : 0;
    GroupKey key{is_store, granule, base.terms, in.guard, in.guard_negated, version};
    // A store may overwrite what a pending load reads, and a load may read what a pending store writes.
    close_groups([&](const GroupKey& open) { return is_store ? (!open.is_store || open != key) : open.is_store; });
    const uint32_t bytes = static_cast<uint32_t>(type_bits(in.type) / 8 * in.vector);
    m_open[key].push_back({pc, base.constant + address.offset, bytes});
  }

  template <typename Predicate>
  void close_groups(Predicate should_close) {
    for (auto it = m_open.begin(); it != m_open.end();) {
      if (!should_close(it->first)) { ++it; continue; }
      plan_group(it->first, alignment_of(it->first.terms), std::move(it->second), m_plan);
      it = m_open.erase(it);
    }
  }

  void define(const Instruction& in) {
    const std::vector<int32_t> written = destinations(in);
    for (int32_t reg : written) ++m_versions[reg];
    if (written.size() == 1 && in.operands[0].kind == Operand::Kind::Register) {
      m_values[written[0]] = evaluate(in);
    } else {
      for (int32_t reg : written) m_values[reg] = opaque(1);
    }
  }

  Affine evaluate(const Instruction& in) {
    const auto& op = in.operands;
    if (!is_float(in.type)) {
      if (in.opcode == Opcode::Mov) {
        if (auto value = operand_value(in, op[1])) return *value;
      } else if (in.opcode == Opcode::Add) {
        auto a = operand_value(in, op[1]), b = operand_value(in, op[2]);
        if (a && b) {
          for (int32_t term : b->terms) insert_term(*a, term);
          a->constant += b->constant;
          return *a;
        }
      } else if (in.opcode == Opcode::Sub && op[2].kind == Operand::Kind::Immediate) {
        if (auto a = operand_value(in, op[1])) {
          a->constant -= signed_value(in, op[2].bits);
          return *a;
        }
      }
    }
    return opaque(m_alignments.defined_by(in));
  }

  std::optional<Affine> operand_value(const Instruction& in, const Operand& operand) {
    switch (operand.kind) {
      case Operand::Kind::Register: return value_of(operand.reg);
      case Operand::Kind::Immediate: return Affine{{}, signed_value(in, operand.bits)};
      case Operand::Kind::Symbol: return Affine{{m_register_count + operand.symbol}, operand.offset};
      default: return std::nullopt;
    }
  }

  Affine value_of(int32_t reg) {
    auto it = m_values.find(reg);
    return it != m_values.end() ? it->second : Affine{{reg}, 0};
  }

  Affine opaque(uint64_t alignment) {
    m_opaque_alignments.push_back(alignment);
    return Affine{{m_register_count + m_symbol_count + static_cast<int32_t>(m_opaque_alignments.size()) - 1}, 0};
  }

  static void insert_term(Affine& value, int32_t term) {
    value.terms.insert(std::upper_bound(value.terms.begin(), value.terms.end(), term), term);
  }

  uint64_t alignment_of(const std::vector<int32_t>& terms) const {
    uint64_t alignment = k_any_alignment;
    for (int32_t term : terms) {
      if (term < m_register_count) {
        auto it = m_entry_alignments.find(term);
        alignment = std::min(alignment, it != m_entry_alignments.end() ? it->second : m_alignments.of_register(term));
      } else if (term < m_register_count + m_symbol_count) {
        alignment = std::min(alignment, m_alignments.of_symbol(term - m_register_count));
      } else {
        alignment = std::min(alignment, m_opaque_alignments[term - m_register_count - m_symbol_count]);
      }
    }
    return alignment;
  }

  const Function& m_function;
  const Alignments& m_alignments;
  FusionPlan& m_plan;
  const int32_t m_register_count;
  const int32_t m_symbol_count;
  std::map<int32_t, Affine> m_values;
  std::map<int32_t, uint32_t> m_versions;
  std::map<GroupKey, std::vector<Access>> m_open;
  std::vector<uint64_t> m_opaque_alignments;
  std::map<int32_t, uint64_t> m_entry_alignments;  // loop inductions on entry to an unrolled trip
};

// Writes the plan into the instructions. An instruction must play the same part every time it
// runs (in each unrolled iteration), since the emulator decides from its addresses alone: the
// chunks of one that would not are given up until every instruction is consistent.
void apply(const FusionPlan& plan, Function& function) {
  std::vector<bool> valid(plan.chunks.size(), true);
  std::set<uint32_t> alone(plan.alone.begin(), plan.alone.end());
  for (;;) {
    std::map<uint32_t, std::pair<uint8_t, uint8_t>> part;
    std::set<uint32_t> conflicted;
    auto assign = [&](uint32_t pc, std::pair<uint8_t, uint8_t> role) {
      auto [it, inserted] = part.emplace(pc, role);
      if (!inserted && it->second != role) conflicted.insert(pc);
    };
    for (uint32_t pc : alone) assign(pc, {0, 0});
    for (size_t c = 0; c < plan.chunks.size(); ++c) {
      if (!valid[c]) continue;
      for (uint32_t pc : plan.chunks[c].pcs) assign(pc, {plan.chunks[c].bytes, plan.chunks[c].first});
    }
    if (conflicted.empty()) {
      for (const auto& [pc, role] : part) {
        function.instructions[pc].fused_bytes = role.first;
        function.instructions[pc].fused_first = role.second;
      }
      return;
    }
    for (size_t c = 0; c < plan.chunks.size(); ++c) {
      const auto& pcs = plan.chunks[c].pcs;
      auto is_conflicted = [&](uint32_t pc) { return conflicted.contains(pc); };
      if (!valid[c] || std::none_of(pcs.begin(), pcs.end(), is_conflicted)) continue;
      valid[c] = false;
      alone.insert(pcs.begin(), pcs.end());
    }
  }
}

}  // namespace

void fuse_shared_accesses(Function& function, const std::vector<Symbol>& symbols) {
  const auto& code = function.instructions;
  if (std::none_of(code.begin(), code.end(), [](const Instruction& in) { return fusable_granule(in) != 0; })) return;
  const Alignments alignments(function, symbols);
  FusionPlan plan;
  BlockScan scan(function, symbols, alignments, plan);
  std::vector<uint32_t> starts = basic_block_starts(function);
  starts.push_back(static_cast<uint32_t>(code.size()));
  for (size_t b = 0; b + 1 < starts.size(); ++b) {
    const uint32_t first = starts[b], last = starts[b + 1] - 1;
    const uint32_t unroll = unroll_factor(function, first, last);
    std::map<int32_t, uint64_t> entry_alignments;
    if (unroll > 1) {
      for (const auto& [reg, step] : scan.inductions(first, last)) {
        entry_alignments[reg] = std::min(alignment_outside(function, alignments, reg, first, last),
                                         low_bit(static_cast<uint64_t>(step) * unroll));
      }
    }
    scan.scan(first, last, unroll, std::move(entry_alignments));
  }
  apply(plan, function);
}

}  // namespace tilecamp::ptx
