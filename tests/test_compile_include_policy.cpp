// What a kernel may include: the toolkit's headers, never a file by its path (a grader would
// open it and NVRTC would quote it back). The scan reads the text as the preprocessor does.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <fstream>
#include <string>
#include <vector>

#include "checker/compile/include_policy.h"
#include "checker/compile/nvrtc_compiler.h"
#include "tests/fuzz/include_probe.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

std::vector<CompileDiagnostic> refused(const std::string& text) { return forbidden_includes({"kernel.cu", text}); }

constexpr char k_kernel[] = "__global__ void k(float* a) { a[0] = 1.0f; }\n";

TEST_CASE("the toolkit's headers and the built-in ones may be included") {
  CHECK(refused("#include <cuda_fp16.h>\n#include <cstdio>\n# include <cooperative_groups.h>\n").empty());
  CHECK(refused("#include \"cuda_pipeline.h\"\n#include <cuda/std/cstdint>\n").empty());
  CHECK(refused(k_kernel).empty());
}

TEST_CASE("an absolute path, a home path or '..' is refused at its line, naming the directive") {
  const std::vector<CompileDiagnostic> found =
      refused(std::string("// a kernel\n#include \"/etc/passwd\"\n") + k_kernel + "#include <../../hidden.toml>\n");
  REQUIRE(found.size() == 2);
  CHECK(found[0].file == "kernel.cu");
  CHECK(found[0].line == 2);
  CHECK(found[0].severity == "error");
  CHECK(found[0].source_line == "#include \"/etc/passwd\"");
  CHECK(found[0].column == 1);
  CHECK(found[0].message.find("#include \"/etc/passwd\" is refused: it names a file by its path") == 0);
  CHECK(found[0].message.find("only the CUDA toolkit's headers") != std::string::npos);
  CHECK(found[1].line == 4);
  CHECK(found[1].message.find("#include <../../hidden.toml> is refused: it climbs out") == 0);
  CHECK(refused("#include \"~/secret\"\n").size() == 1);
  CHECK(refused("#include <cuda/../../x>\n").size() == 1);
  CHECK(refused("#include \"C:\\\\x\"\n").size() == 1);
}

TEST_CASE("the preprocessor's disguises are seen through: splices, comments between # and include") {
  CHECK(refused("#inc\\\nlude \"/etc/passwd\"\n").size() == 1);
  CHECK(refused("#/* hidden */include \"/etc/passwd\"\n").size() == 1);
  CHECK(refused("  #  include_next </etc/passwd>\n").size() == 1);
  CHECK(refused("#embed \"/etc/passwd\"\n").size() == 1);
  // The digraph %: is a # to the preprocessor.
  const std::vector<CompileDiagnostic> digraph = refused("int x;\n  %:include \"/etc/passwd\"\n%: include_next <../x>\n");
  REQUIRE(digraph.size() == 2);
  CHECK(digraph[0].line == 2);
  CHECK(digraph[0].column == 3);
  CHECK(digraph[0].message.find("%:include \"/etc/passwd\" is refused") == 0);
  CHECK(digraph[1].line == 3);
  CHECK(refused("%:include <cuda_fp16.h>\n").empty());
  const std::vector<CompileDiagnostic> spliced = refused("int x;\n#include \\\n\"/etc/passwd\"\n");
  REQUIRE(spliced.size() == 1);
  CHECK(spliced[0].line == 2);  // where the directive starts
}

TEST_CASE("an include whose name a macro builds is refused: its file is unknown before preprocessing") {
  const std::vector<CompileDiagnostic> found = refused("#define SECRET \"/etc/passwd\"\n#include SECRET\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].line == 2);
  CHECK(found[0].message.find("not built by a macro") != std::string::npos);
}

TEST_CASE("__has_include of a path is refused, of a toolkit header it is allowed") {
  const std::vector<CompileDiagnostic> found = refused("#if __has_include(\"/etc/shadow\")\n#endif\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].column == 5);
  CHECK(found[0].message.find("__has_include(\"/etc/shadow\") is refused") == 0);
  CHECK(refused("#if __has_include(<cuda_fp16.h>)\n#endif\n").empty());
}

TEST_CASE("directives inside comments and string literals are not directives") {
  CHECK(refused("// #include \"/etc/passwd\"\n/*\n#include \"/etc/passwd\"\n*/\n").empty());
  CHECK(refused("const char* s = \"#include \\\"/etc/passwd\\\"\";\n").empty());
  CHECK(refused("const char* s = R\"(\n#include \"/etc/passwd\"\n)\";\n").empty());
  CHECK(refused("int n = 1'000;\n#include </etc/passwd>\n").size() == 1);
  // A raw string's lines still count: the refused directive after it is named at its own line.
  const std::vector<CompileDiagnostic> after = refused("auto s = R\"x(\n\n)x\";\n#include \"/a\"\n");
  REQUIRE(after.size() == 1);
  CHECK(after[0].line == 4);
}

TEST_CASE("a quote is a digit separator only inside a number: after a name it opens a character literal") {
  // `x'/*'` is the name x and the literal '/*': no comment starts, the include is seen.
  CHECK(refused("#define Q x'/*'\n#include \"/etc/passwd\"\n// */\n").size() == 1);
  CHECK(refused("int n = 1'000'000;\n#define C '/*'\n#include \"/etc/passwd\"\n// */\n").size() == 1);
  CHECK(refused("int m = 0x1'2; char c = u8'/';\n#include \"/etc/passwd\"\n").size() == 1);
  CHECK(refused("double d = 1e+5'0;\n").empty());
}

TEST_CASE("a raw string whose delimiter NVRTC refuses is an ordinary string: the lines after it are code") {
  CHECK(refused("auto s = R\"aaaaaaaaaaaaaaaaaaaaaaaaaaa(\n#include \"/etc/passwd\"\n)aaaaaaaaaaaaaaaaaaaaaaaaaaa\";\n").size() == 1);
  CHECK(refused("auto s = R\"a b(\n#include \"/etc/passwd\"\n)a b\";\n").size() == 1);
  CHECK(refused("auto s = R\"sixteen_chars_ab(\n#include \"/etc/passwd\"\n)sixteen_chars_ab\";\n").empty());
  CHECK(refused("auto s = 1R\"x(\n#include \"/etc/passwd\"\n)x\";\n").size() == 1);  // 1R is a number
}

TEST_CASE("a header name is read whole: comment-like text inside it hides nothing after it") {
  CHECK(refused("#include <cuda_fp16.h/*>\n#include \"/etc/passwd\"\n// */\n").size() == 1);
  CHECK(refused("#if __has_include(<x/*>)\n#endif\n#include \"/etc/passwd\"\n// */\n").size() == 1);
}

TEST_CASE("__has_include that a macro carries into an #if is refused, and so is #line") {
  const std::vector<CompileDiagnostic> macro = refused("#define H __has_include\n#if H(\"/etc/passwd\")\n#endif\n");
  REQUIRE(macro.size() == 1);
  CHECK(macro[0].line == 1);
  const std::vector<CompileDiagnostic> line = refused("int a;\n#line 1 \"solutions/x/kernel.cu\"\nint x = ;\n");
  REQUIRE(line.size() == 1);
  CHECK(line[0].line == 2);
  CHECK(line[0].message.find("#line is refused: a kernel may not renumber its own lines") == 0);
  CHECK(refused("# 7 \"other.cu\"\n").size() == 1);
  CHECK(refused("%: line 3\n").size() == 1);
  CHECK(refused("#define LINE __LINE__\nint y = LINE;\n").empty());
}

// The regression corpus, against NVRTC itself: whenever the policy lets a text through, NVRTC
// does not open the file it names (tests/fuzz/include_probe.h). Each text that is no comment, no
// string and no benign kernel is one NVRTC does open, so the policy must refuse it.
TEST_CASE("include_policy agrees with NVRTC on every text of the include corpus") {
  const std::set<std::string> harmless = {"benign.cu", "in-comment.cu", "in-string.cu", "not-at-line-start.cu",
                                          "raw-delimiter-sixteen.cu"};
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("tests/fuzz/include_corpus"))) {
    const std::string name = entry.path().filename().string();
    const std::string text = test::read_text(entry.path());
    const bool policy_refuses = !forbidden_includes({"kernel.cu", text}).empty();
    const bool nvrtc_opens = test::nvrtc_opens_probe(text);
    INFO(name);
    CHECK((policy_refuses || !nvrtc_opens));
    if (harmless.count(name)) {
      CHECK_FALSE(policy_refuses);
      CHECK_FALSE(nvrtc_opens);
    } else {
      CHECK(policy_refuses);
    }
    ++checked;
  }
  CHECK(checked >= 20);
}

TEST_CASE("NvrtcCompiler refuses such a kernel before NVRTC opens the file, and never shows its text") {
  const std::filesystem::path secret = std::filesystem::temp_directory_path() / "tilecamp-include-secret.txt";
  std::ofstream(secret) << "the hidden answer is 42\n";
  NvrtcCompiler compiler;
  const Expected<CompileResult> result =
      compiler.compile({"kernel.cu", "#include \"" + secret.string() + "\"\n" + k_kernel}, {});
  std::filesystem::remove(secret);

  REQUIRE(result.has_value());
  CHECK_FALSE(result->ok);
  REQUIRE(result->diagnostics.size() == 1);
  CHECK(result->diagnostics[0].line == 1);
  CHECK(result->log.find("hidden answer") == std::string::npos);
  CHECK(result->log.find("kernel.cu(1): error: #include \"" + secret.string() + "\" is refused") == 0);
}

TEST_CASE("a relative name is not looked for beside the kernel, only among the toolkit's headers") {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "tilecamp-include-beside";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "helpers.cuh") << "#define SCALE 2.0f\n";
  NvrtcCompiler compiler;
  const Expected<CompileResult> result = compiler.compile(
      {(folder / "kernel.cu").string(),
       "#include \"helpers.cuh\"\n__global__ void k(float* a) { a[0] = SCALE; }\n"},
      {});
  std::filesystem::remove_all(folder);

  REQUIRE(result.has_value());
  CHECK_FALSE(result->ok);
  REQUIRE_FALSE(result->diagnostics.empty());
  CHECK(result->diagnostics[0].message == "cannot open source file \"helpers.cuh\"");
}

}  // namespace
}  // namespace tilecamp
