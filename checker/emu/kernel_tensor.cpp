// The warp-wide matrix instructions: mma.sync, ldmatrix, movmatrix and WMMA's wmma.load,
// wmma.store and wmma.mma. They are .sync.aligned: every thread of the warp executes them
// together, or a GPU's result is undefined, so the emulator reports a warp that does not. The
// arithmetic and the fragments' layouts are in tensor_math.h; ldmatrix and WMMA's loads and stores
// are charged as Nsight Compute charges shared and global accesses (docs/emulator.md).
#include <bit>
#include <cstring>

#include "checker/emu/kernel_run.h"
#include "checker/emu/tensor_math.h"
#include "checker/ptx/matrix_decoder.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::MatrixType;
using ptx::Opcode;
using ptx::Operand;

namespace {

int vector_register(const Operand& operand, int index) {
  return operand.kind == Operand::Kind::Vector ? operand.elements[index] : operand.reg;
}

// A fragment's elements, lane by lane: element e of lane l at [l * 16 + e] (16-bit elements in
// the low half of a word).
using FragmentWords = std::array<uint32_t, k_warp_size * 16>;

// The shared-memory cost of 8 x 8 matrices of 16-bit elements read row by row, as ldmatrix reads
// them: rows[8 i + r] is the address of row r (16 bytes) of matrix i. Nsight Compute counts each
// matrix on its own, as many wavefronts as its 8 rows need banks (one when no two rows share a
// bank, eight when all start in one; a row named twice is read once), so 4 for an .x4 even when
// every lane names the same row (tests/data/h200-tensor-wavefronts.tsv).
SharedCost matrix_rows_cost(const LaneAddresses& rows, int matrices) {
  SharedCost total;
  for (int matrix = 0; matrix < matrices; ++matrix) {
    LaneAddresses one{};
    for (int row = 0; row < 8; ++row) one[row] = rows[8 * matrix + row];
    const SharedCost cost = count_shared_wavefronts(one, 0xffu, 16);
    total.wavefronts += cost.wavefronts;
    total.ideal_wavefronts += cost.ideal_wavefronts;
  }
  return total;
}

}  // namespace

// Reads fragment `which` (operand `index`) of every lane into its matrix, `columns` wide.
static void gather(const Warp& warp, const Instruction& in, int index, char which, uint32_t* matrix, int columns) {
  const Operand& operand = in.operands[index];
  const int elements = fragment_elements(in, which);
  const int registers = ptx::fragment_registers(in, which);
  const bool halves = elements == 2 * registers;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    for (int e = 0; e < elements; ++e) {
      const int reg = vector_register(operand, halves ? e / 2 : e);
      const uint64_t word = reg >= 0 ? warp.registers[reg * k_warp_size + lane] : 0;
      const uint32_t value = halves ? static_cast<uint32_t>(word >> (16 * (e % 2))) & 0xffffu : static_cast<uint32_t>(word);
      const MatrixPlace place = fragment_place(in, which, lane, e);
      matrix[place.row * columns + place.col] = value;
    }
  }
}

// Writes matrix D (`columns` wide) into every lane's fragment, operand `index`.
static void scatter(Warp& warp, const Instruction& in, int index, const uint32_t* matrix, int columns) {
  const Operand& operand = in.operands[index];
  const int registers = ptx::fragment_registers(in, 'd');
  const int elements = fragment_elements(in, 'd');
  const bool halves = elements == 2 * registers;
  for (int lane = 0; lane < k_warp_size; ++lane) {
    for (int r = 0; r < registers; ++r) {
      uint64_t word = 0;
      for (int part = 0; part < (halves ? 2 : 1); ++part) {
        const MatrixPlace place = fragment_place(in, 'd', lane, halves ? 2 * r + part : r);
        word |= uint64_t{matrix[place.row * columns + place.col]} << (16 * part);
      }
      const int reg = vector_register(operand, r);
      if (reg >= 0) warp.registers[reg * k_warp_size + lane] = word;
    }
  }
}

void KernelRun::execute_matrix(Warp& warp, const Instruction& in, uint32_t lanes) {
  if (lanes != 0xffffffffu) {
    const uint32_t missing = ~lanes;
    const uint32_t exited = missing & ~warp.live_mask;
    fail(in, "warp-sync",
         "`" + in.text + "` is executed by threads " + lane_list(lanes) + " of warp " + std::to_string(warp.index) +
             " in block " + block_name() + " without threads " + lane_list(missing) +
             (exited == missing ? " (they exited or do not exist)" : exited ? " (some exited, the others took another path)" : " (they took another path)") +
             ": mma, ldmatrix, movmatrix and wmma.* are .sync.aligned, so all 32 threads of the warp must execute "
             "them together, the same instruction, outside any branch that splits the warp (a GPU's result is "
             "undefined otherwise)");
    return;
  }
  const ptx::MatrixForm& form = in.matrix;
  switch (in.opcode) {
    case Opcode::Mma:
    case Opcode::WmmaMma: {
      const int m = form.m, n = form.n, k = form.k;
      std::array<uint32_t, 16 * 16> a{}, b{}, c{}, d{};
      gather(warp, in, 1, 'a', a.data(), k);
      gather(warp, in, 2, 'b', b.data(), n);
      gather(warp, in, 3, 'c', c.data(), n);
      // WMMA's tf32 m16n16k8 runs as two k = 4 steps (HMMA.1684 pairs), the first rounded to f32:
      // what the H200 data shows. Every other form sums its whole k at once.
      const int step = in.opcode == Opcode::WmmaMma && form.a == MatrixType::TF32 ? 4 : k;
      std::array<uint32_t, 16> row{}, column{};
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          uint32_t accumulator = c[i * n + j];
          MatrixType accumulator_type = form.c;
          for (int first = 0; first < k; first += step) {
            for (int x = 0; x < step; ++x) {
              row[x] = a[i * k + first + x];
              column[x] = b[(first + x) * n + j];
            }
            const MatrixType result_type = first + step >= k ? form.d : MatrixType::F32;
            accumulator = tensor_dot(form.a, row.data(), column.data(), step, accumulator_type, accumulator, result_type);
            accumulator_type = result_type;
          }
          d[i * n + j] = accumulator;
        }
      }
      scatter(warp, in, 0, d.data(), n);
      return;
    }
    case Opcode::Movmatrix: {
      std::array<uint32_t, k_warp_size> source{};
      for (int lane = 0; lane < k_warp_size; ++lane) source[lane] = static_cast<uint32_t>(read(warp, in.operands[1], lane));
      auto element = [&](int row, int col) { return source[row * 4 + col / 2] >> (16 * (col % 2)) & 0xffffu; };
      for (int lane = 0; lane < k_warp_size; ++lane) {
        const int group = lane >> 2, thread = lane & 3;
        write(warp, in.operands[0].reg, lane, element(2 * thread, group) | element(2 * thread + 1, group) << 16);
      }
      return;
    }
    case Opcode::Ldmatrix:
      load_matrix_rows(warp, in);
      return;
    case Opcode::WmmaLoad:
    case Opcode::WmmaStore:
      wmma_memory(warp, in);
      return;
    default:
      return;
  }
}

// ldmatrix: thread 8i + r names row r of matrix i (16 bytes of shared memory); thread l then
// holds, in register i, the two 16-bit elements of row l / 4 at columns 2 (l % 4) and 2 (l % 4) + 1
// (with .trans: of column l / 4 at those rows). Charged as one shared load, each matrix's 8 rows
// counted apart: a wavefront per matrix when no two of its rows share banks (matrix_rows_cost).
void KernelRun::load_matrix_rows(Warp& warp, const Instruction& in) {
  const int count = in.matrix.count;
  const uint32_t naming = count == 4 ? 0xffffffffu : (1u << (8 * count)) - 1u;
  WarpAccess access;
  if (!resolve_access(warp, in, in.operands[1], naming, 16, access)) return;
  if (access.lanes[k_shared_slot] != naming) {
    const int lane = std::countr_zero(naming & ~access.lanes[k_shared_slot]);
    fail(in, "out-of-bounds", "`" + in.text + "` reads shared memory only, but " + thread_name(warp, lane) +
                                  " names a row outside it");
    return;
  }
  const SharedCost cost = matrix_rows_cost(access.addresses[k_shared_slot], count);
  Counters& counters = m_counters[&in - m_code.data()];
  counters.shared_ld_requests += 1;
  counters.shared_ld_wavefronts += cost.wavefronts;
  counters.shared_ld_bank_conflicts += cost.bank_conflicts();
  track_shared_access(warp, in, access.addresses[k_shared_slot], naming, 16, 2, false);
  if (m_config.observer) observe_access(warp, in, access, 16, {{}, {1, cost.wavefronts, cost.ideal_wavefronts}}, true);
  auto element = [&](int matrix, int row, int col) -> uint32_t {
    uint16_t value;
    std::memcpy(&value, access.pointers[8 * matrix + row] + 2 * col, 2);
    return value;
  };
  const Operand& destination = in.operands[0];
  for (int lane = 0; lane < k_warp_size; ++lane) {
    const int group = lane >> 2, thread = lane & 3;
    for (int i = 0; i < count; ++i) {
      const uint32_t value = in.matrix.trans ? element(i, 2 * thread, group) | element(i, 2 * thread + 1, group) << 16
                                             : element(i, group, 2 * thread) | element(i, group, 2 * thread + 1) << 16;
      const int reg = vector_register(destination, i);
      if (reg >= 0) write(warp, reg, lane, value);
    }
  }
}

// wmma.load / wmma.store: every lane names the same matrix (address and stride, in elements).
// Element (i, j) sits at (row-major) i * stride + j or (column-major) j * stride + i elements from
// the start. In shared memory they are charged as the SASS ptxas makes of them, which Nsight
// Compute counted on an H200 (tests/data/h200-tensor-wavefronts.tsv): a 16-bit A or B fragment is
// one ldmatrix.x4 (four 8 x 8 matrices of 16-byte rows), every other fragment one shared access a
// fragment register, of 4 bytes, or 8 where two neighbouring registers hold neighbouring elements
// (an f32 accumulator in row-major memory): a TF32 A or B is 4 requests, an f32 accumulator 4 of 8
// bytes. In global memory the matrix travels as rows of 16-byte pieces, a request per 32 pieces
// (not measured with Nsight Compute).
void KernelRun::wmma_memory(Warp& warp, const Instruction& in) {
  const ptx::MatrixForm& form = in.matrix;
  const bool is_store = in.opcode == Opcode::WmmaStore;
  const char which = form.matrix;
  const Operand& address_operand = in.operands[is_store ? 0 : 1];
  const int rows = which == 'b' ? form.k : form.m;
  const int columns = which == 'a' ? form.k : form.n;
  const MatrixType type = which == 'a' ? form.a : which == 'b' ? form.b : which == 'c' ? form.c : form.d;
  const uint32_t element_bytes = matrix_type_bits(type) / 8;
  auto lane_address = [&](int lane) {
    uint64_t address = static_cast<uint64_t>(address_operand.offset);
    if (address_operand.symbol >= 0) address += symbol_value(address_operand.symbol);
    if (address_operand.reg >= 0) address += warp.registers[address_operand.reg * k_warp_size + lane];
    return address;
  };
  const bool has_stride = in.operand_count > 2;
  auto lane_stride = [&](int lane) -> uint64_t {
    if (!has_stride) return static_cast<uint64_t>(form.row_major ? columns : rows);
    return static_cast<uint32_t>(read(warp, in.operands[2], lane));
  };
  const uint64_t base = lane_address(0), stride = lane_stride(0);
  for (int lane = 1; lane < k_warp_size; ++lane) {
    if (lane_address(lane) != base || lane_stride(lane) != stride) {
      fail(in, "warp-sync", "`" + in.text + "`: " + thread_name(warp, lane) +
                                " names another matrix (address or stride) than thread 0 of its warp: WMMA loads and "
                                "stores take one matrix for the whole warp");
      return;
    }
  }
  const int line_elements = form.row_major ? columns : rows;  // contiguous in memory
  const int lines = form.row_major ? rows : columns;
  const uint64_t line_bytes = uint64_t{element_bytes} * static_cast<uint64_t>(line_elements);
  if (base % 16 != 0 || (stride * element_bytes) % 16 != 0) {
    fail(in, "misaligned", "`" + in.text + "` names a matrix at an address or with a stride (" + std::to_string(stride) +
                               " elements) that is not a multiple of 16 bytes (the PTX ISA asks for 32-byte aligned "
                               "matrices)");
    return;
  }
  // The 16-byte pieces, in order of lines.
  std::vector<uint64_t> pieces;
  for (int line = 0; line < lines; ++line) {
    for (uint64_t at = 0; at < line_bytes; at += 16) pieces.push_back(base + line * stride * element_bytes + at);
  }
  const ptx::Space space = in.space;
  std::vector<uint8_t*> pointers(pieces.size());
  std::vector<uint64_t> shared_pieces;  // the pieces' shared-memory addresses, when they are shared
  std::vector<std::pair<WarpAccess, ChargedAccess>> observed;  // each 32 pieces' access, for the observer
  WarpAccess access;
  for (size_t first = 0; first < pieces.size(); first += k_warp_size) {
    access.lanes.fill(0);
    const size_t end = std::min(pieces.size(), first + k_warp_size);
    for (size_t p = first; p < end; ++p) {
      const int slot_lane = static_cast<int>(p - first);
      uint64_t address = pieces[p];
      ptx::Space piece_space = space;
      if (piece_space == ptx::Space::Generic) {
        piece_space = classify_generic(address);
        address = space_address(piece_space, address);
      }
      if (piece_space != ptx::Space::Shared && piece_space != ptx::Space::Global) {
        fail(in, "unsupported", "`" + in.text + "` names a matrix outside global and shared memory");
        return;
      }
      pointers[p] = resolve(warp, in, piece_space, address, 16, 0);
      if (pointers[p] == nullptr) return;
      const int slot = piece_space == ptx::Space::Shared ? k_shared_slot : k_global_slot;
      access.addresses[slot][slot_lane] = address;
      access.lanes[slot] |= 1u << slot_lane;
      access.pointers[slot_lane] = pointers[p];
      if (piece_space == ptx::Space::Shared) shared_pieces.push_back(address);
    }
    WarpAccess global = access;  // shared pieces are charged below, as the SASS reads them
    global.lanes[k_shared_slot] = 0;
    const ChargedAccess charged = count_access(in, global, 16, is_store);
    if (m_config.observer) observed.push_back({access, charged});  // shown once the shared pieces' cost is known
    if (access.lanes[k_shared_slot]) {
      track_shared_access(warp, in, access.addresses[k_shared_slot], access.lanes[k_shared_slot], 16, element_bytes,
                          is_store);
    }
  }
  const int pieces_per_line = static_cast<int>(line_bytes / 16);
  auto element_pointer = [&](int i, int j) {
    const int line = form.row_major ? i : j, at = form.row_major ? j : i;
    const uint64_t byte = uint64_t{element_bytes} * static_cast<uint64_t>(at);
    return pointers[static_cast<size_t>(line * pieces_per_line) + byte / 16] + byte % 16;
  };
  const Operand& fragment = in.operands[is_store ? 1 : 0];
  const int registers = ptx::fragment_registers(in, which);
  const bool halves = element_bytes == 2;
  ChargedCost shared_charged;  // the shared pieces', when every piece is in shared memory
  if (shared_pieces.size() == pieces.size()) {
    SharedCost cost;
    int requests = 0;
    if (halves && (which == 'a' || which == 'b') && lines % 8 == 0 && lines / 8 * pieces_per_line <= 4) {
      // ldmatrix.x4: matrix (block of 8 lines, 16-byte piece of a line), its rows the 8 lines.
      LaneAddresses row_addresses{};
      int matrices = 0;
      for (int block = 0; block < lines / 8; ++block) {
        for (int piece = 0; piece < pieces_per_line; ++piece, ++matrices) {
          for (int row = 0; row < 8; ++row) {
            row_addresses[8 * matrices + row] =
                shared_pieces[static_cast<size_t>((8 * block + row) * pieces_per_line + piece)];
          }
        }
      }
      cost = matrix_rows_cost(row_addresses, matrices);
      requests = 1;
    } else {
      // One access a register (or a pair of registers whose elements are neighbours in memory).
      const int elements = fragment_elements(in, which);
      auto element_address = [&](int lane, int e) {
        const MatrixPlace place = fragment_place(in, which, lane, e);
        const int line = form.row_major ? place.row : place.col, at = form.row_major ? place.col : place.row;
        return shared_pieces[0] + (static_cast<uint64_t>(line) * stride + static_cast<uint64_t>(at)) * element_bytes;
      };
      const int per_register = halves ? 2 : 1;
      for (int first = 0; first < elements;) {
        int count = per_register;  // elements in this access
        if (!halves && first + 1 < elements && element_address(0, first + 1) == element_address(0, first) + element_bytes) {
          count = 2;
        }
        LaneAddresses addresses{};
        for (int lane = 0; lane < k_warp_size; ++lane) addresses[lane] = element_address(lane, first);
        const SharedCost one = count_shared_wavefronts(addresses, 0xffffffffu, element_bytes * static_cast<uint32_t>(count));
        cost.wavefronts += one.wavefronts;
        cost.ideal_wavefronts += one.ideal_wavefronts;
        ++requests;
        first += count;
      }
    }
    Counters& counters = m_counters[&in - m_code.data()];
    (is_store ? counters.shared_st_requests : counters.shared_ld_requests) += static_cast<uint64_t>(requests);
    (is_store ? counters.shared_st_wavefronts : counters.shared_ld_wavefronts) += cost.wavefronts;
    (is_store ? counters.shared_st_bank_conflicts : counters.shared_ld_bank_conflicts) += cost.bank_conflicts();
    shared_charged = {static_cast<uint32_t>(requests), cost.wavefronts, cost.ideal_wavefronts};
  }
  for (size_t i = 0; i < observed.size(); ++i) {  // the matrix's wavefronts charged to its first pieces
    ChargedAccess charged = observed[i].second;
    if (i == 0) charged.shared = shared_charged;
    observe_access(warp, in, observed[i].first, 16, charged, true);
  }
  for (int lane = 0; lane < k_warp_size; ++lane) {
    for (int r = 0; r < registers; ++r) {
      const int reg = vector_register(fragment, r);
      uint64_t word = is_store && reg >= 0 ? warp.registers[reg * k_warp_size + lane] : 0;
      uint64_t loaded = 0;
      for (int part = 0; part < (halves ? 2 : 1); ++part) {
        const MatrixPlace place = fragment_place(in, which, lane, halves ? 2 * r + part : r);
        uint8_t* pointer = element_pointer(place.row, place.col);
        if (is_store) {
          const uint32_t value = static_cast<uint32_t>(word >> (16 * part));
          std::memcpy(pointer, &value, element_bytes);
        } else {
          uint32_t value = 0;
          std::memcpy(&value, pointer, element_bytes);
          loaded |= uint64_t{value} << (16 * part);
        }
      }
      if (!is_store && reg >= 0) write(warp, reg, lane, loaded);
    }
  }
}

}  // namespace tilecamp::emu
