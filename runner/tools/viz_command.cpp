// tilecamp viz sgemm [--m M] [--n N] [--k K] [--tile T] [--thread ROW,COL] [--block BX,BY]
//                    [--speed MS] [--seed N] [--once]
// The source notes' SGEMM tiling visualizer in the terminal, drawn from an emulator trace of the
// tiled kernel (checker/viz). Not on a terminal, or with --once, it prints the last frame and
// the counters.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <iostream>
#include <limits>

#include "checker/compile/nvrtc_compiler.h"
#include "runner/command.h"
#include "runner/ptx_cache.h"
#include "runner/terminal.h"
#include "runner/learner/tty.h"
#include "runner/tools/viz_screen.h"
#include "runner/tools/viz_tiles.h"

namespace tilecamp::runner {
namespace {

struct VizOptions {
  viz::SgemmSize size;
  std::string thread = "0,0";
  std::string block = "0,0";
  int speed_ms = 600;
  bool once = false;
  bool block_given = false;
};

int fail_usage(const std::string& message) {
  std::cerr << wrap_for_terminal(STDERR_FILENO, style_for(stderr).red("error") + ": " + message) << "\n";
  return k_exit_usage;
}

// --seed: a whole number, 0 or more (CLI11 would take -1 as 2^64 - 1).
std::string check_seed(const std::string& text) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  return digits ? "" : "expected a whole number, 0 or more (got '" + text + "')";
}

// + halves the time a step takes, - doubles it, within 50..10000 ms; a --speed outside that range
// is kept rather than pulled into it the wrong way (+ never slower, - never faster).
int faster(int speed_ms) { return std::min(speed_ms, std::max(50, speed_ms / 2)); }
int slower(int speed_ms) {
  return std::max(speed_ms, static_cast<int>(std::min<long long>(10000, 2LL * speed_ms)));
}

// "A,B" with A < first_limit and B < second_limit.
Expected<std::pair<int, int>> parse_pair(const std::string& option, const std::string& text, int first_limit,
                                         int second_limit) {
  const size_t comma = text.find(',');
  int first = -1, second = -1;
  const char* end = text.data() + text.size();
  if (comma != std::string::npos) {
    const auto one = std::from_chars(text.data(), text.data() + comma, first);
    const auto two = std::from_chars(text.data() + comma + 1, end, second);
    if (one.ec != std::errc() || one.ptr != text.data() + comma || two.ec != std::errc() || two.ptr != end) first = -1;
  }
  if (first < 0 || second < 0 || first >= first_limit || second >= second_limit) {
    return make_error(option + " '" + text + "': expected two numbers A,B with 0 <= A < " + std::to_string(first_limit) +
                      " and 0 <= B < " + std::to_string(second_limit));
  }
  return std::pair{first, second};
}

class SgemmPlayer {
 public:
  SgemmPlayer(const viz::SgemmTrace& trace, const SgemmView& view, size_t first)
      : m_trace(trace), m_frames(viz::sgemm_frames(trace)), m_view(view), m_frame(first), m_style(style_for(stdout)) {}

  void play() {
    RawMode raw;
    ResizeWatch resize;
    write_now(screen::k_enter_alternate);
    m_view.interactive = true;
    m_view.playing = true;
    auto next_step = Clock::now() + std::chrono::milliseconds(m_view.speed_ms);
    draw();
    for (;;) {
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_step - Clock::now()).count();
      // At most 250 ms: a resize that came just before the wait began is still seen promptly.
      const Key key = read_key(STDIN_FILENO, m_view.playing ? static_cast<int>(std::clamp<long long>(wait, 0, 250)) : 250);
      if (key.is('q') || key.is('Q') || key.code == KeyCode::Escape || key.code == KeyCode::Interrupt ||
          key.code == KeyCode::EndOfInput) {
        break;
      }
      if (key.code != KeyCode::None) {
        on_key(key);
      } else if (m_view.playing && Clock::now() >= next_step) {
        step(1);
        m_view.playing = m_frame + 1 < m_frames.size();  // stop at the end
      } else {
        // Resized, or continued after a stop: the same frame drawn again, the step's time kept.
        const bool asked = redraw_requested();
        if (asked || screen_size().rows != m_size.rows || screen_size().cols != m_size.cols) draw();
        continue;
      }
      next_step = Clock::now() + std::chrono::milliseconds(m_view.speed_ms);
      draw();
    }
    write_now(screen::k_leave_alternate);
  }

 private:
  using Clock = std::chrono::steady_clock;

  void on_key(const Key& key) {
    if (key.is(' ')) {
      m_view.playing = !m_view.playing;
    } else if (key.code == KeyCode::Right || key.is('l')) {
      m_view.playing = false;
      step(1);
    } else if (key.code == KeyCode::Left || key.is('h')) {
      m_view.playing = false;
      step(-1);
    } else if (key.is('b')) {
      m_frame = viz::next_block_frame(m_frames, m_frame);
    } else if (key.is('+')) {
      m_view.speed_ms = faster(m_view.speed_ms);
    } else if (key.is('-')) {
      m_view.speed_ms = slower(m_view.speed_ms);
    } else if (key.is('t')) {
      const int tile = m_trace.size.tile;
      const int next = (m_view.thread_row * tile + m_view.thread_col + 1) % (tile * tile);
      m_view.thread_row = next / tile;
      m_view.thread_col = next % tile;
    }
  }

  void step(int by) {
    if (by > 0 && m_frame + 1 < m_frames.size()) ++m_frame;
    if (by < 0 && m_frame > 0) --m_frame;
  }

  void draw() {
    m_size = screen_size();
    m_view.width = static_cast<size_t>(m_size.cols);
    m_view.height = static_cast<size_t>(m_size.rows);
    const std::vector<std::string> lines = render_sgemm_frame(m_trace, m_frames, m_frame, m_view, m_style);
    std::string out = screen::k_home;
    for (size_t i = 0; i < lines.size(); ++i) {
      out += lines[i] + screen::k_clear_line_end + (i + 1 < lines.size() ? "\r\n" : "");
    }
    write_now(out + screen::k_clear_below);
  }

  const viz::SgemmTrace& m_trace;
  std::vector<viz::SgemmFrame> m_frames;
  SgemmView m_view;
  size_t m_frame;
  report::Style m_style;
  ScreenSize m_size;
};

int run_viz_sgemm(const VizOptions& options) {
  if (auto valid = viz::check_sgemm_size(options.size); !valid) return fail_usage(valid.error());
  const int tile = options.size.tile;
  auto thread = parse_pair("--thread", options.thread, tile, tile);
  if (!thread) return fail_usage(thread.error());
  const int grid_x = (options.size.n + tile - 1) / tile, grid_y = (options.size.m + tile - 1) / tile;
  auto block = parse_pair("--block", options.block, grid_x, grid_y);
  if (!block) return fail_usage(block.error());
  if (options.speed_ms < 1) return fail_usage("--speed: at least 1 ms");
  std::unique_ptr<Compiler> compiler = cached_compiler(std::make_unique<NvrtcCompiler>(), in_this_process());
  auto trace = viz::trace_sgemm(*compiler, options.size);
  if (!trace) {
    std::cerr << style_for(stderr).red("error") << ": " << trace.error() << "\n";
    return k_exit_failed;
  }
  SgemmView view;
  view.thread_row = thread->first;
  view.thread_col = thread->second;
  view.speed_ms = options.speed_ms;
  const std::vector<viz::SgemmFrame> frames = viz::sgemm_frames(*trace);
  const size_t start = viz::block_start_frame(*trace, frames, block->first, block->second);
  if (options.once || !interactive_terminal()) {
    // Laid out for the terminal's width (80 when not on one), never cut: printed, the lines are
    // whole. The last frame, or with --block the last frame of that block (C written up to it).
    view.width = ::isatty(STDOUT_FILENO) ? static_cast<size_t>(screen_size().cols) : 80;
    size_t shown = frames.size() - 1;
    if (options.block_given) {
      shown = viz::next_block_frame(frames, start);
      if (frames[shown].block != frames[start].block) --shown;
    }
    for (const std::string& line : render_sgemm_frame(*trace, frames, shown, view, style_for(stdout))) {
      std::cout << line << "\n";
    }
    std::cout << "\n" << sgemm_summary(*trace);
    return k_exit_ok;
  }
  SgemmPlayer(*trace, view, start).play();
  return k_exit_ok;
}

}  // namespace

std::function<int()> setup_viz_command(CommandLine& app) {
  auto options = std::make_shared<VizOptions>();
  CommandLine command = app.subcommand("viz", "Watch a kernel work: visualizers drawn from emulator traces");
  command.require_subcommand(0, 1);
  command.allow_extras();  // an unknown visualizer is named in run_viz's error, not CLI11's
  CommandLine sgemm = command.subcommand(
      "sgemm", "Shared-memory tiling in SGEMM: threads load tiles of A and B, sync, multiply, sync");
  sgemm.footer(
      "Keys: space play/pause, -> step (<- back), b next block, + faster, - slower, t next thread, q quit.\n"
      "Not on a terminal, or with --once, it prints the last frame and the counters.\n\n"
      "Examples:\n"
      "  tilecamp viz sgemm                                  # M=N=4, K=8, TILE=2: 128 global reads, naive 256\n"
      "  tilecamp viz sgemm --m 6 --n 6 --k 9 --tile 3 --thread 1,2\n"
      "  tilecamp viz sgemm --m 5 --n 5 --k 5 --tile 2 --once  # partial tiles, zero-filled");
  sgemm.option("--m", options->size.m, "rows of A and C (1-32, default 4)");
  sgemm.option("--n", options->size.n, "columns of B and C (1-32, default 4)");
  sgemm.option("--k", options->size.k, "columns of A, rows of B (1-64, default 8)");
  sgemm.option("--tile", options->size.tile, "TILE: a block is TILE x TILE threads (1-16, default 2)");
  sgemm.option("--thread", options->thread, "the thread to follow, ROW,COL in its block (default 0,0)");
  sgemm.option("--block", options->block,
                    "start at block BX,BY (default 0,0); with --once, print that block's last frame");
  sgemm.option("--speed", options->speed_ms, "milliseconds per step when playing (default 600)");
  sgemm.option("--seed", options->size.seed, "seed for the inputs, whole numbers 1 to 9 (default 1)")
      .check(check_seed, "N");
  sgemm.flag("--once", options->once, "print the last frame and the counters, and exit");
  auto tiles_options = std::make_shared<VizTilesOptions>();
  auto tiles_block = std::make_shared<std::string>("0,0");
  CommandLine tiles = command.subcommand(
      "tiles", "What a block, a warp and a thread of your kernel read and wrote, level by level");
  tiles.footer(
      "It runs the exercise's performance case on the emulator, in the sandbox, with inputs whose values\n"
      "name their elements, and follows one block, one of its warps and one of that warp's threads:\n"
      "their global and shared loads and stores, and the elements of each matrix they read or wrote,\n"
      "drawn over the matrices (# the thread, w the warp, o the block).\n\n"
      "Examples:\n"
      "  tilecamp viz tiles 05-sgemm-register-blocked                 # block (0,0), warp 0, thread 0\n"
      "  tilecamp viz tiles 05-sgemm-register-blocked --warp 3 --lane 5\n"
      "  tilecamp viz tiles 05-sgemm-tiled --file my.cu --json\n\n"
      "Exit status: 0 drawn, 1 the kernel did not get that far, 2 bad usage.");
  tiles.option("exercise", tiles_options->exercise, "the exercise, e.g. 05-sgemm-register-blocked").required();
  tiles.option("--file", tiles_options->file, "draw this kernel file instead of the exercise's kernel.cu");
  tiles.option("--block", *tiles_block, "the block to follow, BX,BY (default 0,0)");
  tiles.option("--warp", tiles_options->warp, "the warp to follow, in the block (default 0)");
  tiles.option("--lane", tiles_options->lane, "the thread to follow: its lane in the warp, 0-31 (default 0)");
  tiles.flag("--json", tiles_options->json, "print one JSON object instead of text");
  add_sandbox_options(tiles, tiles_options->sandbox, 60);
  return [options, command, sgemm, tiles, tiles_options, tiles_block] {
    if (sgemm.parsed()) {
      options->block_given = sgemm.count("--block") > 0;
      return run_viz_sgemm(*options);
    }
    if (tiles.parsed()) {
      constexpr int k_any = std::numeric_limits<int>::max();
      auto block = parse_pair("--block", *tiles_block, k_any, k_any);
      if (!block) return fail_usage(block.error());
      tiles_options->block_x = static_cast<uint32_t>(block->first);
      tiles_options->block_y = static_cast<uint32_t>(block->second);
      return run_viz_tiles(*tiles_options);
    }
    const std::vector<std::string> rest = command.remaining();
    if (rest.empty()) return fail_usage("name a visualizer: tilecamp viz sgemm or tilecamp viz tiles EXERCISE");
    if (rest.front().starts_with("-")) return fail_usage("unknown option " + rest.front() + " for viz; try tilecamp viz sgemm --help");
    return fail_usage("unknown visualizer " + rest.front() + "; there are: sgemm, tiles");
  };
}

}  // namespace tilecamp::runner
