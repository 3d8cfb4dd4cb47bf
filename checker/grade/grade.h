// Checking a learner's kernel file as an exercise: compile, read the launch constants, run every
// case against the reference, then (only if all are correct) the performance thresholds.
#pragma once

#include <functional>
#include <memory>

#include "checker/backend/backend.h"
#include "checker/compile/compiler.h"
#include "checker/grade/cases.h"
#include "checker/grade/exercise.h"
#include "checker/grade/verdict.h"

namespace tilecamp::grade {

struct GradeOptions {
  uint64_t seed = 1;         // draws the hidden cases and the inputs
  std::string gpu = "h200";  // the cost model behind modelled_speedup on the emulator
  bool cases_only = false;   // skip the performance checks (e.g. under compute-sanitizer)
  emu::AccessObserver* observer = nullptr;  // shown the performance case's run (tilecamp explain)
  // Run the performance case only, with this done to its data first (tilecamp viz tiles fills
  // the inputs with values that name their elements). Implies cases_only.
  std::function<void(const ProblemCase&, CaseData&)> performance_case_only;
  // The file a failing threshold's "see: tilecamp explain EXERCISE --line N" hint should name with
  // --file: empty when the learner checked the exercise's own kernel.cu.
  std::string explain_file;
  // Makes a fresh emulator backend: the sandbox's in tilecamp (sandbox.h). The grader runs the
  // baseline's model there, and a GPU's cases again for their findings. When empty, an emulator
  // backend's another() serves; a GPU then needs one.
  std::function<std::unique_ptr<Backend>()> emulator;
  // Feedback for a student (a class's grading, Gradescope): a compiler message about the file
  // quotes only words the file holds (source_text.h's mask_foreign_quotes).
  bool own_words_only = false;
};

// Sets the verdict's status from its checks: error if one is an error, else fail if one failed.
void settle_status(Verdict& verdict);

Verdict grade_exercise(const Exercise& exercise, const SourceFile& source, Compiler& compiler, Backend& backend,
                       const GradeOptions& options);

}  // namespace tilecamp::grade
