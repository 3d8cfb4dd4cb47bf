// parse_nvrtc_log on logs captured verbatim from NVRTC 13.0 (CUDA 13.0.88) compiling kernel.cu.
#include <doctest/doctest.h>

#include <string_view>

#include "checker/compile/nvrtc_log.h"

namespace tilecamp {
namespace {

// `int i = threadIdx.x` without its semicolon.
constexpr std::string_view k_missing_semicolon_log = R"log(kernel.cu(3): error: expected a ";"
    a[i] = 1.0f;
    ^

kernel.cu(2): warning #177-D: variable "i" was declared but never referenced
    int i = threadIdx.x
        ^

Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

1 error detected in the compilation of "kernel.cu".
)log";

constexpr std::string_view k_three_errors_log = R"log(kernel.cu(2): error: identifier "x" is undefined
    a[0] = x;
           ^

kernel.cu(3): error: identifier "y" is undefined
    a[1] = y;
           ^

kernel.cu(4): error: a value of type "const char *" cannot be used to initialize an entity of type "float"
    float z = "str";
              ^

3 errors detected in the compilation of "kernel.cu".
)log";

constexpr std::string_view k_missing_include_log = R"log(kernel.cu(1): catastrophic error: cannot open source file "missing.cuh"
  #include "missing.cuh"
                        ^

1 catastrophic error detected in the compilation of "kernel.cu".
Compilation terminated.
)log";

constexpr std::string_view k_overload_log = R"log(kernel.cu(3): error: no instance of overloaded function "f" matches the argument list
            argument types are: (int, double, int)
  __global__ void k(float* a) { f(1, 2.0, 3); f(1, 2.0f); }
                                ^
kernel.cu(2): note #3322-D: number of parameters of function "f(float, float)" does not match the call
  __device__ void f(float, float);
                  ^
kernel.cu(1): note #3322-D: number of parameters of function "f(int, int)" does not match the call
  __device__ void f(int, int);
                  ^

kernel.cu(3): error: more than one instance of overloaded function "f" matches the argument list:
            function "f(int, int)" (declared at line 1)
            function "f(float, float)" (declared at line 2)
            argument types are: (int, float)
  __global__ void k(float* a) { f(1, 2.0, 3); f(1, 2.0f); }
                                              ^

2 errors detected in the compilation of "kernel.cu".
)log";

constexpr std::string_view k_instantiation_log = R"log(kernel.cu(4): error: expression must have pointer-to-class type but it has type "float *"
  __device__ void h(T* a) { a->nope(); }
                            ^
          detected during instantiation of "void h(T *) [with T=float]" at line 5

1 error detected in the compilation of "kernel.cu".
)log";

// A kernel whose closing brace is missing.
constexpr std::string_view k_end_of_source_log = R"log(At end of source: error: expected a "}"
kernel.cu(1): note #3196-D: to match this "{"
  __global__ void k(float* a) {
                              ^

1 error detected in the compilation of "kernel.cu".
)log";

// `-Dfoo bar` among the options.
constexpr std::string_view k_command_line_log = R"log(Command-line error: invalid macro definition: foo bar

1 catastrophic error detected in the compilation of "kernel.cu".
Compilation terminated.
)log";

// NVRTC echoes the source's tabs in the caret line.
constexpr std::string_view k_tabs_log =
    "kernel.cu(2): error: identifier \"bogus\" is undefined\n"
    "  \ta[0] = \tbogus;\n"
    "  \t       \t^\n"
    "\n"
    "1 error detected in the compilation of \"kernel.cu\".\n";

// The comment holds "é€", five bytes; the caret line has a space per byte.
constexpr std::string_view k_utf8_log =
    "kernel.cu(2): error: identifier \"bogus\" is undefined\n"
    "    /* \xC3\xA9\xE2\x82\xAC */ a[0] = bogus;\n"
    "                       ^\n"
    "\n"
    "1 error detected in the compilation of \"kernel.cu\".\n";

TEST_CASE("an error gives its file, line, message, source line and the caret's column") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_three_errors_log);

  REQUIRE(!diagnostics.empty());
  CHECK(diagnostics[0].file == "kernel.cu");
  CHECK(diagnostics[0].line == 2);
  CHECK(diagnostics[0].column == 10);
  CHECK(diagnostics[0].severity == "error");
  CHECK(diagnostics[0].message == "identifier \"x\" is undefined");
  CHECK(diagnostics[0].source_line == "  a[0] = x;");
}

TEST_CASE("every diagnostic of a log is returned in the log's order") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_three_errors_log);

  REQUIRE(diagnostics.size() == 3);
  CHECK(diagnostics[1].line == 3);
  CHECK(diagnostics[1].message == "identifier \"y\" is undefined");
  CHECK(diagnostics[2].line == 4);
  CHECK(diagnostics[2].column == 13);
  CHECK(diagnostics[2].source_line == "  float z = \"str\";");
}

TEST_CASE("a warning keeps its severity and loses its diagnostic number") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_missing_semicolon_log);

  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics[0].severity == "error");
  CHECK(diagnostics[0].column == 3);
  CHECK(diagnostics[1].severity == "warning");
  CHECK(diagnostics[1].line == 2);
  CHECK(diagnostics[1].column == 7);
  CHECK(diagnostics[1].message == "variable \"i\" was declared but never referenced");
}

TEST_CASE("a catastrophic error is an error") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_missing_include_log);

  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].severity == "error");
  CHECK(diagnostics[0].line == 1);
  CHECK(diagnostics[0].column == 23);
  CHECK(diagnostics[0].message == "cannot open source file \"missing.cuh\"");
}

TEST_CASE("the closing summary and remark lines are not diagnostics") {
  CHECK(parse_nvrtc_log("1 error detected in the compilation of \"kernel.cu\".\n"
                        "Compilation terminated.\n")
            .empty());
  CHECK(parse_nvrtc_log("Remark: The warnings can be suppressed with "
                        "\"-diag-suppress <warning-number>\"\n")
            .empty());
  CHECK(parse_nvrtc_log("").empty());
}

TEST_CASE("indented lines under a header continue its message") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_overload_log);

  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics[1].message ==
        "more than one instance of overloaded function \"f\" matches the argument list:\n"
        "function \"f(int, int)\" (declared at line 1)\n"
        "function \"f(float, float)\" (declared at line 2)\n"
        "argument types are: (int, float)");
  CHECK(diagnostics[1].column == 45);
}

TEST_CASE("notes are not diagnostics and do not disturb the one before them") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_overload_log);

  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics[0].line == 3);
  CHECK(diagnostics[0].column == 31);
  CHECK(diagnostics[0].message ==
        "no instance of overloaded function \"f\" matches the argument list\n"
        "argument types are: (int, double, int)");
  CHECK(diagnostics[0].source_line ==
        "__global__ void k(float* a) { f(1, 2.0, 3); f(1, 2.0f); }");
}

TEST_CASE("the instantiation context after the caret continues the message") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_instantiation_log);

  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].column == 27);
  CHECK(diagnostics[0].message ==
        "expression must have pointer-to-class type but it has type \"float *\"\n"
        "detected during instantiation of \"void h(T *) [with T=float]\" at line 5");
}

TEST_CASE("an error at end of source gets the file that ends the program and no line") {
  const std::vector<CompileDiagnostic> diagnostics =
      parse_nvrtc_log(k_end_of_source_log, "kernel.cu");

  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].file == "kernel.cu");
  CHECK(diagnostics[0].line == 0);
  CHECK(diagnostics[0].column == 0);
  CHECK(diagnostics[0].message == "expected a \"}\"");
  CHECK(diagnostics[0].source_line.empty());
}

TEST_CASE("a command-line error is an error without file or line") {
  const std::vector<CompileDiagnostic> diagnostics =
      parse_nvrtc_log(k_command_line_log, "kernel.cu");

  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].file.empty());
  CHECK(diagnostics[0].line == 0);
  CHECK(diagnostics[0].severity == "error");
  CHECK(diagnostics[0].message == "invalid macro definition: foo bar");
}

TEST_CASE("a tab before the caret counts as one column") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_tabs_log);

  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].column == 10);
  CHECK(diagnostics[0].source_line == "\ta[0] = \tbogus;");
}

TEST_CASE("the column counts bytes, as NVRTC's caret does") {
  const std::vector<CompileDiagnostic> diagnostics = parse_nvrtc_log(k_utf8_log);

  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].column == 22);
}

TEST_CASE("a file name holding parentheses is read up to the line number") {
  const std::vector<CompileDiagnostic> diagnostics =
      parse_nvrtc_log("kernel (copy).cu(2): error: identifier \"x\" is undefined\n"
                      "    a[0] = x;\n"
                      "           ^\n");

  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].file == "kernel (copy).cu");
  CHECK(diagnostics[0].line == 2);
}

}  // namespace
}  // namespace tilecamp
