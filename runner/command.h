// Each `tilecamp` subcommand registers its options on the CLI and returns the exit code when run.
// main.cpp holds the table of them, so it stays a dispatcher.
#pragma once

#include <functional>
#include <span>
#include <string>

#include "runner/cli.h"

namespace tilecamp::runner {

// Adds the subcommand to `app`; the returned function runs it after parsing.
using CommandSetup = std::function<std::function<int()>(CommandLine& app)>;

struct Command {
  const char* name;
  CommandSetup setup;
};

std::function<int()> setup_profile_command(CommandLine& app);
std::function<int()> setup_check_command(CommandLine& app);
std::function<int()> setup_check_all_command(CommandLine& app);
std::function<int()> setup_grade_command(CommandLine& app);
std::function<int()> setup_autograder_command(CommandLine& app);
std::function<int()> setup_classroom_command(CommandLine& app);
std::function<int()> setup_list_command(CommandLine& app);
std::function<int()> setup_init_command(CommandLine& app);
std::function<int()> setup_completion_command(CommandLine& app);
std::function<int()> setup_dev_command(CommandLine& app);
std::function<int()> setup_lesson_command(CommandLine& app);
std::function<int()> setup_watch_command(CommandLine& app);
std::function<int()> setup_hint_command(CommandLine& app);
std::function<int()> setup_reset_command(CommandLine& app);
std::function<int()> setup_solution_command(CommandLine& app);
std::function<int()> setup_next_command(CommandLine& app);
std::function<int()> setup_explain_command(CommandLine& app);
std::function<int()> setup_viz_command(CommandLine& app);
int run_course_overview();  // no command given: the welcome, the lesson, the watch screen

struct ProgramText {
  std::string description, name, version, footer;
};

// Describes the commands, parses argv, and runs the command given, or `no_command` when none is.
// --help and --version print and return 0; a usage error prints why and returns k_exit_usage.
int run_program(int argc, char** argv, const ProgramText& text, std::span<const Command> commands,
                const std::function<int()>& no_command);

}  // namespace tilecamp::runner
