// One grading job of `tilecamp grade`: one student's kernel for one exercise, graded in a child
// process of its own (`tilecamp __grade-one ...`) under a time and a memory limit. A hang, a crash
// or a memory blow-up ends that child alone and becomes that submission's verdict; no other
// student's result can be touched by it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "checker/grade/verdict.h"

namespace tilecamp::runner {

// The hidden first argument that turns tilecamp into a grading job's child process.
constexpr const char* k_grade_one_argument = "__grade-one";

struct GradeJob {
  std::filesystem::path course_root;
  std::string exercise;
  std::filesystem::path kernel;   // the student's file
  std::filesystem::path student_folder;  // the kernel must lie inside it, symbolic links resolved
  uint64_t seed = 0;
  std::string backend;            // "emulator" or "gpu", already chosen
  std::string gpu = "h200";
  std::filesystem::path hidden;   // the hidden-tests file, or empty
};

struct JobLimits {
  int seconds = 120;        // the sandbox's time for the submission; its grading process gets a margin more
  int memory_mib = 4096;    // the sandbox's address space, and the grading process's data (heap) size
  bool no_sandbox = false;  // --no-sandbox: limits only (unsafe)
  // Host threads the emulator may use for the job (the cores the jobs share): its CPU time may
  // run this many times its seconds.
  unsigned emulator_threads = 1;
};

// Runs the job in a child process; `work_file` is where the child writes its verdict (it and
// `work_file`.log are removed afterwards).
grade::Verdict run_grade_job(const GradeJob& job, const JobLimits& limits, const std::filesystem::path& work_file);

// The child's side: tilecamp __grade-one COURSE EXERCISE KERNEL SEED BACKEND GPU HIDDEN OUT.
// Writes the verdict record to OUT and returns 0; 2 when the arguments make no job.
int run_grade_one(int argc, char** argv);

}  // namespace tilecamp::runner
