// tilecamp profile FILE.cu|FILE.ptx --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]
//                  [--arg SPEC]... [--seed N] [--json]
#include <charconv>
#include <iostream>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/profile/profile.h"
#include "checker/report/profile_report.h"
#include "runner/command.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

struct ProfileOptions {
  std::string file;
  std::string kernel;
  std::string grid;
  std::string block;
  std::vector<std::string> arguments;
  uint64_t seed = 1;
  bool json = false;
};

Expected<emu::Dim3> parse_dim3(const std::string& option, const std::string& text) {
  uint32_t values[3] = {1, 1, 1};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), values[i]);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || values[i] == 0) {
      return make_error(option + " '" + text + "': expected X[,Y[,Z]] with positive integers, e.g. " + option + " 32,8");
    }
    if (comma == std::string::npos) return emu::Dim3{values[0], values[1], values[2]};
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
  NvrtcCompiler compiler;
  emu::EmulatorBackend backend;
  auto report = profile::profile_kernel(compiler, backend, request);
  if (!report) return fail_usage(report.error());
  if (options.json) {
    std::cout << report::profile_json(*report).dump(2) << "\n";
  } else if (!report->compiled) {
    std::cerr << report::profile_text(*report, request.text, style_for(stderr));
  } else {
    std::cout << report::profile_text(*report, request.text, style_for(stdout));
  }
  if (!report->compiled) return k_exit_usage;
  return report->result.has_error() ? k_exit_failed : k_exit_ok;
}

}  // namespace

std::function<int()> setup_profile_command(CLI::App& app) {
  auto options = std::make_shared<ProfileOptions>();
  CLI::App* command = app.add_subcommand(
      "profile", "Run one kernel on the emulator and show Nsight-like counters per source line");
  command->footer(
      "SPEC (one --arg per kernel parameter, in order):\n"
      "  i32:V | u32:V | i64:V | u64:V | f32:V | f64:V          a scalar\n"
      "  f32[N] | f64[N] | i32[N] | u32[N] | i64[N] | u64[N]   a device buffer of N elements\n"
      "     optionally followed by =rand (default), =zeros or =iota\n\n"
      "Example:\n"
      "  tilecamp profile transpose.cu --kernel transposeTiled --grid 32,32 --block 32,32 \\\n"
      "      --arg f32[1048576] --arg f32[1048576]=zeros --arg i32:1024 --arg i32:1024\n\n"
      "Exit status: 0 the kernel ran cleanly, 1 it reported an error (deadlock, out-of-bounds...),\n"
      "2 bad usage or a compile error.");
  command->add_option("file", options->file, "the kernel file: .cu (compiled with NVRTC) or .ptx")->required();
  command->add_option("--kernel", options->kernel,
                      "the kernel: plain name, template instance (sgemmTiled<16>) or mangled PTX name")
      ->required();
  command->add_option("--grid", options->grid, "blocks in the grid: X[,Y[,Z]]")->required();
  command->add_option("--block", options->block, "threads in a block: X[,Y[,Z]]")->required();
  command->add_option("--arg", options->arguments, "one kernel argument (see SPEC below)");
  command->add_option("--seed", options->seed, "seed for =rand buffers (default 1)");
  command->add_flag("--json", options->json, "print one JSON object instead of text");
  return [options] { return run_profile(*options); };
}

}  // namespace tilecamp::runner
