#include "checker/compile/builtin_headers.h"

#include <array>

namespace tilecamp {
namespace {

// NVRTC already declares printf (lowered to vprintf) and malloc/free for device code.
constexpr char k_stdio_h[] = R"(#pragma once
// printf is built into NVRTC; nothing else of <stdio.h> exists in device code.
)";

constexpr char k_cstdio[] = R"(#pragma once
#include <stdio.h>
namespace std { using ::printf; }
)";

// NVRTC has a built-in assert, but fixed when compilation starts; like the C library's header,
// this one has no include guard, so each inclusion re-reads NDEBUG. The expansion is the one
// nvcc's runtime uses, so a failed assert becomes a call to __assertfail in the PTX.
constexpr char k_assert_h[] = R"(
extern "C" __host__ __device__ void __assertfail(const char* message, const char* file,
                                                 unsigned int line, const char* function,
                                                 size_t char_size);
#undef assert
#ifdef NDEBUG
#define assert(e) (static_cast<void>(0))
#else
#define assert(e) \
  ((e) ? static_cast<void>(0) \
       : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)))
#endif
)";

constexpr char k_cassert[] = R"(#include <assert.h>
)";

// 64-bit integers are `long` on LP64 targets, as in glibc, so kernels mangle as with nvcc.
constexpr char k_stdint_h[] = R"(#pragma once
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
#if defined(__LP64__)
typedef long int64_t;
typedef unsigned long uint64_t;
#define INT64_C(c) c##L
#define UINT64_C(c) c##UL
#else
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define INT64_C(c) c##LL
#define UINT64_C(c) c##ULL
#endif
typedef int8_t int_least8_t;
typedef int16_t int_least16_t;
typedef int32_t int_least32_t;
typedef int64_t int_least64_t;
typedef uint8_t uint_least8_t;
typedef uint16_t uint_least16_t;
typedef uint32_t uint_least32_t;
typedef uint64_t uint_least64_t;
typedef int8_t int_fast8_t;
typedef int64_t int_fast16_t;
typedef int64_t int_fast32_t;
typedef int64_t int_fast64_t;
typedef uint8_t uint_fast8_t;
typedef uint64_t uint_fast16_t;
typedef uint64_t uint_fast32_t;
typedef uint64_t uint_fast64_t;
typedef int64_t intptr_t;
typedef uint64_t uintptr_t;
typedef int64_t intmax_t;
typedef uint64_t uintmax_t;
#define INT8_C(c) c
#define INT16_C(c) c
#define INT32_C(c) c
#define UINT8_C(c) c
#define UINT16_C(c) c
#define UINT32_C(c) c##U
#define INTMAX_C(c) INT64_C(c)
#define UINTMAX_C(c) UINT64_C(c)
#define INT8_MIN (-128)
#define INT16_MIN (-32767 - 1)
#define INT32_MIN (-2147483647 - 1)
#define INT64_MIN (-INT64_C(9223372036854775807) - 1)
#define INT8_MAX 127
#define INT16_MAX 32767
#define INT32_MAX 2147483647
#define INT64_MAX INT64_C(9223372036854775807)
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX UINT64_C(18446744073709551615)
#define INTPTR_MIN INT64_MIN
#define INTPTR_MAX INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX
#define PTRDIFF_MIN INT64_MIN
#define PTRDIFF_MAX INT64_MAX
#define SIZE_MAX UINT64_MAX
static_assert(sizeof(int64_t) == 8 && sizeof(intptr_t) == sizeof(void*), "stdint.h: data model");
)";

constexpr char k_cstdint[] = R"(#pragma once
#include <stdint.h>
namespace std {
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::int_least8_t; using ::int_least16_t; using ::int_least32_t; using ::int_least64_t;
using ::uint_least8_t; using ::uint_least16_t; using ::uint_least32_t; using ::uint_least64_t;
using ::int_fast8_t; using ::int_fast16_t; using ::int_fast32_t; using ::int_fast64_t;
using ::uint_fast8_t; using ::uint_fast16_t; using ::uint_fast32_t; using ::uint_fast64_t;
using ::intptr_t; using ::uintptr_t; using ::intmax_t; using ::uintmax_t;
}
)";

// size_t and ptrdiff_t are built into NVRTC.
constexpr char k_stddef_h[] = R"(#pragma once
#ifndef NULL
#define NULL 0
#endif
)";

constexpr char k_cstddef[] = R"(#pragma once
#include <stddef.h>
namespace std {
using ::size_t;
using ::ptrdiff_t;
typedef decltype(nullptr) nullptr_t;
}
)";

constexpr char k_limits_h[] = R"(#pragma once
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-32767 - 1)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#if defined(__LP64__)
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#else
#define LONG_MIN (-2147483647L - 1)
#define LONG_MAX 2147483647L
#define ULONG_MAX 4294967295UL
#endif
#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
)";

constexpr char k_climits[] = R"(#pragma once
#include <limits.h>
)";

constexpr char k_float_h[] = R"(#pragma once
#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_MIN_EXP (-125)
#define DBL_MIN_EXP (-1021)
#define FLT_MAX_EXP 128
#define DBL_MAX_EXP 1024
#define FLT_MAX 3.40282346638528859812e+38F
#define DBL_MAX 1.79769313486231570815e+308
#define FLT_MIN 1.17549435082228750797e-38F
#define DBL_MIN 2.22507385850720138309e-308
#define FLT_EPSILON 1.19209289550781250000e-7F
#define DBL_EPSILON 2.22044604925031308085e-16
#define FLT_TRUE_MIN 1.40129846432481707092e-45F
#define DBL_TRUE_MIN 4.94065645841246544177e-324
)";

constexpr char k_cfloat[] = R"(#pragma once
#include <float.h>
)";

// The functions (sqrt, expf, fmaxf, isnan, ...) are built into NVRTC with their float overloads;
// only the macros are missing. NVRTC has no __builtin_huge_valf or __builtin_nanf, but it folds
// these divisions to constants (INFINITY = 0f7F800000, NAN = 0f7FC00000 as glibc's).
constexpr char k_math_h[] = R"(#pragma once
#define INFINITY (1.0f / 0.0f)
#define NAN (-(0.0f / 0.0f))
#define HUGE_VALF INFINITY
#define HUGE_VAL (1.0 / 0.0)
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
)";

constexpr char k_cmath[] = R"(#pragma once
#include <math.h>
namespace std {
using ::abs; using ::fabs; using ::fmod; using ::remainder; using ::remquo; using ::fma;
using ::fmax; using ::fmin; using ::fdim;
using ::exp; using ::exp2; using ::expm1; using ::log; using ::log10; using ::log2; using ::log1p;
using ::pow; using ::sqrt; using ::cbrt; using ::hypot;
using ::sin; using ::cos; using ::tan; using ::asin; using ::acos; using ::atan; using ::atan2;
using ::sinh; using ::cosh; using ::tanh; using ::asinh; using ::acosh; using ::atanh;
using ::erf; using ::erfc; using ::tgamma; using ::lgamma;
using ::ceil; using ::floor; using ::trunc; using ::round; using ::lround; using ::llround;
using ::nearbyint; using ::rint; using ::lrint; using ::llrint;
using ::frexp; using ::ldexp; using ::modf; using ::scalbn; using ::ilogb; using ::logb;
using ::nextafter; using ::copysign;
using ::isfinite; using ::isinf; using ::isnan; using ::signbit;
}
)";

// nvcc pre-includes its cuda_runtime.h, which reaches <math.h> through its own includes; the
// rest of what it declares for device code (threadIdx, float4, __syncthreads, atomicAdd,
// intrinsics) is built into NVRTC.
constexpr char k_cuda_runtime_h[] = R"(#pragma once
#include <math.h>
)";

// The driver API is host code, which a kernel file cannot use under NVRTC; only the version
// macro is meaningful on the device side.
constexpr char k_cuda_h[] = R"(#pragma once
#ifndef CUDA_VERSION
#define CUDA_VERSION (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10)
#endif
)";

// threadIdx, blockIdx, blockDim, gridDim and warpSize are built into NVRTC.
constexpr char k_device_launch_parameters_h[] = R"(#pragma once
)";

constexpr std::array k_builtin_headers{
    BuiltinHeader{"stdio.h", k_stdio_h},
    BuiltinHeader{"cstdio", k_cstdio},
    BuiltinHeader{"assert.h", k_assert_h},
    BuiltinHeader{"cassert", k_cassert},
    BuiltinHeader{"stdint.h", k_stdint_h},
    BuiltinHeader{"cstdint", k_cstdint},
    BuiltinHeader{"stddef.h", k_stddef_h},
    BuiltinHeader{"cstddef", k_cstddef},
    BuiltinHeader{"limits.h", k_limits_h},
    BuiltinHeader{"climits", k_climits},
    BuiltinHeader{"float.h", k_float_h},
    BuiltinHeader{"cfloat", k_cfloat},
    BuiltinHeader{"math.h", k_math_h},
    BuiltinHeader{"cmath", k_cmath},
    BuiltinHeader{"cuda_runtime.h", k_cuda_runtime_h},
    BuiltinHeader{"cuda.h", k_cuda_h},
    BuiltinHeader{"device_launch_parameters.h", k_device_launch_parameters_h},
};

}  // namespace

std::span<const BuiltinHeader> builtin_headers() { return k_builtin_headers; }

}  // namespace tilecamp
