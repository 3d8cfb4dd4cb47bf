// tilecamp autograder --out DIR [--exercises ID,...] [--hidden FILE] [--seed N] [--binary FILE]
// A Gradescope autograder, ready to zip and upload: setup.sh (run once when Gradescope builds the
// image), run_autograder (run for each submission: `tilecamp grade` of a roster of one, whose
// student's results.json is Gradescope's), the course's exercises, the hidden tests, the seed, and
// the tilecamp program. Gradescope unpacks the zip into /autograder/source; the scripts take the
// root from TILECAMP_AUTOGRADER_ROOT (default /autograder), so a test can run them anywhere.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>

#include "checker/grade/exercise.h"
#include "runner/classroom/bundle.h"
#include "runner/classroom/roster.h"
#include "runner/classroom/roster_hidden.h"
#include "runner/command.h"
#include "runner/grading.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace fs = std::filesystem;
namespace {

struct AutograderOptions {
  std::string out;
  std::vector<std::string> exercises;
  std::string hidden;
  std::optional<uint64_t> seed;
  std::string binary;
  std::string backend = "emulator";
  bool no_sandbox = false;
};

// Run once, as root, while Gradescope builds the autograder's image (Ubuntu 22.04 by default).
constexpr const char* k_setup_sh = R"SH(#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu 22.04 or 24.04):
# it installs what bin/tilecamp needs: NVRTC and the CUDA headers (from NVIDIA's package
# repository; no GPU is needed), libseccomp and cmark. Written by `tilecamp autograder`.
set -euo pipefail
root=${TILECAMP_AUTOGRADER_ROOT:-/autograder}
source_dir=$root/source
. "$source_dir/autograder.conf"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
cmark=$(apt-cache search --names-only '^libcmark0' | sed -n '1s/ .*//p')  # libcmark0.30.2 on 22.04 and 24.04
apt-get install -y -q --no-install-recommends ca-certificates wget libseccomp2 ${cmark:+"$cmark"}
if ! ldconfig -p | grep -q "libnvrtc.so.$CUDA_MAJOR" && [ ! -e "/usr/local/cuda/lib64/libnvrtc.so.$CUDA_MAJOR" ]; then
  . /etc/os-release
  repo="${ID}${VERSION_ID//./}"
  wget -q -O /tmp/cuda-keyring.deb "https://developer.download.nvidia.com/compute/cuda/repos/$repo/x86_64/cuda-keyring_1.1-1_all.deb"
  dpkg -i /tmp/cuda-keyring.deb
  apt-get update -q
  # The newest CUDA $CUDA_MAJOR.x: NVRTC (it compiles the kernels) and the headers they include.
  version=$(apt-cache search --names-only "^cuda-nvrtc-$CUDA_MAJOR-[0-9]+\$" | sed -n "s/^cuda-nvrtc-\($CUDA_MAJOR-[0-9]*\) .*/\1/p" | sort -t- -k2 -n | tail -n 1)
  [ -n "$version" ] || { echo "setup.sh: NVIDIA's repository for $repo has no CUDA $CUDA_MAJOR" >&2; exit 1; }
  apt-get install -y -q --no-install-recommends "cuda-nvrtc-$version" "cuda-nvrtc-dev-$version" "cuda-cudart-dev-$version" "cuda-cccl-$version"
fi
chmod +x "$source_dir/bin/tilecamp" "$source_dir/run_autograder"
# It must run here: a binary built on a newer system than this image fails now, not per submission.
LD_LIBRARY_PATH=/usr/local/cuda/lib64 "$source_dir/bin/tilecamp" --version
)SH";

// Run for every submission, in a fresh container, as /autograder/run_autograder.
constexpr const char* k_run_autograder = R"SH(#!/usr/bin/env bash
# Gradescope runs this for each submission: it grades /autograder/submission with the course,
# hidden tests and seed in /autograder/source, and writes /autograder/results/results.json (the
# student's view: hidden cases unshown, no seed). TILECAMP_AUTOGRADER_ROOT replaces /autograder
# (for a test); nothing is written outside that root. Written by `tilecamp autograder`.
#
# The submission is either a student's course folder (exercises/ID/kernel.cu: a GitHub upload or
# a zip of their folder) or the kernels uploaded as files named ID.cu (kernel.cu when one exercise
# is graded). Symbolic links are kept as links, and tilecamp grade refuses to read through them.
set -uo pipefail
root=${TILECAMP_AUTOGRADER_ROOT:-/autograder}
source_dir=$root/source
. "$source_dir/autograder.conf"
results=$root/results
work=$root/work
mkdir -p "$results"
rm -rf "$work"
mkdir -p "$work/roster/student" "$work/tmp"
export TMPDIR=$work/tmp HOME=$work TILECAMP_CACHE_DIR=off TILECAMP_ROOT=$source_dir/course NO_COLOR=1
if [ -d /usr/local/cuda/lib64 ]; then export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; fi
if [ -z "${TILECAMP_CUDA_INCLUDE:-}" ] && [ -d /usr/local/cuda/include ]; then export TILECAMP_CUDA_INCLUDE=/usr/local/cuda/include; fi

# What the student sees when tilecamp itself cannot grade: nothing of why (that goes to the
# autograder's output, which only instructors see).
could_not_grade() {
  echo "run_autograder: $*" >&2
  printf '%s\n' '{"score": 0, "output": "The autograder could not grade this submission; your instructor has the details.", "visibility": "visible", "tests": []}' >"$results/results.json"
  exit 0
}

student=$work/roster/student
if [ -d "$root/submission" ]; then
  cp -a --no-preserve=ownership "$root/submission/." "$student/" || could_not_grade "cannot copy the submission"
fi
if [ ! -e "$student/exercises" ] && [ ! -L "$student/exercises" ]; then
  IFS=, read -r -a ids <<<"$EXERCISES"
  for id in "${ids[@]}"; do
    file=""
    if [ -e "$student/$id.cu" ] || [ -L "$student/$id.cu" ]; then
      file=$id.cu
    elif [ "${#ids[@]}" = 1 ] && { [ -e "$student/kernel.cu" ] || [ -L "$student/kernel.cu" ]; }; then
      file=kernel.cu
    fi
    if [ -n "$file" ]; then
      mkdir -p "$student/exercises/$id"
      mv "$student/$file" "$student/exercises/$id/kernel.cu"  # a link moves as a link
    fi
  done
fi

options=(--out "$work/reports" --seed "$SEED" --exercises "$EXERCISES" --backend "$BACKEND" --jobs "$(nproc)")
if [ "$HIDDEN" = 1 ]; then options+=(--hidden "$source_dir/hidden.toml"); fi
if [ "$NO_SANDBOX" = 1 ]; then options+=(--no-sandbox); fi
"$source_dir/bin/tilecamp" grade "$work/roster" "${options[@]}" >"$work/grade.log" 2>&1
status=$?
report=$work/reports/students/student/results.json
if [ "$status" -gt 1 ] || [ ! -f "$report" ]; then
  could_not_grade "tilecamp grade exited with $status: $(tail -n 20 "$work/grade.log")"
fi
cp "$report" "$results/results.json"
)SH";

Status write_text(const fs::path& path, const std::string& text, fs::perms perms) {
  TC_TRY(write_file_atomically(path, text));
  std::error_code error;
  fs::permissions(path, perms, error);
  if (error) return make_error("cannot set the permissions of " + path.string() + ": " + error.message());
  return ok();
}

// Copies `from` into `to` (created), files and folders only: a symbolic link in the course is not
// followed out of it into the autograder.
Status copy_tree(const fs::path& from, const fs::path& to) {
  std::error_code error;
  fs::create_directories(to, error);
  if (error) return make_error("cannot create " + to.string() + ": " + error.message());
  for (fs::recursive_directory_iterator it(from, error), end; !error && it != end; it.increment(error)) {
    const fs::path target = to / fs::relative(it->path(), from);
    std::error_code ignored;
    if (it->is_symlink(ignored)) continue;
    if (it->is_directory(ignored)) {
      fs::create_directories(target, error);
    } else if (it->is_regular_file(ignored)) {
      fs::copy_file(it->path(), target, fs::copy_options::overwrite_existing, error);
    }
    if (error) return make_error("cannot copy " + it->path().string() + " to " + target.string() + ": " + error.message());
  }
  if (error) return make_error("cannot copy " + from.string() + ": " + error.message());
  return ok();
}

bool find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    if (end > start && ::access((dirs.substr(start, end - start) + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// Runs `zip -qr ../NAME.zip .` in `folder`, when zip is installed. Returns the zip's path, or "".
std::string make_zip(const fs::path& folder) {
  if (!find_on_path("zip")) return "";
  const fs::path zip = folder.string() + ".zip";
  std::error_code ignored;
  fs::remove(zip, ignored);
  const pid_t pid = ::fork();
  if (pid < 0) return "";
  if (pid == 0) {
    if (::chdir(folder.c_str()) != 0) ::_exit(127);
    const int null_out = ::open("/dev/null", O_WRONLY);
    if (null_out >= 0) ::dup2(null_out, 1);
    ::execlp("zip", "zip", "-qr", zip.c_str(), ".", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? zip.string() : "";
}

int run_autograder_command(const AutograderOptions& options) {
  auto chosen_course = load_chosen_course(options.exercises);
  if (!chosen_course) return fail_with(chosen_course.error());
  const grade::Course& course = chosen_course->course;
  std::vector<std::string> ids;
  for (const grade::CourseEntry& entry : chosen_course->exercises) ids.push_back(entry.id);
  if (!options.hidden.empty()) {
    if (auto hidden = load_hidden_tests(options.hidden, course); !hidden) return fail_with(hidden.error());
  }
  const fs::path out = options.out;
  std::error_code error;
  if (fs::exists(out, error) && !(fs::is_directory(out, error) && fs::is_empty(out, error))) {
    return fail_with(out.string() + " exists and is not an empty folder: give a new folder for the autograder");
  }
  std::string binary = options.binary;
  if (binary.empty()) {
    char self[4096];
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (length <= 0) return fail_with("cannot find the tilecamp program (/proc/self/exe); give --binary FILE");
    binary.assign(self, static_cast<size_t>(length));
  }
  if (!fs::is_regular_file(binary, error)) return fail_with("--binary " + binary + ": not a file");
  const uint64_t seed = options.seed ? *options.seed : fresh_secret_seed();

  const std::string conf = fmt::format(
      "# Read by setup.sh and run_autograder; written by tilecamp autograder. Keep it secret: the seed\n"
      "# decides the hidden draws.\n"
      "SEED={}\nEXERCISES={}\nBACKEND={}\nHIDDEN={}\nNO_SANDBOX={}\nCUDA_MAJOR={}\n",
      seed, fmt::join(ids, ","), options.backend, options.hidden.empty() ? 0 : 1, options.no_sandbox ? 1 : 0, linked_nvrtc_major());
  const fs::perms executable = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec;
  const fs::perms readable = fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read;
  Status made = copy_tree(course.root / "exercises", out / "course" / "exercises");
  if (made) made = write_text(out / "autograder.conf", conf, readable);
  if (made) made = write_text(out / "setup.sh", k_setup_sh, executable);
  if (made) made = write_text(out / "run_autograder", k_run_autograder, executable);
  if (made && !options.hidden.empty()) {
    fs::copy_file(options.hidden, out / "hidden.toml", fs::copy_options::overwrite_existing, error);
    if (error) made = make_error("cannot copy " + options.hidden + ": " + error.message());
  }
  if (made) {
    fs::create_directories(out / "bin", error);
    fs::copy_file(binary, out / "bin" / "tilecamp", fs::copy_options::overwrite_existing, error);
    if (!error) fs::permissions(out / "bin" / "tilecamp", executable, error);
    if (error) made = make_error("cannot copy " + binary + " to " + (out / "bin" / "tilecamp").string() + ": " + error.message());
  }
  if (!made) return fail_with(made.error());

  const std::string zip = make_zip(out);
  std::cout << fmt::format("A Gradescope autograder for {} in {}: setup.sh, run_autograder, course/, bin/tilecamp{}, "
                           "autograder.conf (seed {}).\n",
                           fmt::join(ids, ", "), out.string(), options.hidden.empty() ? "" : ", hidden.toml", seed);
  if (!zip.empty()) {
    std::cout << "Upload " << zip << " as the assignment's autograder (Configure Autograder > Zip file upload).\n";
  } else {
    std::cout << "zip is not installed: make the zip with\n  cd " << out.string()
              << " && zip -r ../autograder.zip .\nand upload it as the assignment's autograder.\n";
  }
  return k_exit_ok;
}

}  // namespace

Expected<ChosenCourse> load_chosen_course(const std::vector<std::string>& ids) {
  auto root = find_course_root();
  if (!root) return make_error(k_no_course);
  auto course = grade::load_course(fs::absolute(*root));
  if (!course) return make_error(course.error());
  auto chosen = chosen_exercises(*course, ids);
  if (!chosen) return make_error(chosen.error());
  return ChosenCourse{std::move(*course), std::move(*chosen)};
}

int fail_with(const std::string& message) {
  std::cerr << style_for(stderr).red("error") << ": " << message << "\n";
  return k_exit_usage;
}

Expected<std::vector<grade::CourseEntry>> chosen_exercises(const grade::Course& course, const std::vector<std::string>& ids) {
  std::vector<grade::CourseEntry> chosen;
  for (const grade::CourseEntry& entry : course.exercises) {
    if (ids.empty() || std::find(ids.begin(), ids.end(), entry.id) != ids.end()) chosen.push_back(entry);
  }
  for (const std::string& id : ids) {
    if (std::none_of(chosen.begin(), chosen.end(), [&](const grade::CourseEntry& e) { return e.id == id; })) {
      std::string known;
      for (const grade::CourseEntry& entry : course.exercises) known += "\n  " + entry.id;
      return make_error("--exercises: no exercise named `" + id + "`; the exercises are:" + known);
    }
  }
  return chosen;
}

int linked_nvrtc_major() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const size_t at = line.find("libnvrtc.so.");
    if (at == std::string::npos) continue;
    int major = 0;
    for (size_t i = at + 12; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i) major = major * 10 + (line[i] - '0');
    if (major > 0) return major;
  }
  return 13;
}

std::function<int()> setup_autograder_command(CommandLine& app) {
  auto options = std::make_shared<AutograderOptions>();
  CommandLine command = app.subcommand("autograder", "Write a Gradescope autograder for the course (instructors)");
  command.footer(
      "Examples:\n"
      "  tilecamp autograder --out autograder --hidden hidden.toml                  # every exercise\n"
      "  tilecamp autograder --out hw2 --exercises 02-transpose-tiled,02-stencil-1d --hidden hw2.toml\n\n"
      "Writes DIR/setup.sh (Gradescope runs it once to install NVRTC and what tilecamp needs), DIR/run_autograder\n"
      "(run for each submission: grades /autograder/submission with tilecamp grade and writes\n"
      "/autograder/results/results.json, hidden cases unshown), the course's exercises, the hidden tests, the seed\n"
      "and this tilecamp program (or --binary FILE: a portable build, -DTILECAMP_PORTABLE=ON), then DIR.zip when\n"
      "zip is installed. A submission is a student's course folder (exercises/ID/kernel.cu) or files named ID.cu.\n"
      "TILECAMP_AUTOGRADER_ROOT moves /autograder elsewhere (to try run_autograder locally).\n"
      "docs/instructors.md: \"Gradescope\".");
  command.option("--out", options->out, "the new folder for the autograder (DIR.zip is written beside it)").required();
  command.option("--exercises", options->exercises, "grade only these exercises (ID,ID,...; default: all)").delimiter(',');
  command.option("--hidden", options->hidden, "a TOML file of hidden cases and threshold overrides (as for grade)");
  command.option("--seed", options->seed, "seed for the hidden draws, the same for every submission (default: a fresh one)")
      .check(
          [](const std::string& text) {
            return text.starts_with("-") ? std::string("the seed is a non-negative integer (0 to 18446744073709551615)")
                                         : std::string();
          },
          "");
  command.option("--binary", options->binary, "the tilecamp program to bundle (default: this one)");
  command.option("--backend", options->backend, "where submissions run on Gradescope: emulator (default) or gpu")
      .one_of({"emulator", "gpu"});
  command.flag("--no-sandbox", options->no_sandbox,
               "grade without Landlock and seccomp where Gradescope's kernel lacks them: UNSAFE (docs/security.md)");
  return [options] { return run_autograder_command(*options); };
}

}  // namespace tilecamp::runner
