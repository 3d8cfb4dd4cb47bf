// tilecamp completion bash|zsh: a shell completion script for the commands, their options, the
// course's exercise ids and lesson numbers (read from `tilecamp list --json` as the shell asks,
// so a course folder of one's own completes its own exercises).
#include <iostream>

#include "runner/command.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

constexpr const char* k_bash_script = R"SH(# tilecamp completion for bash: eval "$(tilecamp completion bash)"
_tilecamp_complete() {
  local current=${COMP_WORDS[COMP_CWORD]} command=${COMP_WORDS[1]:-}
  local commands="autograder check check-all classroom dev explain grade hint init lesson list next profile reset solution viz watch completion"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$current"))
    return
  fi
  case "$command" in
    check|watch|hint|solution|reset|explain)
      if [[ "$current" == -* ]]; then
        COMPREPLY=($(compgen -W "$(tilecamp "$command" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$current"))
      else
        COMPREPLY=($(compgen -W "$(tilecamp list --json 2>/dev/null | grep -o '"id": "[^"]*"' | cut -d'"' -f4)" -- "$current"))
      fi ;;
    lesson)
      COMPREPLY=($(compgen -W "$(tilecamp list --json 2>/dev/null | grep -o '"lesson": [0-9]*' | cut -d' ' -f2 | sort -un)" -- "$current")) ;;
    completion)
      COMPREPLY=($(compgen -W "bash zsh" -- "$current")) ;;
    init|profile|grade)
      COMPREPLY=($(compgen -f -- "$current")) ;;
    *)
      COMPREPLY=($(compgen -W "$(tilecamp "$command" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$current")) ;;
  esac
}
complete -o default -F _tilecamp_complete tilecamp
)SH";

int run_completion(const std::string& shell) {
  if (shell == "bash") {
    std::cout << k_bash_script;
    return k_exit_ok;
  }
  if (shell == "zsh") {  // zsh runs bash's completion functions through bashcompinit
    std::cout << "# tilecamp completion for zsh: eval \"$(tilecamp completion zsh)\"\n"
                 "autoload -U +X compinit && compinit\n"
                 "autoload -U +X bashcompinit && bashcompinit\n"
              << k_bash_script;
    return k_exit_ok;
  }
  std::cerr << style_for(stderr).red("error") << ": no completion for `" << shell << "`: bash or zsh\n";
  return k_exit_usage;
}

}  // namespace

std::function<int()> setup_completion_command(CommandLine& app) {
  auto shell = std::make_shared<std::string>();
  CommandLine command = app.subcommand("completion", "Print a shell completion script (bash or zsh)");
  command.footer(
      "Examples:\n"
      "  eval \"$(tilecamp completion bash)\"   # in ~/.bashrc: commands, options, exercise ids, lessons\n"
      "  eval \"$(tilecamp completion zsh)\"    # in ~/.zshrc");
  command.option("shell", *shell, "bash or zsh").required();
  return [shell] { return run_completion(*shell); };
}

}  // namespace tilecamp::runner
