#include "runner/cli.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <utility>

#include "runner/command.h"
#include "runner/terminal.h"

namespace tilecamp::runner {

OptionSpec& OptionSpec::required() {
  m_option->required();
  return *this;
}

OptionSpec& OptionSpec::range(double low, double high) {
  m_option->check(CLI::Range(low, high));
  return *this;
}

OptionSpec& OptionSpec::range(int64_t low, int64_t high) {
  m_option->check(CLI::Range(low, high));
  return *this;
}

OptionSpec& OptionSpec::positive() {
  m_option->check(CLI::PositiveNumber);
  return *this;
}

OptionSpec& OptionSpec::one_of(const std::vector<std::string>& values) {
  m_option->check(CLI::IsMember(values));
  return *this;
}

OptionSpec& OptionSpec::delimiter(char separator) {
  m_option->delimiter(separator);
  return *this;
}

OptionSpec& OptionSpec::check(std::function<std::string(const std::string&)> validate, const std::string& name) {
  m_option->check(CLI::Validator(
      [validate = std::move(validate)](std::string& value) { return validate(value); }, name));
  return *this;
}

CommandLine CommandLine::subcommand(const std::string& name, const std::string& description) {
  return CommandLine(m_app->add_subcommand(name, description));
}

template <typename T>
OptionSpec CommandLine::option(const std::string& name, T& target, const std::string& description) {
  return OptionSpec(m_app->add_option(name, target, description));
}

template OptionSpec CommandLine::option(const std::string&, std::string&, const std::string&);
template OptionSpec CommandLine::option(const std::string&, int&, const std::string&);
template OptionSpec CommandLine::option(const std::string&, uint32_t&, const std::string&);
template OptionSpec CommandLine::option(const std::string&, uint64_t&, const std::string&);
template OptionSpec CommandLine::option(const std::string&, double&, const std::string&);
template OptionSpec CommandLine::option(const std::string&, std::vector<std::string>&, const std::string&);
template OptionSpec CommandLine::option(const std::string&, std::optional<int>&, const std::string&);
template OptionSpec CommandLine::option(const std::string&, std::optional<uint64_t>&, const std::string&);

OptionSpec CommandLine::flag(const std::string& name, bool& target, const std::string& description) {
  return OptionSpec(m_app->add_flag(name, target, description));
}

void CommandLine::footer(const std::string& text) { m_app->footer(text); }

void CommandLine::require_subcommand(int at_least, int at_most) { m_app->require_subcommand(at_least, at_most); }

void CommandLine::allow_extras() { m_app->allow_extras(); }

bool CommandLine::parsed() const { return m_app->parsed(); }

size_t CommandLine::count(const std::string& option) const { return m_app->count(option); }

std::vector<std::string> CommandLine::remaining() const { return m_app->remaining(); }

int run_program(int argc, char** argv, const ProgramText& text, std::span<const Command> commands,
                const std::function<int()>& no_command) {
  CLI::App app(text.description, text.name);
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", text.version);
  app.footer(text.footer);
  CommandLine program(&app);
  std::vector<std::pair<CLI::App*, std::function<int()>>> handlers;
  for (const Command& command : commands) {
    auto run = command.setup(program);
    handlers.emplace_back(app.get_subcommand(command.name), std::move(run));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : k_exit_usage;
  }
  for (auto& [subcommand, run] : handlers) {
    if (subcommand->parsed()) return run();
  }
  return no_command();
}

}  // namespace tilecamp::runner
