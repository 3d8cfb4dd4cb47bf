// Each `tilecamp` subcommand registers its options on the CLI and returns the exit code when run.
// main.cpp holds the table of them, so it stays a dispatcher.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace tilecamp::runner {

// Adds the subcommand to `app`; the returned function runs it after parsing.
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

struct Command {
  const char* name;
  CommandSetup setup;
};

std::function<int()> setup_profile_command(CLI::App& app);
std::function<int()> setup_check_command(CLI::App& app);
std::function<int()> setup_check_all_command(CLI::App& app);
std::function<int()> setup_grade_command(CLI::App& app);
std::function<int()> setup_list_command(CLI::App& app);
std::function<int()> setup_init_command(CLI::App& app);
std::function<int()> setup_completion_command(CLI::App& app);
std::function<int()> setup_dev_command(CLI::App& app);
std::function<int()> setup_lesson_command(CLI::App& app);
std::function<int()> setup_watch_command(CLI::App& app);
std::function<int()> setup_hint_command(CLI::App& app);
std::function<int()> setup_reset_command(CLI::App& app);
std::function<int()> setup_solution_command(CLI::App& app);
std::function<int()> setup_next_command(CLI::App& app);
std::function<int()> setup_explain_command(CLI::App& app);
std::function<int()> setup_viz_command(CLI::App& app);
int run_course_overview();  // no command given: the welcome, the lesson, the watch screen

}  // namespace tilecamp::runner
