// The tilecamp program run by a test as a person runs it: on the course of this source tree
// (TILECAMP_ROOT), without colour, its output in files of a scratch folder.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/test_runner_support.h"
#include "tests/test_support.h"

extern char** environ;

namespace tilecamp::test {

struct RunResult {
  int exit = -1;
  std::string out, err;
};

class TilecampProcess {
 public:
  TilecampProcess(const ScratchFolder& folder, std::vector<std::string> arguments, const std::string& name)
      : m_out(folder.path() / (name + ".out")), m_err(folder.path() / (name + ".err")) {
    arguments.insert(arguments.begin(), TILECAMP_BINARY);
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    std::vector<std::string> environment = {std::string("TILECAMP_ROOT=") + TILECAMP_SOURCE_DIR, "NO_COLOR=1"};
    for (char** variable = environ; *variable != nullptr; ++variable) {
      const std::string entry = *variable;
      if (!entry.starts_with("TILECAMP_ROOT=") && !entry.starts_with("NO_COLOR=")) environment.push_back(entry);
    }
    std::vector<char*> envp;
    for (std::string& entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, m_out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, m_err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(posix_spawn(&m_pid, argv[0], &actions, nullptr, argv.data(), envp.data()) == 0);
    posix_spawn_file_actions_destroy(&actions);
  }

  RunResult wait() {
    int status = 0;
    waitpid(m_pid, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_text(m_out), read_text(m_err)};
  }

  void kill_now() { ::kill(m_pid, SIGKILL); }

 private:
  std::filesystem::path m_out, m_err;
  pid_t m_pid = -1;
};

}  // namespace tilecamp::test
