#include "runner/classroom/roster_jobs.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "checker/emu/emulator.h"
#include "checker/report/verdict_record.h"
#include "runner/grading.h"
#include "runner/classroom/roster.h"
#include "runner/classroom/roster_hidden.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace fs = std::filesystem;
namespace {

constexpr auto k_poll_interval = std::chrono::milliseconds(10);
constexpr size_t k_log_tail_bytes = 2000;

// A verdict for a submission that broke one of the grading limits: a failed safety check, with a
// diagnostic of that kind so the reports can count it.
grade::Verdict limit_verdict(const std::string& exercise, const std::string& kind, const std::string& message) {
  grade::Verdict verdict;
  verdict.exercise = exercise;
  verdict.file = submission_shown_path(exercise);
  verdict.status = grade::VerdictStatus::Fail;
  verdict.checks.push_back({"stays within the grading limits", grade::CheckKind::Safety, grade::CheckStatus::Fail,
                            message, "", {}, {}, false});
  verdict.diagnostics.push_back({Severity::Error, kind, verdict.file, 0, message});
  return verdict;
}

std::string exit_description(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("signal {} ({})", WTERMSIG(status), sigdescr_np(WTERMSIG(status)));
  return "status " + std::to_string(status);
}

std::string log_tail(const fs::path& log) {
  std::string text, ignored;
  if (!read_file(log, text, ignored) || text.empty()) return "";
  return "; its last output:\n" + text.substr(text.size() > k_log_tail_bytes ? text.size() - k_log_tail_bytes : 0);
}

// The grading process's own deadline beyond the sandbox's: the sandbox's finding comes first.
constexpr int k_job_margin_seconds = 30;

nlohmann::json job_json(const GradeJob& job, const JobLimits& limits) {
  return {{"course", job.course_root.string()}, {"exercise", job.exercise}, {"kernel", job.kernel.string()},
          {"seed", job.seed},                   {"backend", job.backend},   {"gpu", job.gpu},
          {"hidden", job.hidden.string()},      {"seconds", limits.seconds}, {"memory_mib", limits.memory_mib},
          {"no_sandbox", limits.no_sandbox}, {"emulator_threads", limits.emulator_threads}};
}

// The child, between fork and exec: its own process group (so that a GPU worker it starts is
// killed with it), death with the parent, the limits, the log as its output. Only
// async-signal-safe calls.
[[noreturn]] void exec_child(const std::vector<char*>& argv, const char* log, const char* empty_dir, const JobLimits& limits,
                             bool limit_memory, pid_t parent) {
  ::setpgid(0, 0);
  // An empty working folder: a relative #include in a student's kernel finds nothing there.
  if (::chdir(empty_dir) != 0) ::_exit(127);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  const rlim_t seconds = static_cast<rlim_t>(limits.seconds + k_job_margin_seconds) * std::max(1u, limits.emulator_threads);
  const rlimit cpu{seconds + 1, seconds + 5};
  ::setrlimit(RLIMIT_CPU, &cpu);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (limit_memory) {
    const rlim_t bytes = static_cast<rlim_t>(limits.memory_mib) << 20;
    const rlimit data{bytes, bytes};
    ::setrlimit(RLIMIT_DATA, &data);
  }
  const int null_in = ::open("/dev/null", O_RDONLY);
  if (null_in >= 0) ::dup2(null_in, 0);
  const int out = ::open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (out >= 0) {
    ::dup2(out, 1);
    ::dup2(out, 2);
  }
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

// How a grading process ended.
struct ChildEnd {
  int status = 0;
  bool timed_out = false;     // tilecamp killed it at the deadline
  double cpu_seconds = 0;     // the CPU time it used
};

// Waits for the child until the deadline, then kills its whole process group.
ChildEnd wait_with_deadline(pid_t pid, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  ChildEnd end;
  rusage usage{};
  while (::wait4(pid, &end.status, WNOHANG, &usage) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      end.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      ::wait4(pid, &end.status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(k_poll_interval);
  }
  ::kill(-pid, SIGKILL);  // whatever it started (a GPU worker) goes with it
  end.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  return end;
}

grade::Verdict grade_in_this_process(const GradeJob& job, const JobLimits& limits) {
  const std::string shown = submission_shown_path(job.exercise);
  auto course = grade::load_course(job.course_root);
  if (!course) return error_verdict(job.exercise, shown, course.error());
  auto exercise = grade::find_exercise(job.course_root, job.exercise);
  if (!exercise) return error_verdict(job.exercise, shown, exercise.error());
  if (!job.hidden.empty()) {
    auto hidden = load_hidden_tests(job.hidden, *course);
    if (!hidden) return error_verdict(job.exercise, shown, hidden.error());
    apply_hidden_tests(*exercise, *hidden);
  }
  GradeSettings settings;
  settings.seed = job.seed;
  settings.backend = job.backend;
  settings.gpu = job.gpu;
  settings.sandbox = {static_cast<double>(limits.seconds), static_cast<uint64_t>(limits.memory_mib), limits.no_sandbox};
  settings.require_sandbox = true;
  settings.for_student = true;
  grade::Verdict verdict = grade_file(*exercise, job.kernel, shown, settings);
  // A class's records and reports are the same whichever run graded it: a resumed run reads what
  // an earlier one kept in the PTX cache.
  verdict.ptx_cache.reset();
  return verdict;
}

// A kernel.cu that is a symbolic link, or reached through one that leads out of the student's
// folder, could be any file of the grader's machine: not read, a compile failure saying why.
grade::Verdict symbolic_link_verdict(const std::string& exercise, const std::string& why) {
  const std::string shown = submission_shown_path(exercise);
  grade::Verdict verdict = error_verdict(exercise, shown, "");
  verdict.status = grade::VerdictStatus::Fail;
  verdict.checks.push_back({"compiles", grade::CheckKind::Compile, grade::CheckStatus::Fail, shown + ": " + why, "", {},
                            {}, false});
  return verdict;
}

struct ChildFiles {
  fs::path job;        // what to grade, read by the child
  fs::path verdict;    // the child's verdict record
  fs::path log;        // its output
  fs::path empty_dir;  // its working folder
};

// Starts `tilecamp __grade-one JOB VERDICT` under the limits.
Expected<pid_t> start_child(const ChildFiles& files, const JobLimits& limits, bool limit_memory) {
  char self[4096];
  const ssize_t length = ::readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) return make_error("cannot find the tilecamp program (/proc/self/exe)");
  self[length] = '\0';
  std::vector<std::string> arguments = {self, k_grade_one_argument, files.job.string(), files.verdict.string()};
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return make_error(std::string("cannot start a grading process: ") + std::strerror(errno));
  if (pid == 0) exec_child(argv, files.log.c_str(), files.empty_dir.c_str(), limits, limit_memory, parent);
  return pid;
}

// The verdict a finished grading process leaves: its record, or what stopped it.
grade::Verdict verdict_after(const std::string& exercise, const JobLimits& limits, const ChildEnd& end,
                             const ChildFiles& files) {
  const std::string shown = submission_shown_path(exercise);
  const int status = end.status;
  // RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL at the hard one. Any other SIGKILL came from
  // outside tilecamp (the out-of-memory killer, an administrator): not the student's doing.
  const int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  const bool cpu_limit =
      signal == SIGXCPU ||
      (signal == SIGKILL &&
       end.cpu_seconds >= (limits.seconds + k_job_margin_seconds) * std::max(1u, limits.emulator_threads) + 1);
  if (end.timed_out || cpu_limit) {
    return limit_verdict(exercise, "time-limit",
                         fmt::format("grading it took longer than {} s and was stopped: a kernel that runs far too long?",
                                     limits.seconds + k_job_margin_seconds));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string outside = signal == SIGKILL ? " (not sent by tilecamp: the system's out-of-memory killer?)" : "";
    return error_verdict(exercise, shown,
                         "the grading process ended with " + exit_description(status) + outside + log_tail(files.log));
  }
  std::string text, why;
  const nlohmann::json json = read_file(files.verdict, text, why) ? nlohmann::json::parse(text, nullptr, false) : nlohmann::json();
  auto record = report::read_verdict_record(json);
  return record ? std::move(*record) : error_verdict(exercise, shown, "the grading process wrote no verdict: " + record.error());
}

}  // namespace

grade::Verdict run_grade_job(const GradeJob& job, const JobLimits& limits, const fs::path& work_file) {
  const std::string shown = submission_shown_path(job.exercise);
  std::error_code error;
  if (fs::is_symlink(job.kernel, error)) return symbolic_link_verdict(job.exercise, "a symbolic link; submit the file itself");
  if (!job.student_folder.empty() && !lies_inside(job.kernel, job.student_folder)) {
    return symbolic_link_verdict(job.exercise,
                                 "lies outside your folder (a folder on its path is a symbolic link); submit the folders "
                                 "and the file themselves");
  }
  const ChildFiles files{work_file.string() + ".job", work_file, work_file.string() + ".log", work_file.parent_path() / "empty"};
  fs::create_directories(files.empty_dir, error);
  fs::remove(work_file, error);
  std::string job_text;
  try {
    job_text = job_json(job, limits).dump();
  } catch (const nlohmann::json::exception&) {  // a path that is not UTF-8: never the end of the run
    return error_verdict(job.exercise, shown, "a path of this job is not valid UTF-8: " + escaped_bytes(job.kernel.string()));
  }
  if (auto written = write_file_atomically(files.job, job_text); !written) {
    return error_verdict(job.exercise, shown, written.error());
  }
  auto pid = start_child(files, limits, job.backend == "emulator");
  if (!pid) return error_verdict(job.exercise, shown, pid.error());
  const ChildEnd end = wait_with_deadline(*pid, limits.seconds + k_job_margin_seconds);
  grade::Verdict verdict = verdict_after(job.exercise, limits, end, files);
  for (const fs::path& file : {files.job, files.verdict, files.log}) fs::remove(file, error);
  return verdict;
}

int run_grade_one(int argc, char** argv) {
  if (argc != 4) return k_exit_usage;
  std::string text, why;
  if (!read_file(argv[2], text, why)) return k_exit_usage;
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) return k_exit_usage;
  GradeJob job;
  job.course_root = json.value("course", "");
  job.exercise = json.value("exercise", "");
  job.kernel = json.value("kernel", "");
  job.seed = json.value("seed", uint64_t{0});
  job.backend = json.value("backend", "emulator");
  job.gpu = json.value("gpu", "h200");
  job.hidden = json.value("hidden", "");
  JobLimits limits;
  limits.seconds = json.value("seconds", limits.seconds);
  limits.memory_mib = json.value("memory_mib", limits.memory_mib);
  limits.no_sandbox = json.value("no_sandbox", false);
  limits.emulator_threads = std::max(1u, json.value("emulator_threads", 1u));
  emu::set_default_host_threads(limits.emulator_threads);
  grade::Verdict verdict;
  try {
    verdict = grade_in_this_process(job, limits);
  } catch (const std::bad_alloc&) {
    verdict = limit_verdict(job.exercise, "memory-limit", "grading it needed more memory than the limit allows");
  }
  std::ofstream out(argv[3], std::ios::binary | std::ios::trunc);
  out << report::verdict_record(verdict).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  out.flush();
  return out ? k_exit_ok : k_exit_usage;
}

}  // namespace tilecamp::runner
