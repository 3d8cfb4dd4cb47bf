// tilecamp grade ROSTER_DIR --out REPORT_DIR [--hidden FILE] [--seed N] [--jobs N]
//                [--backend auto|emulator|gpu] [--exercises ID,...] [--force] [--shard K/N]
// tilecamp grade --merge SHARD_DIR... --out REPORT_DIR
// The instructor's grading of a whole class: every student's folder in the roster, each
// submission in a child process of its own, in parallel; each student's result kept as soon as it
// is known, so that a rerun resumes; then the class reports and a summary.
#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <thread>

#include "checker/report/class_report.h"
#include "checker/report/student_report.h"
#include "runner/backend_choice.h"
#include "runner/command.h"
#include "runner/grading.h"
#include "runner/classroom/bundle.h"
#include "runner/classroom/roster.h"
#include "runner/classroom/roster_hidden.h"
#include "checker/emu/emulator.h"
#include "runner/classroom/roster_jobs.h"
#include "runner/classroom/roster_shards.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace fs = std::filesystem;
namespace {

struct GradeCommandOptions {
  std::string roster;
  std::string out;
  std::string hidden;
  std::optional<uint64_t> seed;
  unsigned jobs = 0;
  std::string backend = "auto";
  std::string gpu = "h200";
  std::vector<std::string> exercises;
  bool force = false;
  JobLimits limits;
  std::string shard;                // --shard K/N as typed
  std::optional<ShardSpec> shard_spec;
  std::vector<std::string> merge;   // --merge: the shards' report folders
};

// Everything a run needs, checked before any student is graded.
struct GradePlan {
  grade::Course course;
  std::vector<grade::CourseEntry> exercises;  // the graded ones, in course order
  std::vector<std::string> titles;
  std::vector<Student> students;
  std::vector<std::string> not_graded;  // a warning per roster folder that cannot be graded
  size_t roster_size = 0;  // students in the whole roster (a shard grades some of them)
  uint64_t seed = 0;
  std::string backend;  // "emulator" or "gpu"
  std::string backend_note;
  std::string base_hash_input;  // settings_hash: what every student's hash starts from
};

Expected<std::vector<grade::CourseEntry>> selected_exercises(const grade::Course& course, const std::vector<std::string>& ids) {
  if (ids.empty()) return course.exercises;
  std::vector<grade::CourseEntry> selected;
  for (const grade::CourseEntry& entry : course.exercises) {
    if (std::find(ids.begin(), ids.end(), entry.id) != ids.end()) selected.push_back(entry);
  }
  for (const std::string& id : ids) {
    if (std::none_of(selected.begin(), selected.end(), [&](const grade::CourseEntry& e) { return e.id == id; })) {
      std::string known;
      for (const grade::CourseEntry& entry : course.exercises) known += "\n  " + entry.id;
      return make_error("--exercises: no exercise named `" + id + "`; the exercises are:" + known);
    }
  }
  return selected;
}

// What every student's result depends on besides their files: the course's metadata, the hidden
// tests, the seed, the backend and the limits.
std::string settings_hash(const GradePlan& plan, const GradeCommandOptions& options) {
  Fingerprint fingerprint;
  std::vector<std::string> ids;
  for (const grade::CourseEntry& entry : plan.exercises) ids.push_back(entry.id);
  add_course_metadata(fingerprint, plan.course, ids);
  fingerprint.add(options.hidden.empty() ? "no hidden tests" : "hidden tests");
  if (!options.hidden.empty()) fingerprint.add_file(options.hidden);
  fingerprint.add(fmt::format("seed {} backend {} gpu {} limits {} s {} MiB", plan.seed, plan.backend, options.gpu,
                              options.limits.seconds, options.limits.memory_mib));
  return fingerprint.hex();
}

Expected<GradePlan> make_plan(const GradeCommandOptions& options, const GradeState& state) {
  auto root = find_course_root();
  if (!root) return make_error(k_no_course);
  GradePlan plan;
  TC_TRY_ASSIGN(plan.course, grade::load_course(fs::absolute(*root)));
  TC_TRY_ASSIGN(plan.exercises, selected_exercises(plan.course, options.exercises));
  for (const grade::CourseEntry& entry : plan.exercises) {
    TC_TRY_ASSIGN(grade::Exercise exercise, grade::load_course_exercise(entry));
    plan.titles.push_back(exercise.title);
  }
  if (!options.hidden.empty()) TC_TRY(load_hidden_tests(options.hidden, plan.course));
  TC_TRY_ASSIGN(Roster roster, list_students(options.roster, options.out));
  plan.students = std::move(roster.students);
  plan.not_graded = std::move(roster.not_graded);
  plan.roster_size = plan.students.size();
  if (plan.students.empty()) {
    std::string why;
    for (const std::string& warning : plan.not_graded) why += "\n  " + warning;
    return make_error("the roster " + options.roster + " holds no student folders" + why);
  }
  if (options.shard_spec) {  // this shard's students alone (none is an empty shard, not an error)
    std::erase_if(plan.students, [&](const Student& student) {
      return shard_of(student.id, options.shard_spec->count) != options.shard_spec->index;
    });
  }
  // Students' kernels are untrusted: without the sandbox, only --no-sandbox goes on.
  TC_TRY_ASSIGN(auto sandbox, open_sandbox({1, 256, options.limits.no_sandbox}, true));
  TC_TRY_ASSIGN(BackendChoice backend, choose_backend(options.backend, *sandbox));
  plan.backend = backend.backend->name();
  plan.backend_note = backend.note;
  const std::optional<uint64_t> saved = state.saved_seed();
  plan.seed = options.seed ? *options.seed : saved ? *saved : fresh_secret_seed();
  plan.base_hash_input = settings_hash(plan, options);
  return plan;
}

std::string student_hash(const GradePlan& plan, const Student& student) {
  Fingerprint fingerprint;
  fingerprint.add(plan.base_hash_input);
  for (const grade::CourseEntry& entry : plan.exercises) fingerprint.add(entry.id).add_file(submission_path(student, entry.id));
  return fingerprint.hex();
}

bool submitted(const Student& student, const std::string& exercise) {
  std::error_code ignored;
  return fs::exists(fs::symlink_status(submission_path(student, exercise), ignored));
}

// What a student receives, next to the instructor's reports: students/ID/{results.json,feedback.txt}.
Status write_student_reports(const fs::path& out, const report::StudentResult& result) {
  const fs::path folder = out / "students" / result.student;
  TC_TRY(write_file_atomically(folder / "results.json",
                               report::gradescope_results(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"));
  return write_file_atomically(folder / "feedback.txt", report::feedback_text(result));
}

// "[ 3/6] alice  20/24 points  02-transpose-tiled: wrong results"
std::string student_line(const report::StudentResult& result) {
  const report::StudentScore score = report::score_student(result);
  std::string line = fmt::format("{}  {}/{} points", result.student, score.points, score.max_points);
  std::string lost;
  for (const report::ExerciseResult& exercise : result.exercises) {
    const report::ExerciseScore exercise_score = report::score_exercise(exercise);
    if (!exercise_score.reason.empty()) lost += fmt::format("{}{}: {}", lost.empty() ? "" : ", ", exercise.exercise, exercise_score.reason);
  }
  return lost.empty() ? line : line + "  " + lost;
}

// Every student's result slot: kept from the last run when nothing it depends on changed, else
// empty and listed to be graded.
struct Roll {
  std::vector<report::StudentResult> results;
  std::vector<std::string> hashes;
  std::vector<size_t> to_grade;
};

// Grades the students whose results are not kept, in parallel, showing how far it got.
class RosterRun {
 public:
  RosterRun(const GradePlan& plan, const GradeCommandOptions& options, const GradeState& state, Roll& roll)
      : m_plan(plan), m_options(options), m_state(state), m_roll(roll), m_live(isatty(fileno(stderr))) {}

  // Fills the roll's results of the students to grade.
  void run() {
    m_remaining.assign(m_roll.results.size(), 0);
    std::vector<bool> kept(m_roll.results.size(), true);
    for (size_t s : m_roll.to_grade) kept[s] = false;
    for (size_t s = 0; s < kept.size(); ++s) {
      if (kept[s]) count_done(m_roll.results[s]);
    }
    for (size_t s : m_roll.to_grade) {
      for (size_t e = 0; e < m_plan.exercises.size(); ++e) {
        if (!submitted(m_plan.students[s], m_plan.exercises[e].id)) continue;
        m_jobs.push_back({s, e});
        ++m_remaining[s];
      }
      if (m_remaining[s] == 0) finish_student(s);  // nothing submitted: nothing to run
    }
    const unsigned jobs = std::max(1u, std::min<unsigned>(job_count(), static_cast<unsigned>(std::max<size_t>(m_jobs.size(), 1))));
    std::vector<std::thread> workers;
    // The jobs share the cores: each job's emulator gets its part of them.
    m_limits.emulator_threads = std::max(1u, emu::default_host_threads() / jobs);
    for (unsigned j = 1; j < jobs; ++j) workers.emplace_back([this] { work(); });
    work();
    for (std::thread& worker : workers) worker.join();
    if (m_live) std::cerr << "\r\033[K";
  }

  int could_not_save() const { return m_save_failures; }

 private:
  struct Job {
    size_t student, exercise;
  };

  unsigned job_count() const {
    if (m_plan.backend == "gpu") return 1;  // kernels timed side by side would disturb each other
    return m_options.jobs ? m_options.jobs : std::max(1u, std::thread::hardware_concurrency());
  }

  void work() {
    for (size_t i = m_next++; i < m_jobs.size(); i = m_next++) {
      const Job job = m_jobs[i];
      const Student& student = m_plan.students[job.student];
      const std::string& id = m_plan.exercises[job.exercise].id;
      GradeJob grade_job{m_plan.course.root, id, submission_path(student, id), student.folder, m_plan.seed, m_plan.backend,
                         m_options.gpu, m_options.hidden.empty() ? fs::path() : fs::absolute(m_options.hidden)};
      grade::Verdict verdict =
          run_grade_job(grade_job, m_limits, m_state.work_dir() / GradeState::work_file_name(student.id, id));
      bool last = false;
      {
        std::lock_guard lock(m_mutex);
        m_roll.results[job.student].exercises[job.exercise].verdict = std::move(verdict);
        last = --m_remaining[job.student] == 0;
      }
      if (last) finish_student(job.student);
    }
  }

  void finish_student(size_t s) {
    const report::StudentResult& result = m_roll.results[s];
    auto saved = m_state.save(result, m_roll.hashes[s]);
    if (saved) saved = write_student_reports(m_options.out, result);
    std::lock_guard lock(m_mutex);
    count_done(result);
    if (!saved) {
      ++m_save_failures;
      std::cerr << style_for(stderr).red("error") << ": " << result.student << ": " << saved.error() << "\n";
    }
    const size_t total = m_roll.results.size();
    if (m_live) {
      std::cerr << fmt::format("\r\033[K  graded {}/{} students, {} of them lost points (last: {})", m_done, total,
                               m_with_losses, result.student)
                << std::flush;
    } else {
      std::cerr << fmt::format("  [{:>{}}/{}] ", m_done, std::to_string(total).size(), total) << student_line(result) << "\n";
    }
  }

  void count_done(const report::StudentResult& result) {
    ++m_done;
    const report::StudentScore score = report::score_student(result);
    m_with_losses += score.points < score.max_points;
  }

  const GradePlan& m_plan;
  const GradeCommandOptions& m_options;
  JobLimits m_limits = m_options.limits;
  const GradeState& m_state;
  Roll& m_roll;
  const bool m_live;
  std::vector<Job> m_jobs;
  std::vector<size_t> m_remaining;
  std::atomic<size_t> m_next{0};
  std::mutex m_mutex;
  size_t m_done = 0;
  size_t m_with_losses = 0;
  int m_save_failures = 0;
};

Roll call_the_roll(const GradePlan& plan, const GradeState& state, bool force) {
  Roll roll;
  for (size_t s = 0; s < plan.students.size(); ++s) {
    const Student& student = plan.students[s];
    roll.hashes.push_back(student_hash(plan, student));
    auto kept = force ? std::nullopt : state.load(student.id, roll.hashes.back());
    if (kept) {
      roll.results.push_back(std::move(*kept));
      continue;
    }
    report::StudentResult fresh{student.id, {}};
    for (size_t e = 0; e < plan.exercises.size(); ++e) fresh.exercises.push_back({plan.exercises[e].id, plan.titles[e], {}});
    roll.results.push_back(std::move(fresh));
    roll.to_grade.push_back(s);
  }
  return roll;
}

Status write_reports(const fs::path& out, const report::ClassResults& results) {
  for (const report::StudentResult& result : results.students) TC_TRY(write_student_reports(out, result));
  TC_TRY(write_file_atomically(out / "grades.csv", report::grades_csv(results)));
  TC_TRY(write_file_atomically(
      out / "grades.json", report::grades_json(results).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"));
  return write_file_atomically(out / "junit.xml", report::junit_xml(results));
}

bool some_not_graded(const report::ClassResults& results) {
  return std::any_of(results.students.begin(), results.students.end(), [](const report::StudentResult& student) {
    return std::any_of(student.exercises.begin(), student.exercises.end(), [](const report::ExerciseResult& exercise) {
      return report::score_exercise(exercise).status == report::OutcomeStatus::Error;
    });
  });
}

// Each shard needs a report folder of its own: two runs into one folder would sweep each other's
// work folders (remove_stale_temporaries sees another node's PID as ended).
Status check_shard_folder(const GradeCommandOptions& options) {
  if (!options.shard_spec) return ok();
  if (!options.seed) {
    return make_error("--shard " + options.shard + ": give every shard the same --seed (else each would draw its own, and "
                      "the merge refuses shards graded with different seeds)");
  }
  const std::optional<ShardSpec> before = shard_in_folder(options.out);
  if (before && (before->index != options.shard_spec->index || before->count != options.shard_spec->count)) {
    return make_error(fmt::format("--shard {}: {} holds shard {}/{}'s reports: give each shard a report folder of its own",
                                  options.shard, (fs::path(options.out) / k_shard_file).string(), before->index, before->count));
  }
  return ok();
}

int run_merge(const GradeCommandOptions& options);

int run_grade(const GradeCommandOptions& options) {
  if (!options.merge.empty()) return run_merge(options);
  if (options.roster.empty()) return fail_with("give the ROSTER_DIR to grade (or --merge SHARD_DIR... to merge shards)");
  if (auto checked = check_shard_folder(options); !checked) return fail_with(checked.error());
  const GradeState state(options.out);
  auto plan = make_plan(options, state);
  if (!plan) return fail_with(plan.error());
  if (auto saved = state.save_seed(plan->seed); !saved) return fail_with(saved.error());
  remove_stale_temporaries(options.out);  // a killed run's half-written files
  Roll roll = call_the_roll(*plan, state, options.force);
  if (!plan->backend_note.empty()) std::cerr << style_for(stderr).dim("note: " + plan->backend_note) << "\n";
  for (const std::string& warning : plan->not_graded) std::cerr << style_for(stderr).yellow("warning") << ": " << warning << "\n";
  const size_t kept = plan->students.size() - roll.to_grade.size();
  const std::string shard_text =
      options.shard_spec ? fmt::format("shard {} of the roster's {} students: ", options.shard, plan->roster_size) : "";
  std::cerr << fmt::format("{}grading {} students x {} exercises on the {}, seed {}", shard_text, plan->students.size(),
                           plan->exercises.size(), plan->backend, plan->seed)
            << (kept > 0 ? fmt::format("; {} unchanged since the last run kept (--force regrades them)", kept) : "") << "\n";
  RosterRun run(*plan, options, state, roll);
  run.run();
  std::error_code ignored;
  fs::remove_all(state.work_dir(), ignored);

  report::ClassResults results{plan->seed, plan->backend, {}, std::move(roll.results)};
  for (const grade::CourseEntry& entry : plan->exercises) results.exercises.push_back(entry.id);
  if (options.shard_spec) {
    // A shard's students' own reports, and shard.json for the merge; the class reports come from
    // the merge, never from one shard.
    for (const report::StudentResult& result : results.students) {
      if (auto written = write_student_reports(options.out, result); !written) return fail_with(written.error());
    }
    if (auto written = write_shard_file(options.out, {*options.shard_spec, plan->base_hash_input, plan->not_graded, results});
        !written) {
      return fail_with(written.error());
    }
    std::cout << "\n" << report::summary_text(report::summarize(results))
              << fmt::format("\nShard {} in {}: {} and students/ID/ for its {} students; once every shard is done:\n"
                             "  tilecamp grade --merge SHARD_DIR... --out REPORT_DIR\n",
                             options.shard, options.out, k_shard_file, results.students.size());
  } else {
    if (auto written = write_reports(options.out, results); !written) return fail_with(written.error());
    std::cout << "\n" << report::summary_text(report::summarize(results))
              << fmt::format("\nReports in {}: grades.csv, grades.json, junit.xml; for each student "
                             "students/ID/results.json (Gradescope) and students/ID/feedback.txt\n",
                             options.out);
  }
  if (run.could_not_save() > 0) return k_exit_usage;
  if (!plan->not_graded.empty()) {
    std::cerr << style_for(stderr).yellow("warning") << ": " << plan->not_graded.size()
              << (plan->not_graded.size() == 1 ? " folder of the roster was" : " folders of the roster were")
              << " not graded (see the warnings above)\n";
  }
  return some_not_graded(results) || !plan->not_graded.empty() ? k_exit_failed : k_exit_ok;
}

// `text` from a shard file, for the terminal: its control characters but the line breaks
// written as \xNN, so that a forged shard cannot send escape sequences.
std::string for_terminal(const std::string& text) {
  std::string out;
  for (unsigned char byte : text) {
    out += (byte < 0x20 && byte != '\n') || byte == 0x7f ? fmt::format("\\x{:02x}", byte) : std::string(1, static_cast<char>(byte));
  }
  return out;
}

// The class reports from the shards' folders, as one run over the whole roster writes them.
int run_merge(const GradeCommandOptions& options) {
  if (!options.roster.empty() || options.shard_spec || !options.hidden.empty() || !options.exercises.empty() || options.seed ||
      options.force) {
    return fail_with("--merge takes the shards' report folders and --out alone: the seed, the exercises and the hidden "
                     "tests are those the shards were graded with");
  }
  std::vector<fs::path> folders(options.merge.begin(), options.merge.end());
  auto merged = merge_shards(folders);
  if (!merged) return fail_with(merged.error());
  remove_stale_temporaries(options.out);
  if (auto written = write_reports(options.out, merged->results); !written) return fail_with(written.error());
  for (const std::string& warning : merged->not_graded) {
    std::cerr << style_for(stderr).yellow("warning") << ": " << for_terminal(warning) << "\n";
  }
  std::cerr << fmt::format("merged {} shards: {} students x {} exercises, seed {}\n", folders.size(),
                           merged->results.students.size(), merged->results.exercises.size(), merged->results.seed);
  std::cout << "\n" << for_terminal(report::summary_text(report::summarize(merged->results)))
            << fmt::format("\nReports in {}: grades.csv, grades.json, junit.xml; for each student "
                           "students/ID/results.json (Gradescope) and students/ID/feedback.txt\n",
                           options.out);
  return some_not_graded(merged->results) || !merged->not_graded.empty() ? k_exit_failed : k_exit_ok;
}

}  // namespace

std::function<int()> setup_grade_command(CommandLine& app) {
  auto options = std::make_shared<GradeCommandOptions>();
  CommandLine command = app.subcommand("grade", "Grade a whole class: every student's folder in a roster (instructors)");
  command.footer(
      "Examples:\n"
      "  tilecamp grade roster --out reports                            # every exercise of every student\n"
      "  tilecamp grade roster --out reports --hidden tests.toml --seed 8147\n"
      "  tilecamp grade roster --out reports --exercises 01-vector-add,02-transpose-tiled --jobs 4\n"
      "  tilecamp grade roster --out shard-1 --seed 8147 --shard 1/4         # a quarter of the class (a cluster node)\n"
      "  tilecamp grade --merge shard-0 shard-1 shard-2 shard-3 --out reports # the class reports from the shards\n\n"
      "Each folder of ROSTER_DIR is one student's course folder; only its exercises/ID/kernel.cu files are read.\n"
      "A rerun into the same REPORT_DIR regrades only the students whose files (or the hidden tests, the seed,\n"
      "the course) changed. docs/instructors.md: \"Grading a class\".\n\n"
      "--shard K/N grades shard K (0 to N-1) of N: the students whose id's SHA-256 is K mod N, so a student never\n"
      "moves when others join. Give every shard the same options and --seed, and a REPORT_DIR of its own; each\n"
      "writes its students' reports and shard.json. --merge reads every shard's shard.json (checking that each shard\n"
      "is there once, with the same settings) and writes the class reports, byte for byte those of one run.\n"
      "docs/slurm.md: a Slurm job array.\n\n"
      "Students' kernels are compiled and run in a sandbox (Landlock and seccomp); without one grade refuses to\n"
      "start unless --no-sandbox is given. docs/security.md.\n\n"
      "Exit status: 0 every submission was graded, 1 some could not be graded (see grades.json), 2 could not run.");
  command.option("roster", options->roster, "the folder holding one course folder per student (not with --merge)");
  command.option("--out", options->out, "where the reports go (created if needed)").required();
  command.option("--hidden", options->hidden, "a TOML file of hidden cases and threshold overrides per exercise");
  command.option("--seed", options->seed, "seed for the hidden draws (default: the last run's in REPORT_DIR, else a fresh one)")
      .check(
          [](const std::string& text) {
            return text.starts_with("-") ? std::string("the seed is a non-negative integer (0 to 18446744073709551615)")
                                         : std::string();
          },
          "");
  command.option("--jobs", options->jobs, "submissions graded at once (default: one per CPU core; one on a GPU)");
  command.option("--backend", options->backend, k_backend_help);
  command.option("--gpu", options->gpu, "the GPU whose cost model gives the emulator's modelled speedup (default h200)");
  command.option("--exercises", options->exercises, "grade only these exercises (ID,ID,...)").delimiter(',');
  command.flag("--force", options->force, "regrade every student, even those unchanged since the last run");
  command.option("--shard", options->shard, "grade shard K of N (K from 0 to N-1) of the roster, for the merge; needs --seed")
      .check([](const std::string& text) { auto spec = parse_shard(text); return spec ? std::string() : spec.error(); }, "K/N");
  command.option("--merge", options->merge, "write the class reports from the shards' report folders (SHARD_DIR...)");
  command.option("--time-limit", options->limits.seconds, "seconds one submission may take to grade (default 120)")
      .positive();
  command.option("--memory-limit", options->limits.memory_mib,
                      "MiB of memory one submission's compiling and emulation may use (default 4096)")
      .range(int64_t{256}, int64_t{1} << 20);
  command.flag("--no-sandbox", options->limits.no_sandbox,
                    "grade where Landlock or seccomp is missing, without them: UNSAFE, a kernel could read any file "
                    "tilecamp can (the limits still apply)");
  return [options] {
    if (!options->shard.empty()) options->shard_spec = *parse_shard(options->shard);
    return run_grade(*options);
  };
}

}  // namespace tilecamp::runner
