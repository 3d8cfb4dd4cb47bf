// The video instructions (SIMD and scalar), bmsk, szext and cvt .satfinite/.relu as inline PTX,
// every kind of form the emulator runs, over edge-case and random operands: the same kernel on the GPU and on the emulator
// must write the same bytes. bench/video_simd_gpu.sh runs both and compares them word by word;
// out[kForms * thread + k] is form k, in the order the FORM lines below run.
//   tilecamp profile bench/video_simd_gpu.cu --kernel videoForms --grid 2 --block 256 \
//     --arg u32[512]=iota --arg u32[425984]=zeros --backend gpu|emulator --dump DIR

// Operands: block 0 pairs 16 words at the ends of byte and half-word ranges (all 256 pairs);
// block 1 takes hashed words. c cycles through the same words.
__device__ unsigned operand(unsigned thread, int which) {
  const unsigned edges[16] = {0x00000000u, 0xffffffffu, 0x7f7f7f7fu, 0x80808080u, 0x7f80ff01u, 0x0180fe7fu,
                              0x81ff007fu, 0x7fff8000u, 0x80017ffeu, 0xffff0001u, 0x00010000u, 0x12345678u,
                              0xdeadbeefu, 0x0000001fu, 0x00000020u, 0x00000021u};
  if (thread < 256) return edges[which == 0 ? thread & 15 : which == 1 ? thread >> 4 : (3 * thread + 1) & 15];
  return (thread * 0x9E3779B1u + which * 0x7F4A7C15u) * 0x85EBCA77u ^ (thread >> 3);
}

#define FORM(text) asm(text " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r;
#define FORM_SELECTED(op, d, x, y) asm(op " %0" d ", %1" x ", %2" y ", %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r;
#define TYPES(op, tail) FORM(op ".u32.u32.u32" tail) FORM(op ".u32.u32.s32" tail) FORM(op ".u32.s32.u32" tail) \
  FORM(op ".u32.s32.s32" tail) FORM(op ".s32.u32.u32" tail) FORM(op ".s32.u32.s32" tail) FORM(op ".s32.s32.u32" tail) \
  FORM(op ".s32.s32.s32" tail)
#define ARITHMETIC(op) TYPES(op, "") TYPES(op, ".sat") TYPES(op, ".add")
#define SET_TYPES(op, cmp, tail) FORM(op ".u32.u32" cmp tail) FORM(op ".u32.s32" cmp tail) FORM(op ".s32.u32" cmp tail) \
  FORM(op ".s32.s32" cmp tail)
#define SET(op, cmp) SET_TYPES(op, cmp, "") SET_TYPES(op, cmp, ".add")
#define WIDTH(n) ARITHMETIC("vadd" #n) ARITHMETIC("vsub" #n) ARITHMETIC("vavrg" #n) ARITHMETIC("vabsdiff" #n) \
  ARITHMETIC("vmin" #n) ARITHMETIC("vmax" #n) SET("vset" #n, ".eq") SET("vset" #n, ".ne") SET("vset" #n, ".lt") \
  SET("vset" #n, ".le") SET("vset" #n, ".gt") SET("vset" #n, ".ge")
#define QUAD_MASK(m) FORM_SELECTED("vsub4.s32.s32.u32.sat", m, "", "") FORM_SELECTED("vabsdiff4.u32.s32.s32.add", m, "", "") \
  FORM_SELECTED("vset4.u32.s32.gt", m, "", "")
#define QUAD_SELECT(x, y) FORM_SELECTED("vmax4.u32.s32.u32", "", x, y) FORM_SELECTED("vavrg4.s32.s32.s32.sat", ".b20", x, y)
#define FORM3(text) asm(text " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[k++] = r;
#define SCALAR_TYPES(form, op, tail) form(op ".u32.u32.u32" tail) form(op ".u32.u32.s32" tail) \
  form(op ".u32.s32.u32" tail) form(op ".u32.s32.s32" tail) form(op ".s32.u32.u32" tail) form(op ".s32.u32.s32" tail) \
  form(op ".s32.s32.u32" tail) form(op ".s32.s32.s32" tail)
#define SCALAR(op) SCALAR_TYPES(FORM3, op, "") SCALAR_TYPES(FORM3, op, ".sat") SCALAR_TYPES(FORM, op, ".add") \
  SCALAR_TYPES(FORM, op, ".sat.min") SCALAR_TYPES(FORM, op, ".max")
#define SHIFT_TYPES(form, op, tail) form(op ".u32.u32.u32" tail) form(op ".u32.s32.u32" tail) \
  form(op ".s32.u32.u32" tail) form(op ".s32.s32.u32" tail)
#define SHIFT(op) SHIFT_TYPES(FORM3, op, ".clamp") SHIFT_TYPES(FORM3, op, ".wrap") SHIFT_TYPES(FORM3, op, ".sat.clamp") \
  SHIFT_TYPES(FORM, op, ".sat.wrap.add")
#define SCALAR_SET(cmp) SET_TYPES("vset", cmp, ".add") SET_TYPES("vset", cmp, ".max")
#define SET3(cmp) FORM3("vset.u32.u32" cmp) FORM3("vset.u32.s32" cmp) FORM3("vset.s32.u32" cmp) FORM3("vset.s32.s32" cmp)
#define FORM_NEGATED(text, x, y, z) asm(text " %0, " x "%1, " y "%2, " z "%3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r;
#define MAD(types) FORM("vmad" types) FORM("vmad" types ".sat") FORM("vmad" types ".po") FORM("vmad" types ".shr15") \
  FORM("vmad" types ".po.sat.shr7") FORM_NEGATED("vmad" types, "-", "", "") FORM_NEGATED("vmad" types ".sat", "", "", "-") \
  FORM_NEGATED("vmad" types ".sat.shr15", "-", "-", "-") FORM_SELECTED("vmad" types ".sat", "", ".h1", ".b2")
#define HALF_SELECT(x, y) FORM_SELECTED("vsub2.s32.u32.s32.add", "", x, y) FORM_SELECTED("vset2.s32.u32.ne", ".h1", x, y)

__global__ void videoForms(const unsigned* in, unsigned* out) {
  const unsigned thread = in[blockIdx.x * blockDim.x + threadIdx.x];
  const unsigned a = operand(thread, 0), b = operand(thread, 1), c = operand(thread, 2);
  constexpr int kForms = 832;
  unsigned* o = out + kForms * (blockIdx.x * blockDim.x + threadIdx.x);
  unsigned r;
  int k = 0;
  WIDTH(4)
  WIDTH(2)
  QUAD_MASK(".b0") QUAD_MASK(".b1") QUAD_MASK(".b10") QUAD_MASK(".b2") QUAD_MASK(".b20") QUAD_MASK(".b21")
  QUAD_MASK(".b210") QUAD_MASK(".b3") QUAD_MASK(".b30") QUAD_MASK(".b31") QUAD_MASK(".b310") QUAD_MASK(".b32")
  QUAD_MASK(".b320") QUAD_MASK(".b321")
  FORM_SELECTED("vadd2.s32.s32.s32.sat", ".h0", "", "") FORM_SELECTED("vadd2.s32.s32.s32.sat", ".h1", "", "")
  FORM_SELECTED("vmin2.u32.s32.u32.add", ".h0", "", "") FORM_SELECTED("vmin2.u32.s32.u32.add", ".h1", "", "")
  QUAD_SELECT(".b0000", ".b7654") QUAD_SELECT(".b7654", ".b3210") QUAD_SELECT(".b4163", ".b7702")
  QUAD_SELECT(".b3333", ".b4444") QUAD_SELECT(".b0123", ".b5274")
  HALF_SELECT(".h00", ".h32") HALF_SELECT(".h32", ".h10") HALF_SELECT(".h21", ".h03") HALF_SELECT(".h33", ".h11")
  // the scalar video instructions
  SCALAR("vadd") SCALAR("vsub") SCALAR("vabsdiff") SCALAR("vmin") SCALAR("vmax")
  SHIFT("vshl") SHIFT("vshr")
  SET3(".eq") SET3(".ne") SET3(".lt") SET3(".le") SET3(".gt") SET3(".ge") SCALAR_SET(".lt") SCALAR_SET(".ge")
  MAD(".u32.u32.u32") MAD(".u32.u32.s32") MAD(".u32.s32.u32") MAD(".u32.s32.s32") MAD(".s32.u32.u32")
  MAD(".s32.u32.s32") MAD(".s32.s32.u32") MAD(".s32.s32.s32")
  FORM_SELECTED("vadd.s32.s32.s32.sat", ".b1", ".b3", ".h1") FORM_SELECTED("vadd.s32.s32.s32.sat", ".h1", ".b0", ".h0")
  FORM_SELECTED("vabsdiff.u32.s32.u32.sat", ".h0", ".h1", ".b2") FORM_SELECTED("vabsdiff.u32.s32.u32", ".b3", ".b1", "")
  FORM_SELECTED("vset.s32.u32.gt", ".b2", ".h0", ".b3") FORM_SELECTED("vshl.s32.s32.u32.sat.clamp", ".b0", "", ".b0")
  // bmsk and szext: b is the position, c the width (both edge words cover 31, 32 and 33)
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(b), "r"(c)); o[k++] = r;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(b), "r"(c)); o[k++] = r;
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c)); o[k++] = r;
  asm("szext.wrap.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c)); o[k++] = r;
  asm("szext.clamp.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c)); o[k++] = r;
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c)); o[k++] = r;
  // cvt .satfinite and .relu: a and b as floats (NaNs, infinities, huge and tiny values among them)
  const float x = __uint_as_float(a), y = __uint_as_float(b);
  unsigned short h;
  asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); o[k++] = h;
  asm("cvt.rz.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); o[k++] = h;
  asm("cvt.rn.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "f"(x)); o[k++] = h;
  asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); o[k++] = h;
  asm("cvt.rz.relu.bf16.f32 %0, %1;" : "=h"(h) : "f"(x)); o[k++] = h;
  asm("cvt.rn.relu.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x), "f"(y)); o[k++] = r;
  asm("cvt.rz.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x), "f"(y)); o[k++] = r;
  // packed 16-bit adds (what __vadd2 and __vsub2 compile to)
  asm("add.u16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[k++] = r;
  asm("add.s16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[k++] = r;
  while (k < kForms) o[k++] = 0;  // the padding after the last form
}
