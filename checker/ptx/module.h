// The parsed form of a PTX module: what the emulator executes and what diagnostics point into.
// Instructions are decoded once at parse time (opcode, types, operands resolved to register
// indices), so executing one never looks at text again.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

namespace tilecamp::ptx {

enum class Type : uint8_t {
  None, Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
  S16x2, U16x2,  // packed 16-bit integers (min, max: __vmaxs2, __vminu2)
};

int type_bits(Type type);
bool is_signed(Type type);
bool is_float(Type type);
const char* type_name(Type type);

enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };
const char* space_name(Space space);

enum class Opcode : uint16_t {
  Unsupported,
  // data movement and conversion
  Mov, Cvt, Cvta, Ld, St, Selp,
  // integer and float arithmetic
  Add, Sub, Mul, Mad, Fma, Div, Rem, Min, Max, Abs, Neg,
  // logic and shifts
  And, Or, Xor, Not, Cnot, Shl, Shr,
  // comparison
  Setp, Set,
  // control flow and synchronisation
  Bra, Ret, Exit, Bar, Membar,
  // bit manipulation and special arithmetic
  Popc, Clz, Brev, Bfe, Bfi, Bfind, Prmt, Shf, Lop3, Mul24, Mad24, Sad, Copysign, Testp, Slct,
  Rcp, Sqrt, Rsqrt, Ex2, Lg2, Sin, Cos, Tanh,
  // atomics, warp-level operations, calls and asynchronous copies
  Atom, Red, Shfl, Vote, Match, Activemask, Call, BarWarp, BarRed, CpAsync, CpAsyncCommit,
  CpAsyncWait, Prefetch, Trap, Nanosleep, Redux,
  // mbarrier.* (cuda::barrier, cuda::pipeline) and cp.async.mbarrier.arrive
  Mbarrier, CpAsyncMbarrierArrive,
  // integer dot products of packed bytes and halves; the n-th set bit; bit-field masks and
  // sign or zero extension of a field
  Dp4a, Dp2a, Fns, Bmsk, Szext,
  // the video instructions: SIMD on four bytes (vadd4, vset4...) or two half-words (vadd2...), and
  // scalar on a byte, half-word or word of each operand (vadd, vshl, vmad...); Instruction::video_op
  // says which operation
  Vop4, Vop2, Vop,
  // warp-wide matrix instructions (tensor cores): mma.sync, ldmatrix, movmatrix, wmma.load.{a,b,c},
  // wmma.store.d, wmma.mma; Instruction::matrix holds their shape, layouts and types
  Mma, Ldmatrix, Movmatrix, WmmaLoad, WmmaStore, WmmaMma,
};

// A video instruction's primary operation.
enum class VideoOp : uint8_t { None, Add, Sub, Avrg, Absdiff, Min, Max, Set, Shl, Shr, Mad };

// The operation an instruction's modifier selects: atom.add, shfl.bfly, vote.ballot, shf.l ...
enum class SubOp : uint8_t {
  None, Add, Min, Max, Exch, Cas, And, Or, Xor, Inc, Dec,  // atom / red / bar.red
  Up, Down, Bfly, Idx,                                    // shfl
  All, Any, Uni, Ballot, Popc,                            // vote / match / bar.red
  Left, Right,                                            // shf direction
  Finite, Infinite, Number, NotANumber, Normal, Subnormal,  // testp
  F4e, B4e, Rc8, Ecl, Ecr, Rc16,                          // prmt modes
  ShiftAmount,                                            // bfind.shiftamt
  PropagateNaN,                                           // min.NaN / max.NaN
  WaitAll,                                                // cp.async.wait_all
  MbInit, MbArrive, MbArriveDrop, MbTryWait, MbTestWait, MbInval,  // mbarrier
  NoInc,                                                  // cp.async.mbarrier.arrive.noinc
  Arrive,                                                 // bar.arrive: arrive without waiting
};

enum class CompareOp : uint8_t { None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs,
                                 Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class MulMode : uint8_t { None, Lo, Hi, Wide };
enum class Rounding : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };

enum class SpecialRegister : uint8_t {
  Tid, Ntid, Ctaid, Nctaid, Laneid, Warpid, Nwarpid, Smid, Nsmid, Gridid,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt, Clock, Clock64, Globaltimer,
  GlobaltimerLo, GlobaltimerHi,
  // Operand::component holds the number: %envreg0..31 (driver values: a cooperative launch's grid
  // workspace in 1 and 2, else 0), %reserved_smem_offset_0/1.
  Envreg, ReservedSmemOffset, ReservedSmemBegin, ReservedSmemEnd, ReservedSmemCap,
  TotalSmemSize, DynamicSmemSize, AggrSmemSize,
};

// A matrix instruction's element types (tf32 has no Type of its own).
enum class MatrixType : uint8_t { None, F16, BF16, TF32, F32, B16 };

// What mma, ldmatrix, movmatrix and wmma.* name besides their opcode.
struct MatrixForm {
  uint8_t m = 0, n = 0, k = 0;   // the shape: m16n8k16, m8n8 (k 0)...
  char matrix = 0;               // wmma.load / wmma.store: 'a', 'b', 'c' or 'd'
  uint8_t count = 0;             // ldmatrix: matrices loaded (.x1, .x2, .x4)
  bool trans = false;            // ldmatrix.trans, movmatrix.trans
  bool row_major = true;         // wmma.load / wmma.store: the matrix's layout in memory
  bool a_row = true, b_row = false;  // mma / wmma.mma: A's and B's layouts (.row.col)
  MatrixType a = MatrixType::None, b = MatrixType::None, c = MatrixType::None, d = MatrixType::None;
};

struct Operand {
  enum class Kind : uint8_t { None, Register, Immediate, Special, Address, Symbol, Vector, Label };
  Kind kind = Kind::None;
  int32_t reg = -1;            // Register; Address base register (or -1)
  uint64_t bits = 0;           // Immediate raw bits, already in the instruction's type
  int64_t offset = 0;          // Address displacement
  int32_t symbol = -1;         // Symbol / Address base symbol (index into Module::symbols)
  SpecialRegister special{};   // Special
  uint8_t component = 0;       // Special: 0=x 1=y 2=z
  uint8_t count = 0;           // Vector: number of elements (at most 8: a WMMA fragment)
  std::array<int32_t, 8> elements{-1, -1, -1, -1, -1, -1, -1, -1};  // Vector: register indices (-1: the sink `_`)
  bool negate = false;         // predicate operand written `!%p`
  // A video instruction's selector, written after its register (`%r2.b3210`, `%r1.h10`): 'b'
  // (bytes) or 'h' (half-words), 0 when none; its digits, one a nibble, the last written lowest.
  char select_kind = 0;
  uint8_t select_count = 0;
  uint16_t select_digits = 0;
  bool minus = false;          // vmad's operand written `-%r1`
};

struct SourceLocation {
  int file = 0;  // index into Module::files; 0 when unknown
  int line = 0;
};

struct Instruction {
  Opcode opcode = Opcode::Unsupported;
  Type type = Type::None;         // the instruction's (destination) type
  Type source_type = Type::None;  // cvt's source type; the video instructions' type of a
  Type source_type_b = Type::None;  // the video instructions' type of b (vadd4.dtype.atype.btype)
  VideoOp video_op = VideoOp::None;
  bool plus_one = false;          // vmad.po: (a * b) + c + 1
  uint8_t video_shift = 0;        // vmad.shr7 / .shr15: the result shifted right
  Space space = Space::Generic;   // ld/st/cvta
  uint8_t vector = 1;             // .v2 / .v4
  bool to_space = false;          // cvta.to.SPACE (generic -> space) rather than cvta.SPACE
  bool ftz = false, saturate = false, approx = false, uniform = false;
  bool non_coherent = false;      // ld.global.nc: read-only data no store can change (__restrict__)
  // .volatile, .relaxed, .acquire or .acq_rel: an access another thread's write is meant to
  // reach, as in a loop that waits on a flag (the emulator lets other warps run there).
  bool ordered = false;
  // The memory-model semantics of ld, st, atom and red (.relaxed, .acquire, .release, .acq_rel):
  // what orders other threads' accesses through this one. Weak: plain or .volatile.
  enum class Semantics : uint8_t { Weak, Relaxed, Acquire, Release, AcqRel };
  Semantics semantics = Semantics::Weak;
  // Extended-precision arithmetic through the condition code's carry flag: add.cc, addc, sub.cc,
  // subc, mad.cc, madc (what double-precision sin and cos compile to).
  bool carry_in = false, carry_out = false;
  bool parity = false;  // mbarrier.try_wait.parity / test_wait.parity: the operand is a phase's parity
  bool relu = false;    // fma.relu, min.relu...: a negative result becomes +0, a NaN the canonical one
  // cvt.satfinite: a result beyond the destination's largest finite value becomes that value
  bool satfinite = false;
  CompareOp compare = CompareOp::None;
  BoolOp bool_op = BoolOp::None;
  MulMode mul_mode = MulMode::None;
  SubOp sub_op = SubOp::None;
  bool clamp = false;             // shf.clamp, bmsk.clamp, szext.clamp (else .wrap)
  Rounding rounding = Rounding::None;
  int32_t guard = -1;             // predicate register guarding the instruction, -1 for none
  bool guard_negated = false;
  uint8_t operand_count = 0;
  std::array<Operand, 5> operands{};
  uint32_t target = 0;            // branch target (instruction index)
  int32_t call = -1;              // Call: index into Function::calls
  SourceLocation location;
  std::string text;               // the instruction as written, for messages
  std::string unsupported_reason; // why opcode is Unsupported
  // Set by fuse_shared_accesses (checker/ptx/access_fusion.h): ptxas merges this ld/st.shared
  // with its neighbours into one access of fused_bytes (4, 8 or 16; 0 when not merged), charged
  // once, by the member that sits fused_first bytes into the naturally aligned chunk.
  uint8_t fused_bytes = 0;
  uint8_t fused_first = 0;
  MatrixForm matrix;              // mma, ldmatrix, movmatrix, wmma.*
};

struct Symbol {
  std::string name;
  Space space = Space::Global;
  uint64_t size = 0;
  uint32_t align = 1;
  uint64_t offset = 0;            // Shared: offset in the block's shared window; Param: offset in
                                  // the parameter buffer; Global/Const: offset in module data
  std::vector<uint8_t> initializer;  // bytes; empty means zero
  // A `.param` variable declared in a function body to pass arguments to a call: it lives in
  // each thread's local memory (on a GPU: registers), so it is laid out as Space::Local.
  bool call_parameter = false;
};

struct Parameter {
  std::string name;
  Type type = Type::None;
  uint32_t size = 0;
  uint32_t align = 0;
  uint32_t offset = 0;            // in the parameter buffer
  bool is_pointer_sized() const { return size == 8; }
};

// One `call`: the callee and the `.param` variables that carry its arguments and results.
struct CallSite {
  std::string callee;
  std::vector<int32_t> results;    // symbol indices, in order
  std::vector<int32_t> arguments;  // symbol indices, in order
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool has_body = false;
  std::vector<Parameter> parameters;
  std::vector<int32_t> parameter_symbols;  // the param-space symbol of each parameter
  std::vector<int32_t> result_symbols;     // a device function's return values (`func_retval0`)
  std::vector<CallSite> calls;             // indexed by Instruction::call
  uint32_t parameter_bytes = 0;
  std::vector<std::string> register_names;   // index -> name
  std::vector<Type> register_types;
  std::vector<Instruction> instructions;
  uint32_t static_shared_bytes = 0;          // this kernel's .shared variables (incl. module scope)
  // The driver's reserved shared memory (cooperative groups keeps its scratch there), after the
  // kernel's own: nonzero when the kernel reads a %reserved_smem_offset register.
  uint32_t reserved_shared_bytes = 0;
  uint32_t local_bytes = 0;                  // per-thread .local variables (stack arrays, spills)
  std::vector<uint32_t> reconvergence_pc;    // per instruction: where divergent paths meet again
  SourceLocation location;                   // where the function starts
  std::vector<uint32_t> nounroll_starts;     // first instruction of each loop under .pragma "nounroll"
};

// Whether any instruction of `code` reads one of the special registers `which`.
bool reads_special(const std::vector<Instruction>& code, std::initializer_list<SpecialRegister> which);

struct Module {
  std::vector<std::string> files{""};        // `.file` index -> path
  std::vector<Symbol> symbols;
  std::vector<Function> functions;
  uint32_t module_shared_bytes = 0;
  uint32_t module_local_bytes = 0;

  const Function* find_function(const std::string& name) const;
  std::string location_text(const SourceLocation& location) const;  // "file:line"
};

}  // namespace tilecamp::ptx
