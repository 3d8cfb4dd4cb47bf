// Calls the emulator implements itself: vprintf (printf in a kernel) and __assertfail (assert).
// Calls of defined device functions never get here: the inliner expanded them.
#include <bit>
#include <cstdio>
#include <cstring>

#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

using ptx::Instruction;

namespace {

constexpr size_t k_max_string_bytes = 4096;

// One conversion of a printf format: "%-8.3lf" -> its text, the argument's size and kind.
struct Conversion {
  std::string spec;
  char kind = 0;       // d i u x X o c f F e E g G a A s p
  uint32_t bytes = 0;  // size of the argument in vprintf's buffer
};

bool parse_conversion(const std::string& format, size_t& i, Conversion& conversion) {
  const size_t start = i++;  // at '%'
  while (i < format.size() && std::strchr("-+ #0", format[i])) ++i;
  while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
  if (i < format.size() && format[i] == '.') {
    ++i;
    while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
  }
  bool wide = false;
  while (i < format.size() && std::strchr("hlLqjzt", format[i])) wide |= format[i++] != 'h';
  if (i >= format.size()) return false;
  conversion.kind = format[i++];
  std::string spec = format.substr(start, i - start);
  std::string cleaned;  // drop length modifiers: the value is passed at its full width below
  for (char c : spec) {
    if (!std::strchr("hlLqjzt", c)) cleaned += c;
  }
  switch (conversion.kind) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
      conversion.bytes = wide ? 8 : 4;
      cleaned.insert(cleaned.size() - 1, "ll");
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      conversion.bytes = 8;
      break;
    case 's': case 'p':
      conversion.bytes = 8;
      break;
    default:
      return false;
  }
  conversion.spec = cleaned;
  return true;
}

}  // namespace

uint8_t* KernelRun::call_parameter(Warp& warp, const Instruction& in, int32_t symbol, int lane) {
  const ptx::Symbol& s = m_module.symbols[symbol];
  return resolve(warp, in, ptx::Space::Local, s.offset, static_cast<uint32_t>(s.size), lane);
}

bool KernelRun::read_c_string(Warp& warp, const Instruction& in, int lane, uint64_t address, std::string& text) {
  for (size_t n = 0; n < k_max_string_bytes; ++n) {
    const uint8_t* byte = resolve_generic(warp, in, address + n, 1, lane);
    if (byte == nullptr) return false;
    if (*byte == 0) return true;
    text += static_cast<char>(*byte);
  }
  return true;
}

// Formats one lane's printf: the format string and a buffer of arguments, each aligned to its size.
bool KernelRun::print(Warp& warp, const Instruction& in, int lane, std::string& text) {
  const ptx::CallSite& site = m_function.calls[in.call];
  uint64_t format_address = 0, buffer = 0;
  const uint8_t* format_pointer = call_parameter(warp, in, site.arguments.at(0), lane);
  const uint8_t* buffer_pointer = format_pointer ? call_parameter(warp, in, site.arguments.at(1), lane) : nullptr;
  if (buffer_pointer == nullptr) return false;
  std::memcpy(&format_address, format_pointer, 8);
  std::memcpy(&buffer, buffer_pointer, 8);
  std::string format;
  if (!read_c_string(warp, in, lane, format_address, format)) return false;
  uint64_t offset = 0;
  for (size_t i = 0; i < format.size();) {
    if (format[i] != '%') {
      text += format[i++];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      text += '%';
      i += 2;
      continue;
    }
    Conversion conversion;
    if (!parse_conversion(format, i, conversion)) {
      text += "<unsupported printf conversion>";
      break;
    }
    offset = (offset + conversion.bytes - 1) / conversion.bytes * conversion.bytes;
    const uint8_t* argument = resolve_generic(warp, in, buffer + offset, conversion.bytes, lane);
    if (argument == nullptr) return false;
    offset += conversion.bytes;
    uint64_t raw = 0;
    std::memcpy(&raw, argument, conversion.bytes);
    char piece[512];
    if (std::strchr("fFeEgGaA", conversion.kind)) {
      double value;
      std::memcpy(&value, &raw, 8);
      std::snprintf(piece, sizeof piece, conversion.spec.c_str(), value);
    } else if (conversion.kind == 's') {
      std::string string;
      if (!read_c_string(warp, in, lane, raw, string)) return false;
      std::snprintf(piece, sizeof piece, conversion.spec.c_str(), string.c_str());
    } else if (conversion.kind == 'p') {
      std::snprintf(piece, sizeof piece, "0x%llx", static_cast<unsigned long long>(raw));
    } else {
      const bool is_signed = conversion.kind == 'd' || conversion.kind == 'i';
      long long value = conversion.bytes == 4 ? (is_signed ? static_cast<int32_t>(raw) : static_cast<uint32_t>(raw))
                                              : static_cast<long long>(raw);
      std::snprintf(piece, sizeof piece, conversion.spec.c_str(), value);
    }
    text += piece;
  }
  return true;
}

void KernelRun::call_extern(Warp& warp, const Instruction& in, uint32_t lanes) {
  const ptx::CallSite& site = m_function.calls[in.call];
  if (site.callee == "vprintf" && site.arguments.size() == 2) {
    for (int lane = 0; lane < k_warp_size && !m_failed; ++lane) {
      if (!(lanes >> lane & 1u)) continue;
      std::string text;
      if (!print(warp, in, lane, text)) return;
      if (!site.results.empty()) {
        if (uint8_t* result = call_parameter(warp, in, site.results[0], lane)) {
          const int32_t length = static_cast<int32_t>(text.size());
          std::memcpy(result, &length, 4);
        }
      }
      if (m_printed_bytes + text.size() > k_max_printed_bytes) {
        if (m_printed_bytes <= k_max_printed_bytes) text = "[tilecamp: printf output stops here: more than 1 MiB]\n";
        else continue;
      }
      m_printed_bytes += text.size();
      m_printed.push_back({m_block_linear, warp.index, m_printed.size(), std::move(text)});
    }
    return;
  }
  if (site.callee == "__assertfail" && site.arguments.size() >= 3) {
    const int lane = std::countr_zero(lanes);
    uint64_t message_address = 0;
    uint32_t line = 0;
    const uint8_t* message = call_parameter(warp, in, site.arguments[0], lane);
    const uint8_t* line_pointer = message ? call_parameter(warp, in, site.arguments[2], lane) : nullptr;
    if (line_pointer == nullptr) return;
    std::memcpy(&message_address, message, 8);
    std::memcpy(&line, line_pointer, 4);
    std::string expression;
    if (!read_c_string(warp, in, lane, message_address, expression)) return;
    Instruction located = in;
    if (line > 0) located.location.line = static_cast<int>(line);
    fail(located, "assert",
         "assertion `" + expression + "` failed in " + thread_name(warp, lane) +
             (std::popcount(lanes) > 1 ? " (and " + std::to_string(std::popcount(lanes) - 1) + " more threads of its warp)" : ""));
    return;
  }
  fail(in, "unsupported", "tilecamp's emulator cannot call the external function `" + site.callee + "`");
}

}  // namespace tilecamp::emu
