#include "runner/tools/viz_screen.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "runner/learner/ansi_text.h"

namespace tilecamp::runner {
namespace {

using viz::SgemmPhase;

// How a cell of a matrix or a tile is drawn.
enum class Mark {
  Idle,      // not in play
  Tile,      // in the block's current tile (a matrix), or read by the followed thread this step (a tile)
  Selected,  // what the followed thread loads or reads in this frame
  Done,      // an element of C already written
};

// What one frame shows, worked out once.
struct Scene {
  const viz::SgemmTrace& trace;
  const viz::SgemmFrame& frame;
  const viz::BlockRun& block;
  const viz::TileStep& step;  // the frame's tile step (the last one in the store frame)
  int tile, ty, tx;           // TILE and the followed thread
  int row, col;               // the element of C the followed thread computes
  std::vector<std::optional<float>> c;  // C as written so far

  bool in_step() const { return frame.phase != SgemmPhase::Store; }
  const viz::ThreadStep& thread() const { return step.threads[size_t(ty * tile + tx)]; }
};

Scene make_scene(const viz::SgemmTrace& trace, const std::vector<viz::SgemmFrame>& frames, size_t index,
                 const SgemmView& view) {
  const viz::SgemmFrame& frame = frames[index];
  const viz::BlockRun& block = trace.blocks[frame.block];
  const int tile = trace.size.tile;
  const viz::TileStep& step = block.steps[size_t(std::min(frame.step, trace.steps() - 1))];
  Scene scene{trace, frame, block, step, tile, view.thread_row, view.thread_col,
              block.by * tile + view.thread_row, block.bx * tile + view.thread_col, {}};
  scene.c.assign(size_t(trace.size.m) * size_t(trace.size.n), std::nullopt);
  const size_t written = frame.phase == SgemmPhase::Store ? frame.block + 1 : frame.block;
  for (size_t b = 0; b < written; ++b) {
    const viz::BlockRun& done = trace.blocks[b];
    for (int t = 0; t < tile * tile; ++t) {
      const int r = done.by * tile + t / tile, c = done.bx * tile + t % tile;
      if (done.stored[size_t(t)]) scene.c[size_t(r * trace.size.n + c)] = done.stored[size_t(t)];
    }
  }
  return scene;
}

Mark a_mark(const Scene& s, int i, int j) {
  if (!s.in_step() || i / s.tile != s.block.by || j / s.tile != s.frame.step) return Mark::Idle;
  const viz::ElementCopy& copy = s.thread().a;
  if (s.frame.phase == SgemmPhase::Load && copy.row == i && copy.col == j) return Mark::Selected;
  if (s.frame.phase == SgemmPhase::Compute && i == s.row && j == s.frame.step * s.tile + s.frame.k) return Mark::Selected;
  return Mark::Tile;
}

Mark b_mark(const Scene& s, int i, int j) {
  if (!s.in_step() || i / s.tile != s.frame.step || j / s.tile != s.block.bx) return Mark::Idle;
  const viz::ElementCopy& copy = s.thread().b;
  if (s.frame.phase == SgemmPhase::Load && copy.row == i && copy.col == j) return Mark::Selected;
  if (s.frame.phase == SgemmPhase::Compute && i == s.frame.step * s.tile + s.frame.k && j == s.col) return Mark::Selected;
  return Mark::Tile;
}

Mark c_mark(const Scene& s, int i, int j) {
  if (i == s.row && j == s.col) return Mark::Selected;
  if (s.c[size_t(i * s.trace.size.n + j)]) return Mark::Done;
  if (i / s.tile == s.block.by && j / s.tile == s.block.bx) return Mark::Tile;
  return Mark::Idle;
}

// tileA: the followed thread's row; tileB: its column. Load: the slot it writes; compute: the pair at k.
Mark tile_mark(const Scene& s, bool tile_a, int r, int c) {
  const SgemmPhase phase = s.frame.phase;
  if (phase == SgemmPhase::Load) return r == s.ty && c == s.tx ? Mark::Selected : Mark::Idle;
  if (phase != SgemmPhase::Compute) return Mark::Idle;
  const bool in_line = tile_a ? r == s.ty : c == s.tx;
  const bool at_k = tile_a ? c == s.frame.k : r == s.frame.k;
  return in_line && at_k ? Mark::Selected : in_line ? Mark::Tile : Mark::Idle;
}

std::string number(float value) { return fmt::format("{:g}", value); }

std::string styled_cell(Mark mark, std::string text, const report::Style& style) {
  if (!style.color()) return text;
  switch (mark) {
    case Mark::Idle: return sgr("2", text);
    case Mark::Tile: return sgr("1;36", text);
    case Mark::Selected: return sgr("1;30;43", text);
    case Mark::Done: return sgr("32", text);
  }
  return text;
}

// A cell `width` columns wide: a glyph and a space, or the value between marks ([7], <7>).
std::string cell(Mark mark, const std::string& value, size_t width, const report::Style& style) {
  if (width == 2) {
    const char glyph = ".#@*"[static_cast<int>(mark)];
    return styled_cell(mark, std::string(1, glyph), style) + " ";
  }
  const char* marks = mark == Mark::Tile ? "[]" : mark == Mark::Selected ? "<>" : "  ";
  const size_t room = width - 2;
  // Values right-aligned; a "." (no value yet) centred.
  const std::string inner = value.empty() ? std::string((room - 1) / 2, ' ') + "." : value;
  const std::string padded = pad_visible(std::string(room > inner.size() && !value.empty() ? room - inner.size() : 0, ' ') + inner, room);
  return styled_cell(mark, marks[0] + padded + marks[1], style);
}

struct Panel {
  std::vector<std::string> lines;
  size_t width = 0;
};

Panel grid_panel(const std::string& title, int rows, int cols, size_t cell_width,
                 const std::function<std::string(int, int)>& draw) {
  Panel panel{{title}, std::max(title.size(), size_t(cols) * cell_width)};
  for (int i = 0; i < rows; ++i) {
    std::string line;
    for (int j = 0; j < cols; ++j) line += draw(i, j);
    panel.lines.push_back(line);
  }
  return panel;
}

// Panels side by side, top-aligned, `gap` columns apart.
Panel beside(const std::vector<Panel>& panels, size_t gap) {
  Panel out;
  size_t rows = 0;
  for (const Panel& panel : panels) rows = std::max(rows, panel.lines.size());
  for (size_t r = 0; r < rows; ++r) {
    std::string line;
    for (size_t p = 0; p < panels.size(); ++p) {
      const std::string text = r < panels[p].lines.size() ? panels[p].lines[r] : "";
      line += p + 1 < panels.size() ? pad_visible(text, panels[p].width + gap) : text;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out.lines.push_back(line);
  }
  for (const Panel& panel : panels) out.width += panel.width + gap;
  out.width -= panels.empty() ? 0 : gap;
  return out;
}

constexpr size_t k_gap = 3;

Panel matrices(const Scene& s, size_t width, const report::Style& style) {
  const viz::SgemmSize& size = s.trace.size;
  size_t c_digits = 1;
  for (const viz::BlockRun& block : s.trace.blocks) {
    for (const auto& value : block.stored) c_digits = std::max(c_digits, value ? number(*value).size() : 1);
  }
  const size_t tiles_width = 2 * (size_t(s.tile) * 3 + k_gap);
  const size_t wide = size_t(size.k + size.n) * 3 + size_t(size.n) * (c_digits + 2) + 2 * k_gap + tiles_width;
  const bool values = wide <= width;
  const size_t ab = values ? 3 : 2, cw = values ? c_digits + 2 : 2;
  auto value_of = [&](const std::vector<float>& m, int columns, int i, int j) {
    return values ? number(m[size_t(i * columns + j)]) : "";
  };
  std::vector<Panel> panels;
  panels.push_back(grid_panel(fmt::format("A {}x{}", size.m, size.k), size.m, size.k, ab, [&](int i, int j) {
    return cell(a_mark(s, i, j), value_of(s.trace.a, size.k, i, j), ab, style);
  }));
  panels.push_back(grid_panel(fmt::format("B {}x{}", size.k, size.n), size.k, size.n, ab, [&](int i, int j) {
    return cell(b_mark(s, i, j), value_of(s.trace.b, size.n, i, j), ab, style);
  }));
  panels.push_back(grid_panel(fmt::format("C {}x{}", size.m, size.n), size.m, size.n, cw, [&](int i, int j) {
    const auto& value = s.c[size_t(i * size.n + j)];
    return cell(c_mark(s, i, j), values && value ? number(*value) : "", cw, style);
  }));
  for (bool tile_a : {true, false}) {
    const std::vector<float>& values_of = tile_a ? s.step.tile_a : s.step.tile_b;
    panels.push_back(grid_panel(tile_a ? "tileA" : "tileB", s.tile, s.tile, 3, [&](int r, int c) {
      return cell(tile_mark(s, tile_a, r, c), number(values_of[size_t(r * s.tile + c)]), 3, style);
    }));
  }
  Panel all = beside(panels, k_gap);
  all.lines.push_back(values ? fmt::format("[n] the block's tiles   <n> what thread ({},{}) loads or reads now", s.ty, s.tx)
                             : fmt::format("# the block's tiles   @ what thread ({},{}) loads or reads now   * C written",
                                           s.ty, s.tx));
  return all;
}

std::string phase_bar(const Scene& s, const SgemmView& view, const report::Style& style) {
  const char* names[] = {"load", "barrier", "compute", "barrier", "store C"};
  std::string bar;
  for (int p = 0; p < 5; ++p) {
    if (p > 0) bar += " > ";
    bar += p == static_cast<int>(s.frame.phase) ? style.bold("[" + std::string(names[p]) + "]") : std::string(names[p]);
  }
  return view.interactive ? bar + fmt::format("      {} ms a step", view.speed_ms) : bar;
}

std::string phase_text(const Scene& s) {
  const int waiting = s.tile * s.tile;
  switch (s.frame.phase) {
    case SgemmPhase::Load:
      return "each thread copies one element of A and one of B into the tiles (0 past an edge)";
    case SgemmPhase::LoadBarrier:
      return fmt::format("__syncthreads(): all {} threads wait until both tiles are complete", waiting);
    case SgemmPhase::Compute:
      return fmt::format("k = {}: each thread adds tileA[ty][{}] * tileB[{}][tx] to its sum", s.frame.k, s.frame.k,
                         s.frame.k);
    case SgemmPhase::ComputeBarrier:
      return fmt::format("__syncthreads(): all {} threads finish reading before the next tiles overwrite them", waiting);
    case SgemmPhase::Store: return "each thread inside C writes its sum";
  }
  return "";
}

std::string element(const char* matrix, const viz::ElementCopy& copy) {
  if (copy.row < 0) return fmt::format("{} -> 0", matrix);
  return fmt::format("{}[{}][{}] +{}", matrix, copy.row, copy.col, copy.offset);
}

// What each thread of the block does in this frame; empty at a barrier.
std::vector<std::string> thread_entries(const Scene& s) {
  std::vector<std::string> entries;
  for (int t = 0; t < s.tile * s.tile; ++t) {
    const viz::ThreadStep& thread = s.step.threads[size_t(t)];
    const std::string who = fmt::format("({},{})", t / s.tile, t % s.tile);
    switch (s.frame.phase) {
      case SgemmPhase::Load: entries.push_back(who + " " + element("A", thread.a) + "  " + element("B", thread.b)); break;
      case SgemmPhase::Compute: {
        const auto& [a, b] = thread.products[size_t(s.frame.k)];
        entries.push_back(who + " " + number(a) + "*" + number(b));
        break;
      }
      case SgemmPhase::Store: {
        const auto& stored = s.block.stored[size_t(t)];
        entries.push_back(who + (stored ? fmt::format(" C[{}][{}]={}", s.block.by * s.tile + t / s.tile,
                                                      s.block.bx * s.tile + t % s.tile, number(*stored))
                                        : std::string(" outside C")));
        break;
      }
      default: return {};
    }
  }
  return entries;
}

std::vector<std::string> threads_section(const Scene& s, size_t width) {
  std::vector<std::string> lines;
  const std::vector<std::string> entries = thread_entries(s);
  std::string what = s.frame.phase == SgemmPhase::Load      ? ": what each loads, at which byte of A or B"
                     : s.frame.phase == SgemmPhase::Compute ? ": the product each adds"
                     : s.frame.phase == SgemmPhase::Store   ? ": what each writes"
                                                            : ": every one waits at the barrier";
  const size_t barrier = s.frame.phase == SgemmPhase::LoadBarrier ? 0 : 1;
  if (entries.empty() && barrier < s.trace.barrier_lines.size()) {
    what += fmt::format(" on line {}", s.trace.barrier_lines[barrier]);
  }
  lines.push_back(fmt::format("threads (ty,tx) of block ({},{}){}", s.block.bx, s.block.by, what));
  if (entries.empty()) return lines;
  size_t entry_width = 0;
  for (const std::string& entry : entries) entry_width = std::max(entry_width, entry.size() + 3);
  const size_t per_line = std::max<size_t>(1, (width - 2) / entry_width);
  for (size_t i = 0; i < entries.size(); i += per_line) {
    std::string line = "  ";
    for (size_t j = i; j < std::min(entries.size(), i + per_line); ++j) line += pad_visible(entries[j], entry_width);
    while (line.back() == ' ') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// The followed thread's dot product, tile step by tile step, up to this frame.
std::vector<std::string> timeline_section(const Scene& s, size_t width) {
  std::vector<std::string> lines;
  const bool inside = s.row < s.trace.size.m && s.col < s.trace.size.n;
  lines.push_back(fmt::format("thread ({},{}) computes C[{}][{}]{}", s.ty, s.tx, s.row, s.col,
                              inside ? "" : " (outside C: its sum is never stored)"));
  float sum = 0;
  const int last_step = s.frame.phase == SgemmPhase::Store ? s.trace.steps() - 1 : s.frame.step;
  for (int step = 0; step <= last_step; ++step) {
    const viz::SgemmPhase phase = s.frame.phase;
    const bool current = step == s.frame.step;
    if (current && (phase == SgemmPhase::Load || phase == SgemmPhase::LoadBarrier)) break;
    const int products = current && phase == SgemmPhase::Compute ? s.frame.k + 1 : s.tile;
    const viz::ThreadStep& thread = s.block.steps[size_t(step)].threads[size_t(s.ty * s.tile + s.tx)];
    std::vector<std::string> terms;
    for (int k = 0; k < products; ++k) {
      const auto& [a, b] = thread.products[size_t(k)];
      terms.push_back(number(a) + "*" + number(b));
      sum += a * b;
    }
    auto line = [&](size_t elided) {  // the middle `elided` terms as one "..."
      std::string text;
      const size_t keep_front = (terms.size() - elided + 1) / 2, keep_back = terms.size() - elided - keep_front;
      for (size_t k = 0; k < terms.size(); ++k) {
        if (elided > 0 && k == keep_front) text += " + ...";
        if (elided > 0 && k >= keep_front && k < terms.size() - keep_back) continue;
        text += (text.empty() ? "" : " + ") + terms[k];
      }
      return fmt::format("  tile {}: {}  sum {}", step + 1, text, number(sum));
    };
    // On a screen, the sum stays in sight: products are left out of the middle until it fits.
    size_t elided = 0;
    while (width > 0 && elided + 2 < terms.size() && line(elided).size() > width) ++elided;
    lines.push_back(line(elided));
  }
  if (s.frame.phase == SgemmPhase::Store && inside && s.block.stored[size_t(s.ty * s.tile + s.tx)]) {
    lines.push_back(fmt::format("  stored C[{}][{}] = {}", s.row, s.col, number(*s.block.stored[size_t(s.ty * s.tile + s.tx)])));
  }
  return lines;
}

std::string formula(const viz::SgemmTrace& trace) {
  const viz::SgemmSize& size = trace.size;
  const double naive = 2.0 * size.m * size.n * size.k;
  return fmt::format("naive 2*M*N*K = {:g} reads; tiled 2*M*N*K/TILE = {:g} (emulated: {}, {})", naive,
                     naive / size.tile, trace.naive_global_reads, trace.tiled_global_reads);
}

std::vector<std::string> counters_section(const Scene& s) {
  const viz::SgemmSize& size = s.trace.size;
  return {fmt::format("so far: global loads {}, shared loads {}, C {} of {} written",
                      s.frame.global_reads, s.frame.shared_reads, s.frame.c_written, size.m * size.n),
          formula(s.trace)};
}

// The kernel's source with the lines of this frame's phase marked.
Panel source_panel(const Scene& s) {
  const std::vector<int>* marked = nullptr;
  switch (s.frame.phase) {
    case SgemmPhase::Load: marked = &s.trace.load_lines; break;
    case SgemmPhase::Compute: marked = &s.trace.compute_lines; break;
    case SgemmPhase::Store: marked = &s.trace.store_lines; break;
    default: break;
  }
  std::vector<int> barrier;
  const size_t which = s.frame.phase == SgemmPhase::LoadBarrier ? 0 : 1;
  if (!marked && which < s.trace.barrier_lines.size()) barrier = {s.trace.barrier_lines[which]};
  if (!marked) marked = &barrier;
  Panel panel{{"the kernel (" + s.trace.kernel + "), this phase's lines marked"}, 0};
  // From the line before the first load (the tile loop) to the store of C.
  int first = 0, last = 0;
  for (const auto* lines : {&s.trace.load_lines, &s.trace.compute_lines, &s.trace.store_lines, &s.trace.barrier_lines}) {
    for (int line : *lines) {
      first = first == 0 ? line : std::min(first, line);
      last = std::max(last, line);
    }
  }
  const std::vector<std::string> lines = split_lines(s.trace.source);
  for (int line = std::max(1, first - 1); line <= last && size_t(line) <= lines.size(); ++line) {
    const bool on = std::find(marked->begin(), marked->end(), line) != marked->end();
    panel.lines.push_back(fmt::format("{} {:>2} {}", on ? '>' : ' ', line, lines[size_t(line - 1)]));
  }
  for (const std::string& line : panel.lines) panel.width = std::max(panel.width, line.size());
  return panel;
}

// The keys, in as many words as the width allows; never left out, since it says how to quit.
std::string key_line(const SgemmView& view) {
  const std::string forms[] = {
      fmt::format("{}  -> step  b next block  +/- speed  t next thread  q quit",
                  view.playing ? "playing: space pauses" : "paused: space plays"),
      fmt::format("{}: space  -> step  b block  +/-  t thread  q quit", view.playing ? "playing" : "paused"),
      fmt::format("{}  q quit", view.playing ? "playing" : "paused"),
  };
  for (const std::string& form : forms) {
    if (form.size() <= view.width) return form;
  }
  return "q quit";
}

std::string title_line(const Scene& s, const std::vector<viz::SgemmFrame>& frames, size_t frame) {
  const viz::SgemmSize& size = s.trace.size;
  const int grid_x = (size.n + s.tile - 1) / s.tile, grid_y = (size.m + s.tile - 1) / s.tile;
  const std::string step = s.in_step() ? fmt::format("tile {}/{}", s.frame.step + 1, s.trace.steps()) : "done";
  return fmt::format("SGEMM tiling  M={} N={} K={} TILE={}  block ({},{}) of {}x{}  {}  step {}/{}", size.m, size.n,
                     size.k, s.tile, s.block.bx, s.block.by, grid_x, grid_y, step, frame + 1, frames.size());
}

// Keeps the first `count` lines of `section` (at least its heading), marking a cut.
void take(std::vector<std::string>& out, const std::vector<std::string>& section, size_t count) {
  count = std::max<size_t>(count, 1);
  for (size_t i = 0; i < std::min(count, section.size()); ++i) out.push_back(section[i]);
  if (count < section.size()) out.back() += " ...";
}

struct Sections {
  std::vector<std::string> head;
  Panel grids;
  std::vector<std::string> threads, timeline, counters;
  size_t width() const {
    size_t widest = grids.width;
    for (const std::vector<std::string>* section : {&head, &threads, &timeline, &counters}) {
      for (const std::string& line : *section) widest = std::max(widest, visible_width(line));
    }
    return widest;
  }
};

// Where the rows go. Sized for the block's longest timeline, so that nothing moves from one
// frame to the next; room to spare goes to the kernel's source (beside the frame, or below it)
// and to blank lines between the sections.
struct Layout {
  size_t rows = 0;
  bool source_beside = false;
  size_t source_rows = 0;  // below the frame, with the blank line above it
  size_t blanks = 0;       // 0 to 4
  size_t flexible = 0;     // for the thread list and the timeline
};

Layout plan(const Sections& sections, const Panel& source, const SgemmView& view, int steps) {
  const size_t fixed = sections.head.size() + sections.grids.lines.size() + sections.counters.size() +
                       (view.interactive ? 1 : 0);
  const size_t needed = fixed + sections.threads.size() + size_t(steps) + 2;
  Layout layout;
  layout.rows = view.height == 0 ? needed + 4 : view.height;
  layout.source_beside = view.height > 0 && view.width >= sections.width() + k_gap + source.width;
  if (view.height > 0 && !layout.source_beside && layout.rows >= needed + source.lines.size() + 1) {
    layout.source_rows = source.lines.size() + 1;
  }
  const size_t spare = layout.rows > needed + layout.source_rows ? layout.rows - needed - layout.source_rows : 0;
  layout.blanks = std::min<size_t>(4, spare);
  const size_t used = fixed + layout.source_rows + layout.blanks;
  layout.flexible = layout.rows > used + 2 ? layout.rows - used : 2;
  return layout;
}

// The sections one under the other; the timeline keeps its last steps, the thread list gets the rest.
std::vector<std::string> stack(Sections sections, const Layout& layout, bool unlimited) {
  auto blank_line = [&](std::vector<std::string>& lines, size_t priority) {  // after the matrices first
    if (priority < layout.blanks) lines.push_back("");
  };
  std::vector<std::string>& timeline = sections.timeline;
  const size_t left = layout.flexible;
  const size_t timeline_rows = unlimited ? timeline.size() : std::min(timeline.size(), std::max<size_t>(2, left / 2 + left % 2));
  if (timeline_rows < timeline.size()) {
    timeline.erase(timeline.begin() + 1, timeline.end() - static_cast<std::ptrdiff_t>(timeline_rows - 1));
  }
  std::vector<std::string> out = sections.head;
  blank_line(out, 1);
  out.insert(out.end(), sections.grids.lines.begin(), sections.grids.lines.end());
  blank_line(out, 0);
  take(out, sections.threads, left > timeline_rows ? left - timeline_rows : 1);
  blank_line(out, 2);
  out.insert(out.end(), timeline.begin(), timeline.end());
  blank_line(out, 3);
  out.insert(out.end(), sections.counters.begin(), sections.counters.end());
  return out;
}

// A screen too small for the frame: one sentence saying so (and what it needs) instead of a frame
// cut off at its edges, the title above it and the keys at the bottom.
std::vector<std::string> too_small(const Sections& sections, const SgemmView& view, size_t needed_width,
                                   size_t needed_rows) {
  std::vector<std::string> out{truncate_visible(sections.head.front(), view.width), ""};
  const std::string message = fmt::format(
      "terminal too small for this frame: {}x{} shows it, this one is {}x{}; enlarge it or use smaller sizes (--m "
      "--n --k --tile; 80x24 shows the default M=N=4, K=8, TILE=2)",
      needed_width, needed_rows, view.width, view.height);
  for (const std::string& line : wrap_line(message, std::max<size_t>(view.width, 10))) {
    out.push_back(truncate_visible(line, view.width));
  }
  const size_t rows = std::max<size_t>(view.height, 1);
  if (view.interactive) {
    if (out.size() + 1 > rows) out.resize(rows - 1);
    while (out.size() + 1 < rows) out.push_back("");
    out.push_back(truncate_visible(key_line(view), view.width));
  } else if (out.size() > rows) {
    out.resize(rows);
  }
  return out;
}

}  // namespace

std::vector<std::string> render_sgemm_frame(const viz::SgemmTrace& trace, const std::vector<viz::SgemmFrame>& frames,
                                            size_t frame, const SgemmView& view, const report::Style& style) {
  const Scene s = make_scene(trace, frames, frame, view);
  const Sections sections{{title_line(s, frames, frame), phase_bar(s, view, style), phase_text(s)},
                          matrices(s, view.width, style),
                          threads_section(s, view.width),
                          timeline_section(s, view.height > 0 ? view.width : 0),
                          counters_section(s)};
  if (view.height > 0) {
    // What must show whole: the heading, the matrices and tiles, the counters, one line of the
    // thread list, two of the timeline and the keys.
    size_t needed_width = sections.grids.width;
    for (const std::vector<std::string>* section : {&sections.head, &sections.counters}) {
      for (const std::string& line : *section) needed_width = std::max(needed_width, visible_width(line));
    }
    const size_t needed_rows = sections.head.size() + sections.grids.lines.size() + 1 + 2 + sections.counters.size() +
                               (view.interactive ? 1 : 0);
    if (needed_width > view.width || needed_rows > view.height) {
      return too_small(sections, view, needed_width, needed_rows);
    }
  }
  const Panel source = source_panel(s);
  const Layout layout = plan(sections, source, view, trace.steps());
  std::vector<std::string> out = stack(sections, layout, view.height == 0);
  if (layout.source_beside) {
    out = beside({Panel{out, sections.width()}, source}, k_gap).lines;
  } else if (layout.source_rows > 0) {
    while (out.size() + layout.source_rows + (view.interactive ? 1 : 0) < layout.rows) out.push_back("");
    out.push_back("");
    out.insert(out.end(), source.lines.begin(), source.lines.end());
  }
  if (view.interactive) {
    while (out.size() + 1 < layout.rows) out.push_back("");
    out.push_back(key_line(view));
  }
  if (view.height > 0) {  // a screen: nothing past its edges (printed frames are never cut)
    if (out.size() > view.height) out.resize(view.height);
    for (std::string& line : out) line = truncate_visible(line, view.width);
    if (view.interactive) out.back() = key_line(view);
  }
  return out;
}

std::string sgemm_summary(const viz::SgemmTrace& trace) {
  const viz::SgemmSize& size = trace.size;
  const double naive = 2.0 * size.m * size.n * size.k;
  auto row = [](const std::string& what, const std::string& tiled, const std::string& naive_figure) {
    return fmt::format("  {:<34}{:>18}{:>18}\n", what, tiled, naive_figure);
  };
  std::string out = fmt::format("counted on the emulator, M={} N={} K={} TILE={}, seed {}:\n", size.m, size.n, size.k,
                                size.tile, size.seed);
  out += row("", trace.kernel, "sgemmNaive");
  out += row("global loads (elements)", std::to_string(trace.tiled_global_reads),
             std::to_string(trace.naive_global_reads));
  out += row("  as the notes count them", fmt::format("2MNK/TILE = {:g}", naive / size.tile),
             fmt::format("2MNK = {:g}", naive));
  out += row("global load requests / sectors",
             fmt::format("{} / {}", trace.tiled.global_ld_requests, trace.tiled.global_ld_sectors),
             fmt::format("{} / {}", trace.naive.global_ld_requests, trace.naive.global_ld_sectors));
  out += row("shared loads (elements)", std::to_string(trace.tiled_shared_reads), "0");
  out += row("shared load wavefronts / conflicts",
             fmt::format("{} / {}", trace.tiled.shared_ld_wavefronts, trace.tiled.shared_ld_bank_conflicts), "-");
  out += row("shared store wavefronts / conflicts",
             fmt::format("{} / {}", trace.tiled.shared_st_wavefronts, trace.tiled.shared_st_bank_conflicts), "-");
  out += row("barriers (warp arrivals)", std::to_string(trace.tiled.barriers), "0");
  return out;
}

}  // namespace tilecamp::runner
