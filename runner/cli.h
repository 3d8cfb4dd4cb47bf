// The command line as the commands describe it: subcommands, options and their checks. Only
// cli.cpp includes CLI11, whose header-only library costs seconds in every file that includes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace tilecamp::runner {

// One option being described; each call adds a check and returns the option for the next.
class OptionSpec {
 public:
  explicit OptionSpec(CLI::Option* option) : m_option(option) {}
  OptionSpec& required();
  OptionSpec& range(double low, double high);  // a number from `low` to `high`, both included
  OptionSpec& range(int64_t low, int64_t high);  // a whole number from `low` to `high`
  OptionSpec& positive();                      // a number above 0
  OptionSpec& one_of(const std::vector<std::string>& values);
  OptionSpec& delimiter(char separator);       // a list given as one argument: A,B,C
  // `validate` returns "" for a good value, else why it is not; `name` is its placeholder (LINE).
  OptionSpec& check(std::function<std::string(const std::string&)> validate, const std::string& name);

 private:
  CLI::Option* m_option;
};

// A command (or the program) whose options and subcommands are being described. Cheap to copy:
// it names a CLI11 App that the program's parser owns.
class CommandLine {
 public:
  explicit CommandLine(CLI::App* app) : m_app(app) {}

  CommandLine subcommand(const std::string& name, const std::string& description);
  // An option ("--seed", "-y,--yes") or a positional argument ("exercise"). T is one of the types
  // cli.cpp instantiates: std::string, int, uint32_t, uint64_t, double, std::vector<std::string>,
  // std::optional<int>, std::optional<uint64_t>.
  template <typename T>
  OptionSpec option(const std::string& name, T& target, const std::string& description);
  OptionSpec flag(const std::string& name, bool& target, const std::string& description);
  void footer(const std::string& text);
  void require_subcommand(int at_least, int at_most);
  void allow_extras();  // unknown arguments are kept for remaining(), not refused

  // After parsing:
  bool parsed() const;
  size_t count(const std::string& option) const;
  std::vector<std::string> remaining() const;

 private:
  CLI::App* m_app;
};

}  // namespace tilecamp::runner
