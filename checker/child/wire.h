// The messages between tilecamp and its child processes (the GPU worker, the sandbox):
// length-prefixed frames over a pipe, each a sequence of fixed-width integers, byte strings and
// doubles. Both ends are the same build of tilecamp, so the format has no versioning beyond a magic
// number. A frame from a sandboxed child is untrusted: every read is bounds-checked and a frame's
// size is capped before anything is allocated for it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/util/expected.h"

namespace tilecamp::child {

class MessageWriter {
 public:
  MessageWriter& u32(uint32_t value);
  MessageWriter& u64(uint64_t value);
  MessageWriter& f64(double value);
  MessageWriter& bytes(const void* data, size_t size);
  MessageWriter& text(const std::string& value) { return bytes(value.data(), value.size()); }
  MessageWriter& bytes(const std::vector<uint8_t>& value) { return bytes(value.data(), value.size()); }
  const std::string& data() const { return m_data; }
  void reserve(size_t bytes) { m_data.reserve(bytes); }

 private:
  std::string m_data;
};

class MessageReader {
 public:
  explicit MessageReader(std::string data) : m_data(std::move(data)) {}
  // Each read fails (an Error naming what was expected) on a truncated message.
  Expected<uint32_t> u32();
  Expected<uint64_t> u64();
  Expected<double> f64();
  Expected<std::vector<uint8_t>> bytes();
  Expected<std::string> text();
  bool at_end() const { return m_position == m_data.size(); }
  // Frees what is left unread (a large request, once its contents are copied out).
  void discard() { std::string().swap(m_data); m_position = 0; }

 private:
  Status need(size_t size, const char* what);
  std::string m_data;
  size_t m_position = 0;
};

// Writes one frame: its length, then the message. An Error when the other end is gone.
Status write_frame(int fd, const std::string& message);
inline constexpr uint64_t k_default_max_frame = uint64_t{8} << 30;

// Reads one frame, waiting at most `timeout_ms` (negative: forever). An Error says whether the
// wait timed out ("timeout"), the other end closed the pipe ("closed") or sent more than
// `max_bytes` ("too large").
Expected<std::string> read_frame(int fd, int64_t timeout_ms, uint64_t max_bytes = k_default_max_frame);

}  // namespace tilecamp::child
