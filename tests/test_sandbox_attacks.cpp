// Every attack in tests/data/attacks/ (its README says the format), checked as a learner or a CI
// job checks a kernel: `tilecamp check EXERCISE --file ATTACK --json`, beside a canary file whose
// text must appear nowhere in what tilecamp prints. Each must fail for its stated reason, end
// within its time limit, and never crash tilecamp or make it unable to grade.
#include <doctest/doctest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <random>

#include "tests/tilecamp_process.h"

namespace tilecamp {
namespace {

namespace fs = std::filesystem;

struct Attack {
  std::string name;
  std::string text;
  std::string exercise;
  std::string expected_status;
  std::string expected_kind;
  int time_limit = 60;
};

// The value of `// key: value` in the attack's header.
std::string header_field(const std::string& text, const std::string& key) {
  const std::string marker = "// " + key + ": ";
  const size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  const size_t start = at + marker.size();
  return text.substr(start, text.find('\n', start) - start);
}

Attack read_attack(const fs::path& path) {
  Attack attack;
  attack.name = path.filename().string();
  attack.text = test::read_text(path);
  attack.exercise = header_field(attack.text, "exercise");
  const std::string expect = header_field(attack.text, "expect");
  attack.expected_status = expect.substr(0, expect.find(' '));
  attack.expected_kind = expect.substr(expect.find(' ') + 1);
  if (const std::string limit = header_field(attack.text, "time-limit"); !limit.empty()) attack.time_limit = std::stoi(limit);
  return attack;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

// Whether the verdict fails for `kind`: a diagnostic of that kind, or a failing check of it.
bool fails_for(const nlohmann::json& verdict, const std::string& kind) {
  for (const nlohmann::json& diagnostic : verdict["diagnostics"]) {
    if (diagnostic["kind"] == kind && diagnostic["severity"] == "error") return true;
  }
  for (const nlohmann::json& check : verdict["checks"]) {
    if (check["kind"] == kind && check["status"] == "fail") return true;
  }
  return false;
}

TEST_CASE("every attack of tests/data/attacks fails for its reason, within its limits, and never shows the canary") {
  test::ScratchFolder folder;
  std::random_device random;
  const std::string secret = "canary-" + std::to_string(random()) + "-" + std::to_string(random());
  folder.write("canary/secret.txt", secret + "\n");
  folder.write("classmate/exercises/01-vector-add/kernel.cu", "// " + secret + "\n");
  const std::string canary = (folder.path() / "canary/secret.txt").string();
  int attacks = 0;
  for (const auto& entry : fs::directory_iterator(test::source_path("tests/data/attacks"))) {
    if (entry.path().extension() != ".cu") continue;
    const Attack attack = read_attack(entry.path());
    INFO(attack.name);
    REQUIRE_FALSE(attack.exercise.empty());
    folder.write(attack.name, replaced(attack.text, "@CANARY@", canary));
    const auto start = std::chrono::steady_clock::now();
    const test::RunResult run = test::TilecampProcess(folder,
                                                      {"check", attack.exercise, "--file", (folder.path() / attack.name).string(),
                                                       "--json", "--seed", "7", "--backend", "emulator", "--time-limit",
                                                       std::to_string(attack.time_limit)},
                                                      attack.name)
                                    .wait();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(run.out, run.err);
    CHECK(seconds < attack.time_limit + 10);
    CHECK(run.exit == 1);
    CHECK_FALSE(test::contains(run.out + run.err, secret));
    const nlohmann::json verdict = nlohmann::json::parse(run.out, nullptr, false);
    REQUIRE_FALSE(verdict.is_discarded());
    CHECK(verdict["status"] == attack.expected_status);
    CHECK(fails_for(verdict, attack.expected_kind));
    ++attacks;
  }
  CHECK(attacks >= 18);
}

}  // namespace
}  // namespace tilecamp
