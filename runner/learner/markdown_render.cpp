#include "runner/learner/markdown_render.h"

#include <cmark.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>

#include "runner/learner/ansi_text.h"
#include "runner/learner/code_highlight.h"

namespace tilecamp::runner {
namespace {

using Document = std::unique_ptr<cmark_node, void (*)(cmark_node*)>;

Document parse(std::string_view text) {
  return Document(cmark_parse_document(text.data(), text.size(), CMARK_OPT_DEFAULT), cmark_node_free);
}

std::string literal(cmark_node* node) {
  const char* text = cmark_node_get_literal(node);
  return text ? text : "";
}

std::string repeat(std::string_view text, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += text;
  return out;
}

std::string join_codes(const std::vector<std::string>& codes) {
  std::string joined;
  for (const std::string& code : codes) joined += (joined.empty() ? "" : ";") + code;
  return joined;
}

// Bytes of the first `columns` code points of plain `text`.
size_t prefix_bytes(std::string_view text, size_t columns) {
  size_t i = 0;
  for (size_t seen = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xc0) == 0x80) continue;
    if (seen++ == columns) break;
  }
  return i;
}

struct Piece {
  std::string text;
  std::string codes;  // SGR parameters for the piece
};

// What wrapping moves as one: pieces with no space between them ("`code`," is two), or a hard
// line break.
struct Word {
  std::vector<Piece> pieces;
  size_t width = 0;
  bool line_break = false;
};

class InlineWords {
 public:
  void text(std::string_view text, const std::string& codes) {
    size_t i = 0;
    while (i < text.size()) {
      if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n') {
        m_glue = false;
        ++i;
        continue;
      }
      size_t end = text.find_first_of(" \t\n", i);
      if (end == std::string_view::npos) end = text.size();
      if (!m_glue || m_words.empty() || m_words.back().line_break) m_words.emplace_back();
      m_words.back().pieces.push_back({std::string(text.substr(i, end - i)), codes});
      m_words.back().width += visible_width(text.substr(i, end - i));
      m_glue = true;
      i = end;
    }
  }
  // A code span: one word even with spaces in it, so that `i < n` never breaks across lines.
  void unbroken(std::string_view text, const std::string& codes) {
    if (!m_glue || m_words.empty() || m_words.back().line_break) m_words.emplace_back();
    m_words.back().pieces.push_back({std::string(text), codes});
    m_words.back().width += visible_width(text);
    m_glue = true;
  }
  void space() { m_glue = false; }
  void line_break() {
    m_words.push_back({{}, 0, true});
    m_glue = false;
  }
  const std::vector<Word>& words() const { return m_words; }

 private:
  std::vector<Word> m_words;
  bool m_glue = false;
};

size_t natural_width(const std::vector<Word>& words) {
  size_t widest = 0, line = 0;
  for (const Word& word : words) {
    if (word.line_break) {
      line = 0;
      continue;
    }
    line += (line > 0 ? 1 : 0) + word.width;
    widest = std::max(widest, line);
  }
  return widest;
}

class Renderer {
 public:
  Renderer(std::string_view source, const MarkdownOptions& options)
      : m_source_lines(split_lines(source)), m_options(options) {}

  std::vector<std::string> blocks(cmark_node* parent, size_t width, bool tight = false);
  void inlines(cmark_node* parent, InlineWords& words, std::vector<std::string>& codes);
  std::vector<std::string> wrap(const std::vector<Word>& words, size_t width) const;

 private:
  std::vector<std::string> block(cmark_node* node, size_t width);
  std::vector<std::string> heading(cmark_node* node, size_t width);
  std::vector<std::string> code_block(cmark_node* node, size_t width) const;
  std::vector<std::string> block_quote(cmark_node* node, size_t width);
  std::vector<std::string> list(cmark_node* node, size_t width);
  std::optional<std::vector<std::string>> table(cmark_node* paragraph, size_t width);
  std::vector<Word> cell_words(std::string_view cell, const std::vector<std::string>& base_codes);
  void link(cmark_node* node, InlineWords& words, std::vector<std::string>& codes);
  std::string style(std::string_view codes, std::string_view text) const {
    return m_options.color ? sgr(codes, text) : std::string(text);
  }

  std::vector<std::string> m_source_lines;
  MarkdownOptions m_options;
};

std::vector<std::string> Renderer::wrap(const std::vector<Word>& words, size_t width) const {
  std::vector<std::string> lines;
  std::string line;
  size_t used = 0;
  auto flush = [&] {
    lines.push_back(line);
    line.clear();
    used = 0;
  };
  for (const Word& word : words) {
    if (word.line_break) {
      flush();
      continue;
    }
    if (used > 0 && used + 1 + word.width > width) flush();
    if (used > 0) {
      line += ' ';
      ++used;
    }
    for (const Piece& piece : word.pieces) {
      std::string_view rest = piece.text;
      while (!rest.empty()) {  // only a word wider than the whole line is cut
        if (used == width) flush();
        const size_t bytes = prefix_bytes(rest, width - used);
        line += style(piece.codes, rest.substr(0, bytes));
        used += visible_width(rest.substr(0, bytes));
        rest.remove_prefix(bytes);
      }
    }
  }
  if (used > 0) flush();
  return lines;
}

std::vector<std::string> Renderer::blocks(cmark_node* parent, size_t width, bool tight) {
  std::vector<std::string> out;
  for (cmark_node* child = cmark_node_first_child(parent); child; child = cmark_node_next(child)) {
    std::vector<std::string> lines = block(child, width);
    if (lines.empty()) continue;
    if (!out.empty() && !tight) out.emplace_back();
    out.insert(out.end(), lines.begin(), lines.end());
  }
  return out;
}

std::vector<std::string> Renderer::block(cmark_node* node, size_t width) {
  switch (cmark_node_get_type(node)) {
    case CMARK_NODE_PARAGRAPH: {
      if (auto lines = table(node, width)) return *lines;
      InlineWords words;
      std::vector<std::string> codes;
      inlines(node, words, codes);
      return wrap(words.words(), width);
    }
    case CMARK_NODE_HEADING: return heading(node, width);
    case CMARK_NODE_CODE_BLOCK: return code_block(node, width);
    case CMARK_NODE_BLOCK_QUOTE: return block_quote(node, width);
    case CMARK_NODE_LIST: return list(node, width);
    case CMARK_NODE_THEMATIC_BREAK: return {style("2", repeat(m_options.color ? "─" : "-", width))};
    case CMARK_NODE_HTML_BLOCK: {
      const std::string html = literal(node);
      if (html.find_first_not_of(" \t") != std::string::npos && html.substr(html.find_first_not_of(" \t")).starts_with("<!--")) {
        return {};  // the lessons' markers for the tests
      }
      return split_lines(html);
    }
    default: return blocks(node, width);
  }
}

std::vector<std::string> Renderer::heading(cmark_node* node, size_t width) {
  const int level = cmark_node_get_heading_level(node);
  std::vector<std::string> codes = {"1"};
  if (level <= 2) codes.push_back("36");
  InlineWords words;
  inlines(node, words, codes);
  std::vector<std::string> lines = wrap(words.words(), width);
  if (level <= 2 && !lines.empty()) {
    size_t widest = 0;
    for (const std::string& line : lines) widest = std::max(widest, visible_width(line));
    const char* rule = m_options.color ? (level == 1 ? "═" : "─") : (level == 1 ? "=" : "-");
    lines.push_back(style("2", repeat(rule, widest)));
  }
  return lines;
}

// Code keeps its lines: indented when the block fits with the indent, cut only when a line is
// wider than the whole width.
std::vector<std::string> Renderer::code_block(cmark_node* node, size_t width) const {
  const char* info = cmark_node_get_fence_info(node);
  const CodeLanguage language = code_language(info ? info : "");
  const std::vector<std::string> source = split_lines(literal(node));
  size_t longest = 0;
  for (const std::string& line : source) longest = std::max(longest, visible_width(line));
  const size_t indent = longest + 4 <= width ? 4 : longest + 2 <= width ? 2 : 0;
  std::vector<std::string> out;
  bool in_comment = false;
  for (const std::string& line : source) {
    for (const std::string& piece : line.empty() ? std::vector<std::string>{""} : split_columns(line, width - indent)) {
      if (piece.empty()) {
        out.emplace_back();
        continue;
      }
      out.push_back(std::string(indent, ' ') + (m_options.color ? highlight_line(piece, language, in_comment) : piece));
    }
  }
  return out;
}

std::vector<std::string> Renderer::block_quote(cmark_node* node, size_t width) {
  const std::string bar = m_options.color ? style("2", "│") : ">";
  std::vector<std::string> lines = blocks(node, width > 4 ? width - 2 : 2);
  for (std::string& line : lines) line = line.empty() ? bar : bar + " " + line;
  return lines;
}

std::vector<std::string> Renderer::list(cmark_node* node, size_t width) {
  const bool ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST;
  const bool tight = cmark_node_get_list_tight(node) != 0;
  const std::string delimiter = cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM ? ")" : ".";
  int number = cmark_node_get_list_start(node);
  size_t items = 0;
  for (cmark_node* item = cmark_node_first_child(node); item; item = cmark_node_next(item)) ++items;
  const size_t marker_width = ordered ? std::to_string(number + static_cast<int>(items) - 1).size() + 1 : 1;
  const size_t indent = marker_width + 1;
  std::vector<std::string> out;
  for (cmark_node* item = cmark_node_first_child(node); item; item = cmark_node_next(item), ++number) {
    std::string marker = ordered ? std::to_string(number) + delimiter : (m_options.color ? "•" : "-");
    marker = std::string(marker_width - visible_width(marker), ' ') + style("36", marker);
    std::vector<std::string> lines = blocks(item, width > indent + 10 ? width - indent : 10, tight);
    if (!out.empty() && !tight) out.emplace_back();
    if (lines.empty()) out.push_back(marker);
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].empty()) {
        out.emplace_back();
      } else {
        out.push_back((i == 0 ? marker + " " : std::string(indent, ' ')) + lines[i]);
      }
    }
  }
  return out;
}

void Renderer::link(cmark_node* node, InlineWords& words, std::vector<std::string>& codes) {
  codes.push_back("4");
  inlines(node, words, codes);
  codes.pop_back();
  const char* url = cmark_node_get_url(node);
  std::string shown;
  for (cmark_node* child = cmark_node_first_child(node); child; child = cmark_node_next(child)) shown += literal(child);
  if (url && url[0] != '\0' && shown != url && "mailto:" + shown != url) {
    words.space();
    words.text("(" + std::string(url) + ")", "2");
  }
}

void Renderer::inlines(cmark_node* parent, InlineWords& words, std::vector<std::string>& codes) {
  for (cmark_node* node = cmark_node_first_child(parent); node; node = cmark_node_next(node)) {
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_TEXT: words.text(literal(node), join_codes(codes)); break;
      case CMARK_NODE_SOFTBREAK: words.space(); break;
      case CMARK_NODE_LINEBREAK: words.line_break(); break;
      case CMARK_NODE_CODE:
        if (m_options.color) {
          codes.push_back("36");
          words.unbroken(literal(node), join_codes(codes));
          codes.pop_back();
        } else {
          words.unbroken("`" + literal(node) + "`", "");
        }
        break;
      case CMARK_NODE_EMPH:
        codes.push_back("3");
        inlines(node, words, codes);
        codes.pop_back();
        break;
      case CMARK_NODE_STRONG:
        codes.push_back("1");
        inlines(node, words, codes);
        codes.pop_back();
        break;
      case CMARK_NODE_LINK: link(node, words, codes); break;
      case CMARK_NODE_IMAGE:
        words.text("[image:", "2");
        words.space();
        inlines(node, words, codes);
        words.text("]", "2");
        break;
      case CMARK_NODE_HTML_INLINE:
        if (!literal(node).starts_with("<!--")) words.text(literal(node), join_codes(codes));
        break;
      default: inlines(node, words, codes); break;
    }
  }
}

// --- pipe tables ---------------------------------------------------------------------------

enum class Align { Left, Right, Center };

// The cells of `| a | b |`: split at unescaped pipes, `\|` kept as a pipe, trimmed.
std::vector<std::string> split_row(std::string_view row) {
  while (!row.empty() && (row.back() == ' ' || row.back() == '\t' || row.back() == '\r')) row.remove_suffix(1);
  if (row.starts_with("|")) row.remove_prefix(1);
  if (row.ends_with("|") && !row.ends_with("\\|")) row.remove_suffix(1);
  std::vector<std::string> cells(1);
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cells.back() += '|';
      ++i;
    } else if (row[i] == '|') {
      cells.emplace_back();
    } else {
      cells.back() += row[i];
    }
  }
  for (std::string& cell : cells) {
    const size_t first = cell.find_first_not_of(" \t");
    cell = first == std::string::npos ? "" : cell.substr(first, cell.find_last_not_of(" \t") - first + 1);
  }
  return cells;
}

std::optional<std::vector<Align>> delimiter_row(const std::vector<std::string>& cells) {
  std::vector<Align> aligns;
  for (const std::string& cell : cells) {
    const bool left = cell.starts_with(":"), right = cell.size() > 1 && cell.ends_with(":");
    const std::string dashes = cell.substr(left ? 1 : 0, cell.size() - (left ? 1 : 0) - (right ? 1 : 0));
    if (dashes.empty() || dashes.find_first_not_of('-') != std::string::npos) return std::nullopt;
    aligns.push_back(left && right ? Align::Center : right ? Align::Right : Align::Left);
  }
  return aligns;
}

std::string aligned(const std::string& text, size_t width, Align align) {
  const size_t used = visible_width(text), free = used < width ? width - used : 0;
  switch (align) {
    case Align::Left: return text + std::string(free, ' ');
    case Align::Right: return std::string(free, ' ') + text;
    case Align::Center: return std::string(free / 2, ' ') + text + std::string(free - free / 2, ' ');
  }
  return text;
}

// Shrinks the widest columns until the row fits `available`, none below 6 columns (or its
// natural width); cells then wrap inside their column.
std::vector<size_t> column_widths(const std::vector<std::vector<std::vector<Word>>>& rows, size_t columns, size_t available) {
  std::vector<size_t> widths(columns, 1);
  for (const auto& row : rows) {
    for (size_t c = 0; c < columns; ++c) widths[c] = std::max(widths[c], natural_width(row[c]));
  }
  const std::vector<size_t> floors = [&] {
    std::vector<size_t> f;
    for (size_t width : widths) f.push_back(std::min<size_t>(width, 6));
    return f;
  }();
  while (std::accumulate(widths.begin(), widths.end(), size_t{0}) > available) {
    size_t widest = columns;
    for (size_t c = 0; c < columns; ++c) {
      if (widths[c] > floors[c] && (widest == columns || widths[c] > widths[widest])) widest = c;
    }
    if (widest == columns) break;
    --widths[widest];
  }
  return widths;
}

std::vector<Word> Renderer::cell_words(std::string_view cell, const std::vector<std::string>& base_codes) {
  InlineWords words;
  std::vector<std::string> codes = base_codes;
  Document document = parse(cell);
  cmark_node* first = document ? cmark_node_first_child(document.get()) : nullptr;
  if (first && cmark_node_get_type(first) == CMARK_NODE_PARAGRAPH) {
    inlines(first, words, codes);
  } else {
    words.text(cell, join_codes(codes));
  }
  return words.words();
}

std::optional<std::vector<std::string>> Renderer::table(cmark_node* paragraph, size_t width) {
  const int first = cmark_node_get_start_line(paragraph), last = cmark_node_get_end_line(paragraph);
  if (first < 1 || last <= first || static_cast<size_t>(last) > m_source_lines.size()) return std::nullopt;
  std::vector<std::vector<std::string>> cells;
  for (int number = first; number <= last; ++number) {
    const std::string_view line = m_source_lines[number - 1];
    const size_t start = line.find_first_not_of(" \t>");  // inside a block quote or a list item
    if (start == std::string_view::npos || line[start] != '|') return std::nullopt;
    cells.push_back(split_row(line.substr(start)));
  }
  const auto aligns = delimiter_row(cells[1]);
  if (!aligns || aligns->size() != cells[0].size()) return std::nullopt;
  const size_t columns = aligns->size();
  std::vector<std::vector<std::vector<Word>>> rows;
  for (size_t r = 0; r < cells.size(); ++r) {
    if (r == 1) continue;
    cells[r].resize(columns);
    std::vector<std::vector<Word>> row;
    for (const std::string& cell : cells[r]) row.push_back(cell_words(cell, r == 0 ? std::vector<std::string>{"1"} : std::vector<std::string>{}));
    rows.push_back(std::move(row));
  }
  const std::string gap = "  ";
  const size_t gaps = gap.size() * (columns - 1);
  const std::vector<size_t> widths = column_widths(rows, columns, width > gaps ? width - gaps : columns);
  std::vector<std::string> out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::vector<std::string>> wrapped;
    size_t height = 1;
    for (size_t c = 0; c < columns; ++c) {
      wrapped.push_back(wrap(rows[r][c], widths[c]));
      height = std::max(height, wrapped.back().size());
    }
    for (size_t i = 0; i < height; ++i) {
      std::string line;
      for (size_t c = 0; c < columns; ++c) {
        const std::string text = i < wrapped[c].size() ? wrapped[c][i] : "";
        const bool last_left = c + 1 == columns && (*aligns)[c] == Align::Left;
        line += (c > 0 ? gap : "") + (last_left ? text : aligned(text, widths[c], (*aligns)[c]));
      }
      out.push_back(line.substr(0, line.find_last_not_of(' ') + 1));
    }
    if (r == 0) {
      std::string rule;
      for (size_t c = 0; c < columns; ++c) rule += (c > 0 ? gap : "") + repeat(m_options.color ? "─" : "-", widths[c]);
      out.push_back(style("2", rule));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> render_markdown(std::string_view markdown, const MarkdownOptions& options) {
  Document document = parse(markdown);
  if (!document) return split_lines(markdown);
  Renderer renderer(markdown, options);
  return renderer.blocks(document.get(), std::max<size_t>(options.width, 20));
}

std::vector<std::string> render_inline_paragraph(std::string_view markdown, const MarkdownOptions& options,
                                                 std::string_view first_prefix, std::string_view prefix) {
  Document document = parse(markdown);
  Renderer renderer(markdown, options);
  InlineWords words;
  std::vector<std::string> codes;
  for (cmark_node* block = document ? cmark_node_first_child(document.get()) : nullptr; block; block = cmark_node_next(block)) {
    words.space();
    renderer.inlines(block, words, codes);
  }
  const size_t indent = std::max(visible_width(first_prefix), visible_width(prefix));
  std::vector<std::string> lines = renderer.wrap(words.words(), std::max<size_t>(options.width, indent + 20) - indent);
  for (size_t i = 0; i < lines.size(); ++i) lines[i] = std::string(i == 0 ? first_prefix : prefix) + lines[i];
  return lines;
}

}  // namespace tilecamp::runner
