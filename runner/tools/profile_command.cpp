// tilecamp profile FILE.cu|FILE.ptx --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]
//                  [--arg SPEC]... [--seed N] [--gpu NAME] [--json] [--explain LINE]
#include <nlohmann/json.hpp>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "checker/model/cost_model.h"
#include "checker/profile/profile.h"
#include "checker/report/profile_report.h"
#include "checker/gpu/gpu_backend.h"
#include "runner/backend_choice.h"
#include "runner/command.h"
#include "runner/ptx_cache.h"
#include "runner/tools/explain_text.h"
#include "runner/sandbox_options.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

struct ProfileOptions {
  std::string file;
  std::string kernel;
  std::string grid;
  std::string block;
  std::vector<std::string> arguments;
  std::vector<std::string> variables;
  uint32_t shared_bytes = 0;
  uint64_t warp_instruction_budget = profile::ProfileRequest{}.warp_instruction_budget;
  bool cooperative = false;
  std::string dump_directory;
  uint64_t seed = 1;
  std::string gpu = "h200";
  std::string backend = "auto";
  bool json = false;
  std::optional<int> explain_line;  // draw this line's costliest accesses after the table
  bool sample = false;
  SandboxChoice sandbox;
};

// Writes DIR/argN.bin for every buffer argument (N: the parameter's position from 0).
std::string dump_buffers(const std::string& directory, const std::vector<profile::BufferResult>& buffers) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return "--dump: cannot create " + directory + ": " + error.message();
  for (const profile::BufferResult& buffer : buffers) {
    const std::filesystem::path path = std::filesystem::path(directory) / ("arg" + std::to_string(buffer.parameter) + ".bin");
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(buffer.bytes.data()), static_cast<std::streamsize>(buffer.bytes.size()));
    if (!out) return "--dump: cannot write " + path.string();
  }
  return "";
}

Expected<Dim3> parse_dim3(const std::string& option, const std::string& text) {
  uint32_t values[3] = {1, 1, 1};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), values[i]);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || values[i] == 0) {
      return make_error(option + " '" + text + "': expected X[,Y[,Z]] with positive integers, e.g. " + option + " 32,8");
    }
    if (comma == std::string::npos) return Dim3{values[0], values[1], values[2]};
    start = comma + 1;
  }
  return make_error(option + " '" + text + "': at most three dimensions X,Y,Z");
}

int fail_usage(const std::string& message) {
  const report::Style style = style_for(stderr);
  std::cerr << style.red("error") << ": " << message << "\n";
  return k_exit_usage;
}

int run_profile(const ProfileOptions& options) {
  profile::ProfileRequest request;
  request.path = options.file;
  request.kernel = options.kernel;
  request.seed = options.seed;
  request.gpu = options.gpu;
  if (auto gpu = model::find_gpu(options.gpu); !gpu) return fail_usage("--gpu: " + gpu.error());
  std::string error;
  if (!read_file(options.file, request.text, error)) return fail_usage(error);
  auto grid = parse_dim3("--grid", options.grid);
  if (!grid) return fail_usage(grid.error());
  auto block = parse_dim3("--block", options.block);
  if (!block) return fail_usage(block.error());
  request.grid = *grid;
  request.block = *block;
  for (const std::string& text : options.arguments) {
    auto spec = profile::parse_arg_spec(text);
    if (!spec) return fail_usage(spec.error());
    request.arguments.push_back(std::move(*spec));
  }
  for (const std::string& text : options.variables) {
    const size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0) {
      return fail_usage("--set '" + text + "': expected NAME=SPEC, e.g. --set coefficients=f32[5]=file:c.bin");
    }
    auto spec = profile::parse_arg_spec(text.substr(equals + 1));
    if (!spec) return fail_usage(spec.error());
    request.variables.emplace_back(text.substr(0, equals), std::move(*spec));
  }
  request.dynamic_shared_bytes = options.shared_bytes;
  request.sample = options.sample;
  request.warp_instruction_budget = options.warp_instruction_budget;
  request.cooperative = options.cooperative;
  if (options.sample && !options.dump_directory.empty()) return fail_usage("--dump: a --sample run's buffers are not kept");
  if (options.sample && options.cooperative) {
    return fail_usage("--cooperative: a cooperative launch runs every block of its grid; --sample runs a few");
  }
  auto sandbox = open_sandbox(options.sandbox, false);
  if (!sandbox) return fail_usage(sandbox.error());
  auto choice = choose_backend(options.backend, **sandbox);
  if (!choice) return fail_usage(choice.error());
  if (!choice->note.empty() && !options.json) std::cerr << style_for(stderr).dim("note: " + choice->note) << "\n";
  if (options.explain_line && options.json) return fail_usage("--explain draws text: leave out --json");
  std::unique_ptr<Compiler> compiler = cached_compiler(**sandbox);
  // The counters always come from the emulator; a GPU adds its measured time.
  std::unique_ptr<Backend> emulator = (*sandbox)->emulator();
  viz::WorstAccessFinder finder;
  if (options.explain_line) request.observer = &finder;
  auto report = profile::profile_kernel(*compiler, *emulator, request);
  if (!report) return fail_usage(report.error());
  request.observer = nullptr;
  if (!choice->backend->counts() && report->compiled && !report->result.has_error()) {
    auto measured = profile::profile_kernel(*compiler, *choice->backend, request);
    if (!measured) return fail_usage(measured.error());
    if (measured->result.has_error()) return fail_usage("on the GPU: " + measured->result.diagnostics.front().message);
    report->measured = measured->measured;
    report->measured_on = static_cast<gpu::GpuBackend&>(*choice->backend).info().name;
  }
  if (options.json) {
    std::cout << report::profile_json(*report).dump(2) << "\n";
  } else if (!report->compiled) {
    std::cerr << report::profile_text(*report, request.text, style_for(stderr));
  } else {
    std::cout << report::profile_text(*report, request.text, style_for(stdout));
  }
  if (!report->compiled) return k_exit_usage;
  if (options.explain_line) {
    // The run itself went as the exit status says; a line without accesses is a note after it.
    if (const viz::LineAccesses* line = finder.find_line(*options.explain_line)) {
      std::cout << "\n" << explain_line(*line, request.text, style_for(stdout));
    } else {
      std::cerr << style_for(stderr).dim("note: --explain: " +
                                         no_access_at(finder, *options.explain_line, request.text))
                << "\n";
    }
  }
  if (!options.dump_directory.empty()) {
    const std::string dump_error = dump_buffers(options.dump_directory, report->buffers);
    if (!dump_error.empty()) return fail_usage(dump_error);
  }
  return report->result.has_error() ? k_exit_failed : k_exit_ok;
}

}  // namespace

std::function<int()> setup_profile_command(CommandLine& app) {
  auto options = std::make_shared<ProfileOptions>();
  CommandLine command = app.subcommand(
      "profile", "Run one kernel on the emulator and show Nsight-like counters per source line");
  command.footer(
      "SPEC (one --arg per kernel parameter, in order):\n"
      "  TYPE:V      a scalar           TYPE: i32 u32 i64 u64 f32 f64, or 16-bit i16 u16 f16 bf16\n"
      "  TYPE[N]     a device buffer of N elements\n"
      "     optionally followed by =rand (default), =zeros, =iota or =file:PATH (raw little-endian)\n\n"
      "Examples:\n"
      "  tilecamp profile transpose.cu --kernel transposeTiled --grid 32,32 --block 32,32 \\\n"
      "      --arg f32[1048576] --arg f32[1048576]=zeros --arg i32:1024 --arg i32:1024\n"
      "  tilecamp profile transpose.cu --kernel transposeTiled --grid 256,256 --block 32,32 --sample \\\n"
      "      --arg f32[67108864] --arg f32[67108864] --arg i32:8192 --arg i32:8192   # 9 of 65,536 blocks run\n\n"
      "Exit status: 0 the kernel ran cleanly, 1 it reported an error (deadlock, out-of-bounds...),\n"
      "2 bad usage or a compile error.");
  command.option("file", options->file, "the kernel file: .cu (compiled with NVRTC) or .ptx").required();
  command.option("--kernel", options->kernel,
                      "the kernel: plain name, template instance (sgemmTiled<16>) or mangled PTX name")
      .required();
  command.option("--grid", options->grid, "blocks in the grid: X[,Y[,Z]]").required();
  command.option("--block", options->block, "threads in a block: X[,Y[,Z]]").required();
  command.option("--arg", options->arguments, "one kernel argument (see SPEC below)");
  command.option("--seed", options->seed, "seed for =rand buffers (default 1)");
  command.option("--set", options->variables,
                      "fill a __device__/__constant__ variable before the launch: NAME=SPEC");
  command.option("--max-warp-instructions", options->warp_instruction_budget,
                 "stop a warp as a runaway after this many instructions (default 5000000: a loop that never ends "
                 "is caught in about a second)")
      .range(int64_t{1}, int64_t{1'000'000'000'000});
  command.flag("--cooperative", options->cooperative,
               "a cooperative launch (cudaLaunchCooperativeKernel): every block resident at once, so that the grid "
               "may synchronize (cooperative groups' this_grid().sync()); the grid must fit on the GPU");
  command.option("--shared", options->shared_bytes, "dynamic shared memory per block, in bytes (extern __shared__)");
  command.option("--dump", options->dump_directory,
                      "after the run, write each buffer argument to DIR/argN.bin (N from 0, raw little-endian)");
  command.option("--gpu", options->gpu, "the GPU whose cost model turns the counters into a time (default h200)");
  command.option("--backend", options->backend, k_backend_help);
  command.flag("--json", options->json, "print one JSON object instead of text");
  command.flag("--sample", options->sample,
                    "run one block of each kind (first, middle, last along each axis) on zeroed buffers and estimate the "
                    "whole grid's counters and modelled time: for grids too large to emulate (a GPU still runs them all)");
  add_sandbox_options(command, options->sandbox, 60);
  command.option("--explain", options->explain_line,
                      "after the table, draw this source line's costliest shared access (lanes x banks) and "
                      "global access (lanes x sectors)")
      .check(check_line_number, "LINE");
  return [options] { return run_profile(*options); };
}

}  // namespace tilecamp::runner
