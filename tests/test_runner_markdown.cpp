// Lessons rendered for the terminal (runner/learner/markdown_render.h): every Markdown construct the
// course uses, wrapping, plain text for pipes, and the real lessons at 80 columns.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "runner/learner/ansi_text.h"
#include "runner/learner/code_highlight.h"
#include "runner/learner/lessons.h"
#include "runner/learner/markdown_render.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

using runner::render_markdown;

std::string plain(const std::string& markdown, size_t width = 80) {
  std::string out;
  for (const std::string& line : render_markdown(markdown, {width, false})) out += line + "\n";
  return out;
}

std::string colored(const std::string& markdown, size_t width = 80) {
  std::string out;
  for (const std::string& line : render_markdown(markdown, {width, true})) out += line + "\n";
  return out;
}

TEST_CASE("markdown: headings are underlined, = for the title and - for sections, without their # marks") {
  CHECK(plain("# Lesson 1: Coalescing\n\n## Requests\n\n### Detail\n") ==
        "Lesson 1: Coalescing\n====================\n\nRequests\n--------\n\nDetail\n");
}

TEST_CASE("markdown: with colour, headings are bold cyan and emphasis, strong and inline code are styled") {
  const std::string out = colored("# Title\n\nAn *emphasised* and **strong** word, and `code`.\n");
  CHECK(test::contains(out, "\x1b[1;36mTitle\x1b[0m"));
  CHECK(test::contains(out, "\x1b[3memphasised\x1b[0m"));
  CHECK(test::contains(out, "\x1b[1mstrong\x1b[0m"));
  CHECK(test::contains(out, "\x1b[36mcode\x1b[0m"));
}

TEST_CASE("markdown: without colour there is no escape sequence at all, and inline code keeps its backquotes") {
  const std::string out = plain("# T\n\n*a* **b** `c` [d](https://e.org)\n\n> q\n\n- x\n\n```cuda\n__global__ void k() {}\n```\n");
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(test::contains(out, "a b `c` d (https://e.org)"));
}

TEST_CASE("markdown: paragraphs are re-flowed to the width, and a code span is never split across lines") {
  const std::string out = plain("one two three four five six seven `i < n` eight nine ten eleven\n", 30);
  for (const std::string& line : runner::split_lines(out)) CHECK(line.size() <= 30);
  CHECK(test::contains(out, "`i < n`"));
}

TEST_CASE("markdown: lists keep their markers and indent continuation lines, ordered lists count from their start") {
  CHECK(plain("- first item that is long enough to wrap\n- second\n", 24) ==
        "- first item that is\n  long enough to wrap\n- second\n");
  CHECK(plain("3. three\n4. four\n") == "3. three\n4. four\n");
  CHECK(plain("- a\n\n- b\n") == "- a\n\n- b\n");  // a loose list keeps its blank lines
  CHECK(test::contains(colored("- a\n"), "\x1b[36m•\x1b[0m a"));
}

TEST_CASE("markdown: block quotes get a bar, nested blocks inside them too") {
  CHECK(plain("> A request costs one sector\n> per sector.\n") == "> A request costs one sector per sector.\n");
  CHECK(test::contains(colored("> quoted\n"), "\x1b[2m│\x1b[0m quoted"));
}

TEST_CASE("markdown: links show their address after the text, unless the text is the address") {
  CHECK(plain("See [the format](docs/exercise-format.md).\n") == "See the format (docs/exercise-format.md).\n");
  CHECK(plain("<https://no-color.org>\n") == "https://no-color.org\n");
}

TEST_CASE("markdown: fenced code keeps its lines, indented, never re-flowed") {
  const std::string code = "```text\nlane  0   1   2   3   4   5   6   7   8   9  10  11\n```\n";
  CHECK(plain(code, 60) == "    lane  0   1   2   3   4   5   6   7   8   9  10  11\n");
  // Too wide for the indent: shown flush left rather than wrapped.
  CHECK(plain(code, 52) == "lane  0   1   2   3   4   5   6   7   8   9  10  11\n");
}

TEST_CASE("markdown: cuda code blocks are highlighted: CUDA names, keywords, types, numbers, comments") {
  const std::string out = colored("```cuda\n__global__ void k(float* a) {  // TODO: index\n  if (threadIdx.x < 32) a[0] = 1;\n}\n```\n");
  CHECK(test::contains(out, "\x1b[1;33m__global__\x1b[0m"));
  CHECK(test::contains(out, "\x1b[36mvoid\x1b[0m"));
  CHECK(test::contains(out, "\x1b[35mif\x1b[0m"));
  CHECK(test::contains(out, "\x1b[1;33mthreadIdx\x1b[0m"));
  CHECK(test::contains(out, "\x1b[32m32\x1b[0m"));
  CHECK(test::contains(out, "\x1b[2m// \x1b[0m\x1b[1;33mTODO\x1b[0m"));
}

TEST_CASE("markdown: a block comment keeps its colour across lines, and strings are not read as code") {
  bool in_comment = false;
  const std::string first = runner::highlight_line("int a; /* starts", runner::CodeLanguage::Cuda, in_comment);
  CHECK(in_comment);
  const std::string second = runner::highlight_line("if still */ int b;", runner::CodeLanguage::Cuda, in_comment);
  CHECK_FALSE(in_comment);
  CHECK(second.starts_with("\x1b[2mif still */"));
  CHECK(test::contains(runner::highlight_line("printf(\"if int\");", runner::CodeLanguage::Cuda, in_comment),
                       "\x1b[32m\"if int\"\x1b[0m"));
}

TEST_CASE("markdown: pipe tables are laid out in aligned columns, with the delimiter row's alignment") {
  const std::string table =
      "| kernel | sectors | note |\n"
      "|---|---:|:---:|\n"
      "| naive | 32 | slow |\n"
      "| `tiled` | 4 | ok |\n";
  CHECK(plain(table) ==
        "kernel   sectors  note\n"
        "-------  -------  ----\n"
        "naive         32  slow\n"
        "`tiled`        4   ok\n");
  const std::string out = colored(table);
  CHECK(test::contains(out, "\x1b[1mkernel\x1b[0m"));
  CHECK(test::contains(out, "\x1b[36mtiled\x1b[0m"));
}

TEST_CASE("markdown: a table wider than the width wraps inside its cells") {
  const std::string table =
      "| what | why |\n|---|---|\n"
      "| out-of-bounds | a global load, store or atomic outside every buffer, naming the buffer |\n";
  const std::vector<std::string> lines = render_markdown(table, {40, false});
  for (const std::string& line : lines) CHECK(runner::visible_width(line) <= 40);
  CHECK(lines.size() > 3);
  CHECK(lines[2].starts_with("out-of-bounds  a global load"));
}

TEST_CASE("markdown: a paragraph that only looks like a table stays a paragraph") {
  CHECK(plain("| not a table\nbecause the second line is text\n") == "| not a table because the second line is text\n");
}

TEST_CASE("markdown: HTML comments (the lessons' test markers) are not shown") {
  CHECK(plain("<!-- snippet: a.cu#b -->\n```cuda\nint x;\n```\n<!-- expect: x == 1 -->\n\nText.\n") ==
        "    int x;\n\nText.\n");
}

TEST_CASE("markdown: an inline paragraph (a hint) wraps under its label") {
  const auto lines = runner::render_inline_paragraph("Use `blockIdx.x * blockDim.x` and then test `i < n` before it.",
                                                     {40, false}, "Hint 1: ", "        ");
  REQUIRE(lines.size() >= 2);
  CHECK(lines[0].starts_with("Hint 1: Use `blockIdx.x * blockDim.x`"));
  CHECK(lines[1].starts_with("        "));
}

TEST_CASE("markdown: every lesson renders within 80 columns, titled, without fences or markers") {
  const auto root = test::source_path("");
  const auto lessons = runner::lesson_files(root);
  REQUIRE(lessons.size() >= 5);
  for (const runner::LessonFile& lesson : lessons) {
    CAPTURE(lesson.path);
    auto lines = runner::render_lesson(root, lesson.number, 80, true);
    REQUIRE(lines.has_value());
    CHECK(runner::strip_escapes(lines->front()).starts_with("Lesson " + std::to_string(lesson.number) + ": "));
    for (const std::string& line : *lines) {
      CHECK(runner::visible_width(line) <= 80);
      CHECK_FALSE(line.starts_with("```"));
      CHECK(line.find("<!--") == std::string::npos);
    }
  }
}

TEST_CASE("markdown: an unknown lesson is an error that lists the lessons") {
  auto lines = runner::render_lesson(test::source_path(""), 42, 80, false);
  REQUIRE_FALSE(lines.has_value());
  CHECK(test::contains(lines.error(), "there is no lesson 42"));
  CHECK(test::contains(lines.error(), "01-coalescing.md"));
}

TEST_CASE("text: widths ignore escapes and count UTF-8 characters once, lines wrap with a hanging indent") {
  CHECK(runner::visible_width("\x1b[1;36mab\x1b[0m│") == 3);
  CHECK(runner::truncate_visible("\x1b[1mabcdef\x1b[0m", 3) == "\x1b[1mabc\x1b[0m");
  CHECK(runner::wrap_line("  FAIL  public case n=100 went out of bounds", 24) ==
        std::vector<std::string>{"  FAIL  public case", "    n=100 went out of", "    bounds"});
  CHECK(runner::wrap_line("short", 24) == std::vector<std::string>{"short"});
}

}  // namespace
}  // namespace tilecamp
