// The cases an exercise is graded on, and the buffers and arguments of one case: drawn from the
// exercise's [problem] and [[param]] tables, the same for the learner's kernel, a reference
// kernel and the baseline.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/backend/backend.h"
#include "checker/grade/exercise.h"
#include "checker/grade/expression.h"

namespace tilecamp::grade {

struct ProblemCase {
  std::vector<int64_t> dims;  // one value per dimension, in the order of problem.dims
  bool hidden = false;
  bool performance = false;   // the case the thresholds are measured on
};

// Refuses a buffer of `count` elements for `param` over the limit (1 << 26: 256 MiB of floats):
// "buffer `a` would have N elements (size `n`); at most 67108864 are allowed".
Status check_buffer_elements(const Param& param, int64_t count);

// Whether a case of these dimensions can be graded: every buffer within the limit above, every
// scalar computable, and, on the emulator, its work (the exercise's `fmas`) within what a check
// emulates in seconds (1 << 26 multiply-adds). Exercise metadata and hidden tests are checked with
// this before anything is graded, so a case too large is the author's error, not every student's.
Status check_case_fits(const Exercise& exercise, const std::vector<int64_t>& dims, bool on_emulator);

// "width=50 height=37": what the learner is shown of a case.
std::string case_shape(const ProblemSpec& problem, const ProblemCase& problem_case);

// The public cases, then the hidden ones drawn from `seed` (partial tiles, each dimension 1,
// primes), the fixed hidden cases, and last the performance case (its `gpu_performance` size when
// `timed_on_gpu`: a GPU's times mean something only on sizes far beyond what the emulator runs).
std::vector<ProblemCase> draw_cases(const ProblemSpec& problem, uint64_t seed, bool timed_on_gpu = false);

struct CaseData {
  Bindings dims;                          // dimension name -> value
  std::vector<BufferData> buffers;        // one per pointer parameter, in parameter order
  std::vector<KernelArgument> arguments;  // one per parameter
  std::vector<int> buffer_of_param;       // parameter index -> buffer index, -1 for scalars
};

// Inputs uniform in each parameter's range and never 0, outputs poisoned with NaN (all ones for
// integers), scalars evaluated. An Error: a size expression is negative or too large. `zeroed`:
// every buffer is made zeroed where the kernel runs instead (BufferData::zero_bytes), for a
// sampled run at a size too large to send.
Expected<CaseData> make_case_data(const Exercise& exercise, const ProblemCase& problem_case, uint64_t seed,
                                  bool zeroed = false);

// The grid, block and dynamic shared memory of `launch` with `names` bound. An Error says which
// value is out of range: "block (TILE_DIM, BLOCK_ROWS) = (64, 32) is 2048 threads; ...".
Expected<LaunchConfig> launch_config(const LaunchSpec& launch, const Bindings& names);

// Elements in every `out` and `inout` buffer: the denominator of the *_per_output metrics.
double output_elements(const Exercise& exercise, const CaseData& data);

}  // namespace tilecamp::grade
