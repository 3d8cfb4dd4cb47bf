// The lessons check themselves (conventions in lessons/README.md): every lesson has a title,
// fits an 80-column terminal and names its exercises; every kernel a lesson shows is the marked
// region of a file in lessons/snippets/ that NVRTC compiles; every `tilecamp profile` command a
// lesson gives runs, and what the lesson claims about it (its `<!-- expect: ... -->` comments
// and the counters it quotes from the output) is what the emulator reports.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/exercise.h"
#include "checker/profile/profile.h"
#include "checker/report/profile_report.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

// Every line: the lesson renderer reflows paragraphs but not code blocks (which also hold the
// tables), so a longer line would wrap in the middle of a table row or a line of code.
constexpr size_t k_max_columns = 80;

struct Lesson {
  std::string file;  // "lessons/01-coalescing.md"
  int number = 0;
  std::vector<std::string> lines;
};

struct CodeBlock {
  std::string info;  // "cuda", "sh", "text"
  size_t open = 0;   // index of the opening fence in the lesson's lines
  size_t close = 0;  // index of the closing fence
  std::vector<std::string> body;
};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

std::string trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// Runs of blanks as one space, none at the ends: a quote wrapped to 80 columns compares with the
// one-line original.
std::string collapse_blanks(const std::string& text) {
  std::string collapsed;
  for (char c : text) {
    const bool blank = c == ' ' || c == '\t' || c == '\n';
    if (!blank) collapsed += c;
    else if (!collapsed.empty() && collapsed.back() != ' ') collapsed += ' ';
  }
  if (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
  return collapsed;
}

size_t columns(const std::string& line) {  // UTF-8 code points
  return static_cast<size_t>(std::count_if(line.begin(), line.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// lessons/NN-*.md, in course order.
std::vector<Lesson> lessons() {
  static const std::regex name_pattern(R"((\d\d)-[a-z0-9-]+\.md)");
  std::vector<Lesson> found;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("lessons"))) {
    const std::string name = entry.path().filename().string();
    std::smatch match;
    if (!std::regex_match(name, match, name_pattern)) continue;
    found.push_back({"lessons/" + name, std::stoi(match[1]), split_lines(test::read_text(entry.path()))});
  }
  std::sort(found.begin(), found.end(), [](const Lesson& a, const Lesson& b) { return a.file < b.file; });
  REQUIRE_MESSAGE(!found.empty(), "no lessons/NN-*.md");
  return found;
}

std::vector<CodeBlock> code_blocks(const Lesson& lesson) {
  std::vector<CodeBlock> blocks;
  for (size_t i = 0; i < lesson.lines.size(); ++i) {
    if (!lesson.lines[i].starts_with("```")) continue;
    CodeBlock block{trim(lesson.lines[i].substr(3)), i, i, {}};
    for (block.close = i + 1; block.close < lesson.lines.size(); ++block.close) {
      if (lesson.lines[block.close].starts_with("```")) break;
      block.body.push_back(lesson.lines[block.close]);
    }
    REQUIRE_MESSAGE(block.close < lesson.lines.size(), lesson.file << ":" << i + 1 << ": code block never closed");
    blocks.push_back(block);
    i = block.close;
  }
  return blocks;
}

// The lines of a `## TITLE` section, up to the next `## ` heading.
std::vector<std::string> section(const Lesson& lesson, const std::string& title) {
  std::vector<std::string> lines;
  bool inside = false;
  for (const std::string& line : lesson.lines) {
    if (line.starts_with("## ")) inside = trim(line.substr(3)) == title;
    else if (inside) lines.push_back(line);
  }
  return lines;
}

// The regions between `// example-begin NAME` and `// example-end NAME` of a snippet file,
// dedented by the indentation the region's lines share.
std::map<std::string, std::vector<std::string>> examples_in(const std::string& file) {
  static const std::regex marker(R"(^\s*// example-(begin|end) (\S+)\s*$)");
  std::map<std::string, std::vector<std::string>> examples;
  std::string open;
  std::vector<std::string> region;
  const std::vector<std::string> lines = split_lines(test::read_text(test::source_path(file)));
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch match;
    if (!std::regex_match(lines[i], match, marker)) {
      if (!open.empty()) region.push_back(lines[i]);
      continue;
    }
    const std::string where = file + ":" + std::to_string(i + 1) + ": ";
    if (match[1] == "begin") {
      REQUIRE_MESSAGE(open.empty(), where << "example `" << match[2] << "` begins inside `" << open << "`");
      REQUIRE_MESSAGE(!examples.contains(match[2]), where << "a second example named `" << match[2] << "`");
      open = match[2];
      region.clear();
      continue;
    }
    REQUIRE_MESSAGE(open == match[2], where << "example-end " << match[2] << " does not close `" << open << "`");
    size_t indent = std::string::npos;
    for (const std::string& line : region) {
      if (!trim(line).empty()) indent = std::min(indent, line.find_first_not_of(' '));
    }
    for (std::string& line : region) line = line.size() > indent ? line.substr(indent) : trim(line);
    examples[open] = region;
    open.clear();
  }
  REQUIRE_MESSAGE(open.empty(), file << ": example `" << open << "` never ends");
  return examples;
}

std::vector<std::string> snippet_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("lessons/snippets"))) {
    if (entry.path().extension() == ".cu") files.push_back("lessons/snippets/" + entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// ---- Try-it commands -------------------------------------------------------------------------

// A `tilecamp profile` command shown in a code block, what the lesson says about its run (the
// `<!-- expect: ... -->` comments right after the block) and, when the block also shows the
// output (`$ tilecamp profile ...` then the output), the counters it quotes.
struct ProfileCommand {
  std::string where;  // "lessons/NN-x.md:LINE"
  std::vector<std::string> words;
  std::vector<std::string> expectations;
  std::map<std::string, uint64_t> quoted_totals;
};

// Splits a shell command line into words: blanks separate, '...' and "..." quote.
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : line) {
    if (quote != 0) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  REQUIRE_MESSAGE(quote == 0, "unbalanced quote in `" << line << "`");
  if (in_word) words.push_back(word);
  return words;
}

// Counters by the names `tilecamp profile --json` gives them.
std::map<std::string, uint64_t> values_of(const Counters& counters) {
  std::map<std::string, uint64_t> values;
  counters.for_each([&](const char* name, uint64_t value) { values[name] = value; });
  return values;
}

bool is_counter(const std::string& name) { return values_of(Counters{}).contains(name); }

std::vector<ProfileCommand> profile_commands(const Lesson& lesson) {
  static const std::regex expect_line(R"(^<!-- expect: (.*) -->$)");
  static const std::regex counter_line(R"(^\s+([a-z_]+)\s+(\d+)$)");
  std::vector<ProfileCommand> commands;
  for (const CodeBlock& block : code_blocks(lesson)) {
    std::string command;
    size_t output_from = block.body.size();
    for (size_t i = 0; i < block.body.size(); ++i) {
      std::string line = block.body[i];
      if (line.starts_with("$ ")) line = line.substr(2);
      if (!line.starts_with("tilecamp profile ")) continue;
      REQUIRE_MESSAGE(command.empty(), lesson.file << ":" << block.open + i + 2 << ": one command per code block");
      while (line.ends_with("\\") && i + 1 < block.body.size()) line = line.substr(0, line.size() - 1) + block.body[++i];
      command = line;
      output_from = i + 1;
    }
    if (command.empty()) continue;
    ProfileCommand parsed{lesson.file + ":" + std::to_string(block.open + 2), shell_words(command), {}, {}};
    for (size_t i = output_from; i < block.body.size(); ++i) {
      std::smatch match;
      if (std::regex_match(block.body[i], match, counter_line) && is_counter(match[1])) {
        parsed.quoted_totals[match[1]] = std::stoull(match[2]);
      }
    }
    for (size_t i = block.close + 1; i < lesson.lines.size(); ++i) {
      std::smatch match;
      if (std::regex_match(lesson.lines[i], match, expect_line)) parsed.expectations.push_back(trim(match[1]));
      else if (!trim(lesson.lines[i]).empty()) break;
    }
    commands.push_back(parsed);
  }
  return commands;
}

// "X[,Y[,Z]]", as `--grid` and `--block` take it.
Dim3 dim3_of(const std::string& text, const std::string& where) {
  uint32_t values[3] = {1, 1, 1};
  const char* next = text.data();
  const char* const end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    auto [last, error] = std::from_chars(next, end, values[i]);
    REQUIRE_MESSAGE((error == std::errc() && values[i] > 0), where << ": bad dimensions `" << text << "`");
    if (last == end) return {values[0], values[1], values[2]};
    REQUIRE_MESSAGE(*last == ',', where << ": bad dimensions `" << text << "`");
    next = last + 1;
  }
  FAIL(where << ": more than three dimensions in `" << text << "`");
  return {};
}

profile::ProfileRequest request_of(const ProfileCommand& command) {
  const std::vector<std::string>& words = command.words;
  REQUIRE_MESSAGE(words.size() >= 3, command.where << ": `tilecamp profile FILE ...` expected");
  profile::ProfileRequest request;
  request.path = words[2];
  REQUIRE_MESSAGE(request.path.starts_with("lessons/snippets/"),
                  command.where << ": profile a kernel shipped with the lessons, not " << request.path);
  request.text = test::read_text(test::source_path(request.path));
  for (size_t i = 3; i < words.size(); i += 2) {
    REQUIRE_MESSAGE(i + 1 < words.size(), command.where << ": " << words[i] << " needs a value");
    const std::string& option = words[i];
    const std::string& value = words[i + 1];
    if (option == "--kernel") {
      request.kernel = value;
    } else if (option == "--grid") {
      request.grid = dim3_of(value, command.where);
    } else if (option == "--block") {
      request.block = dim3_of(value, command.where);
    } else if (option == "--shared") {
      request.dynamic_shared_bytes = static_cast<uint32_t>(std::stoul(value));
    } else if (option == "--seed") {
      request.seed = std::stoull(value);
    } else if (option == "--arg") {
      auto spec = profile::parse_arg_spec(value);
      REQUIRE_MESSAGE(spec.has_value(), command.where << ": " << (spec ? "" : spec.error()));
      request.arguments.push_back(*spec);
    } else {
      FAIL(command.where << ": the lesson test does not know the option " << option);
    }
  }
  return request;
}

// Runs each command once, however many test cases ask for it.
const profile::ProfileReport& run(const ProfileCommand& command) {
  static std::map<std::string, profile::ProfileReport> reports;
  const std::string key = command.where;
  if (!reports.contains(key)) {
    NvrtcCompiler compiler;
    emu::EmulatorBackend backend;
    auto report = profile::profile_kernel(compiler, backend, request_of(command));
    REQUIRE_MESSAGE(report.has_value(), command.where << ": " << (report ? "" : report.error()));
    REQUIRE_MESSAGE(report->compiled, command.where << ": " << report->compile_log);
    reports.emplace(key, std::move(*report));
  }
  return reports.at(key);
}

// The counters of one line of the profiled file (all zero for a line that ran no instruction).
Counters line_counters(const profile::ProfileReport& report, int line) {
  Counters counters;
  for (const LineProfile& profile : report.result.lines) {
    if (profile.line == line && profile.file == report.path) counters += profile.counters;
  }
  return counters;
}

// "2 * 128 * 128 * 128 / 32", "32 * shared_ld_requests": integers and counters multiplied and
// divided from left to right; a division must be exact.
uint64_t value_of(const std::string& term, const std::map<std::string, uint64_t>& totals, const std::string& where) {
  uint64_t result = 1;
  char op = '*';
  size_t start = 0;
  while (start <= term.size()) {
    const size_t end = std::min(term.find_first_of("*/", start), term.size());
    const std::string factor = trim(term.substr(start, end - start));
    uint64_t value = 0;
    if (totals.contains(factor)) {
      value = totals.at(factor);
    } else {
      auto [last, error] = std::from_chars(factor.data(), factor.data() + factor.size(), value);
      REQUIRE_MESSAGE((error == std::errc() && last == factor.data() + factor.size()),
                      where << ": `" << factor << "` is neither a number nor a counter");
    }
    if (op == '*') {
      result *= value;
    } else {
      REQUIRE_MESSAGE((value != 0 && result % value == 0), where << ": `" << term << "` does not divide exactly");
      result /= value;
    }
    if (end < term.size()) op = term[end];
    start = end + 1;
  }
  return result;
}

bool is_diagnostic_expectation(const std::string& expectation) {
  return expectation.starts_with("error ") || expectation.starts_with("warning ");
}

// "error deadlock at line 12": the diagnostic's severity, kind and line.
std::string diagnostic_signature(const Diagnostic& diagnostic) {
  return std::string(severity_name(diagnostic.severity)) + " " + diagnostic.kind + " at line " +
         std::to_string(diagnostic.line);
}

// "A == 32 * B" on the kernel's totals, or "at line N: A == 32 * B" on one source line's counters.
void check_counter_expectation(const std::string& expectation, const profile::ProfileReport& report,
                               const std::string& where) {
  static const std::regex at_line(R"(^at line (\d+): (.+)$)");
  static const std::regex comparison(R"(^(.+?)\s*(==|<=|>=|<|>)\s*(.+)$)");
  std::smatch line_match, match;
  const bool for_line = std::regex_match(expectation, line_match, at_line);
  const std::string claim = for_line ? line_match[2].str() : expectation;
  const std::map<std::string, uint64_t> counters =
      values_of(for_line ? line_counters(report, std::stoi(line_match[1])) : report.result.totals);
  REQUIRE_MESSAGE(std::regex_match(claim, match, comparison), where << ": cannot read `expect: " << expectation << "`");
  const uint64_t left = value_of(match[1], counters, where), right = value_of(match[3], counters, where);
  const std::string op = match[2];
  const bool holds = op == "==" ? left == right : op == "<=" ? left <= right : op == ">=" ? left >= right
                   : op == "<"  ? left < right  : left > right;
  CHECK_MESSAGE(holds, where << ": expect: " << expectation << " (" << left << " " << op << " " << right << ")");
}

std::vector<ProfileCommand> all_profile_commands() {
  std::vector<ProfileCommand> commands;
  for (const Lesson& lesson : lessons()) {
    for (ProfileCommand& command : profile_commands(lesson)) commands.push_back(std::move(command));
  }
  return commands;
}

// ---- the tests -------------------------------------------------------------------------------

TEST_CASE("every lesson opens with a `# ` title and has a Try it and an Exercises section") {
  for (const Lesson& lesson : lessons()) {
    CAPTURE(lesson.file);
    REQUIRE(!lesson.lines.empty());
    CHECK(lesson.lines.front().starts_with("# "));
    CHECK_FALSE(section(lesson, "Try it").empty());
    CHECK_FALSE(section(lesson, "Exercises").empty());
  }
}

TEST_CASE("every line of every lesson fits in 80 columns, code blocks included") {
  for (const Lesson& lesson : lessons()) {
    for (size_t i = 0; i < lesson.lines.size(); ++i) {
      CHECK_MESSAGE(columns(lesson.lines[i]) <= k_max_columns,
                    lesson.file << ":" << i + 1 << " has " << columns(lesson.lines[i]) << " columns");
    }
  }
}

TEST_CASE("every lesson's Exercises section names exercises of its own number") {
  static const std::regex exercise_id(R"(`(\d\d)-[a-z0-9-]+`)");
  for (const Lesson& lesson : lessons()) {
    CAPTURE(lesson.file);
    int named = 0;
    for (const std::string& line : section(lesson, "Exercises")) {
      for (std::sregex_iterator it(line.begin(), line.end(), exercise_id), end; it != end; ++it) {
        CHECK_MESSAGE(std::stoi((*it)[1]) == lesson.number, "names another lesson's exercise " << (*it)[0]);
        ++named;
      }
    }
    CHECK_MESSAGE(named > 0, "names no exercise (`NN-name`) in its Exercises section");
  }
}

TEST_CASE("every exercise of the course index is named in the Exercises section of its lesson") {
  std::map<int, std::string> exercises_sections;
  for (const Lesson& lesson : lessons()) {
    for (const std::string& line : section(lesson, "Exercises")) exercises_sections[lesson.number] += line + "\n";
  }
  auto course = grade::load_course(test::source_path(""));
  REQUIRE_MESSAGE(course.has_value(), (course ? "" : course.error()));
  CHECK(!course->exercises.empty());
  for (const grade::CourseEntry& entry : course->exercises) {
    CHECK_MESSAGE(test::contains(exercises_sections[entry.lesson], "`" + entry.id + "`"),
                  "lesson " << entry.lesson << " does not name exercise " << entry.id);
  }
}

TEST_CASE("every snippet reference is followed by a cuda block equal to the marked region") {
  static const std::regex reference(R"(^<!-- snippet: (\S+)#(\S+) -->$)");
  int references = 0;
  for (const Lesson& lesson : lessons()) {
    const std::vector<CodeBlock> blocks = code_blocks(lesson);
    for (size_t i = 0; i < lesson.lines.size(); ++i) {
      std::smatch match;
      if (!std::regex_match(lesson.lines[i], match, reference)) continue;
      const std::string where = lesson.file + ":" + std::to_string(i + 1);
      ++references;
      auto block = std::find_if(blocks.begin(), blocks.end(), [&](const CodeBlock& b) { return b.open == i + 1; });
      REQUIRE_MESSAGE(block != blocks.end(), where << ": the snippet line must be followed by a code block");
      CHECK_MESSAGE(block->info == "cuda", where << ": the block is ```" << block->info << ", not ```cuda");
      const auto examples = examples_in("lessons/snippets/" + match[1].str());
      REQUIRE_MESSAGE(examples.contains(match[2]), where << ": no example `" << match[2] << "` in " << match[1]);
      CHECK_MESSAGE(block->body == examples.at(match[2]),
                    where << ": the code differs from " << match[1] << "#" << match[2] << "; copy the region again");
    }
  }
  CHECK(references > 0);
}

TEST_CASE("every marked region of a snippet file is shown by a lesson") {
  std::string all_lessons;
  for (const Lesson& lesson : lessons()) {
    for (const std::string& line : lesson.lines) all_lessons += line + "\n";
  }
  for (const std::string& file : snippet_files()) {
    for (const auto& [name, region] : examples_in(file)) {
      const std::string reference = "<!-- snippet: " + file.substr(file.rfind('/') + 1) + "#" + name + " -->";
      CHECK_MESSAGE(test::contains(all_lessons, reference), file << ": example `" << name << "` is shown nowhere");
    }
  }
}

TEST_CASE("every snippet file compiles with NVRTC without a warning") {
  const std::vector<std::string> files = snippet_files();
  REQUIRE_FALSE(files.empty());
  for (const std::string& file : files) {
    CAPTURE(file);
    NvrtcCompiler compiler;
    auto result = compiler.compile({file, test::read_text(test::source_path(file))}, {});
    REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
    CHECK_MESSAGE(result->ok, result->log);
    CHECK_MESSAGE(result->diagnostics.empty(), result->log);
    if (result->ok) test::compile_to_module(file, test::read_text(test::source_path(file)));
  }
}

TEST_CASE("every tilecamp profile command in a lesson says what to expect of it") {
  const std::vector<ProfileCommand> commands = all_profile_commands();
  CHECK(commands.size() >= 5);
  for (const ProfileCommand& command : commands) {
    CHECK_MESSAGE(!command.expectations.empty(), command.where << ": add <!-- expect: ... --> after the block");
  }
  for (const Lesson& lesson : lessons()) {
    size_t attached = 0, written = 0;
    for (const ProfileCommand& command : profile_commands(lesson)) attached += command.expectations.size();
    for (const std::string& line : lesson.lines) written += line.starts_with("<!-- expect:") ? 1 : 0;
    CHECK_MESSAGE(attached > 0, lesson.file << " gives no tilecamp profile command to try");
    CHECK_MESSAGE(attached == written, lesson.file << ": an expect comment does not follow a command's block");
  }
}

// One test case, so that each command runs once for all four (run() keeps its report for the
// process; CTest runs every test case in a process of its own).
TEST_CASE("every tilecamp profile command in a lesson gives what the lesson says of it") {
  SUBCASE("every tilecamp profile command in a lesson reports exactly the diagnostics the lesson expects") {
    for (const ProfileCommand& command : all_profile_commands()) {
      const profile::ProfileReport& report = run(command);
      std::vector<std::string> expected, reported;
      for (const std::string& expectation : command.expectations) {
        if (is_diagnostic_expectation(expectation)) expected.push_back(expectation);
      }
      for (const Diagnostic& diagnostic : report.result.diagnostics) {
        reported.push_back(diagnostic_signature(diagnostic));
        if (std::find(expected.begin(), expected.end(), reported.back()) == expected.end()) {
          CHECK_MESSAGE(false, command.where << ": unexpected " << reported.back() << ": " << diagnostic.message);
        }
      }
      for (const std::string& expectation : expected) {
        CHECK_MESSAGE(std::find(reported.begin(), reported.end(), expectation) != reported.end(),
                      command.where << ": expected `" << expectation << "`, not reported");
      }
      if (expected.empty()) CHECK_MESSAGE(report.result.completed, command.where << ": the kernel did not complete");
    }
  }

  SUBCASE("every counter fact a lesson states about a tilecamp profile command holds") {
    for (const ProfileCommand& command : all_profile_commands()) {
      const profile::ProfileReport& report = run(command);
      for (const std::string& expectation : command.expectations) {
        if (!is_diagnostic_expectation(expectation)) check_counter_expectation(expectation, report, command.where);
      }
    }
  }

  SUBCASE("every counter a lesson quotes from tilecamp profile's output is the one the command gives") {
    for (const ProfileCommand& command : all_profile_commands()) {
      const std::map<std::string, uint64_t> totals = values_of(run(command).result.totals);
      for (const auto& [counter, quoted] : command.quoted_totals) {
        CHECK_MESSAGE(totals.at(counter) == quoted,
                      command.where << ": the lesson quotes " << counter << " " << quoted << ", the run gives "
                                    << totals.at(counter));
      }
    }
  }

  SUBCASE("every diagnostic a lesson quotes is reported, word for word, by one of its commands") {
    int quotes = 0;
    for (const Lesson& lesson : lessons()) {
      std::vector<std::string> reported;
      for (const ProfileCommand& command : profile_commands(lesson)) {
        for (const Diagnostic& diagnostic : run(command).result.diagnostics) {
          reported.push_back(collapse_blanks(report::diagnostic_text(diagnostic, report::Style(false))));
        }
      }
      // A ```text block that starts with "error:" or "warning:" quotes one diagnostic, wrapped.
      for (const CodeBlock& block : code_blocks(lesson)) {
        if (block.info != "text" || block.body.empty()) continue;
        if (!block.body.front().starts_with("error:") && !block.body.front().starts_with("warning:")) continue;
        std::string quote;
        for (const std::string& line : block.body) quote += line + " ";
        quote = collapse_blanks(quote);
        ++quotes;
        CHECK_MESSAGE(std::find(reported.begin(), reported.end(), quote) != reported.end(),
                      lesson.file << ":" << block.open + 2 << " quotes a diagnostic no command of the lesson reports: "
                                  << quote);
      }
    }
    CHECK(quotes > 0);
  }
}

}  // namespace
}  // namespace tilecamp
