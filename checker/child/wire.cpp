#include "checker/child/wire.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace tilecamp::child {
namespace {

constexpr uint32_t k_magic = 0x7469636bu;  // "tick"

Status write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return make_error(std::string("closed: ") + std::strerror(errno));
    data += written;
    size -= static_cast<size_t>(written);
  }
  return ok();
}

// Reads exactly `size` bytes before `deadline` (time_point::max(): no deadline).
Status read_all(int fd, char* data, size_t size, std::chrono::steady_clock::time_point deadline) {
  while (size > 0) {
    int wait_ms = -1;
    if (deadline != std::chrono::steady_clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return make_error("timeout");
      wait_ms = static_cast<int>(std::min<int64_t>(left.count(), 1 << 30));
    }
    pollfd entry{fd, POLLIN, 0};
    const int ready = ::poll(&entry, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return make_error("timeout");
    const ssize_t got = ::read(fd, data, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return make_error("closed");
    data += got;
    size -= static_cast<size_t>(got);
  }
  return ok();
}

}  // namespace

MessageWriter& MessageWriter::u32(uint32_t value) {
  m_data.append(reinterpret_cast<const char*>(&value), 4);
  return *this;
}

MessageWriter& MessageWriter::u64(uint64_t value) {
  m_data.append(reinterpret_cast<const char*>(&value), 8);
  return *this;
}

MessageWriter& MessageWriter::f64(double value) {
  m_data.append(reinterpret_cast<const char*>(&value), 8);
  return *this;
}

MessageWriter& MessageWriter::bytes(const void* data, size_t size) {
  u64(size);
  m_data.append(static_cast<const char*>(data), size);
  return *this;
}

Status MessageReader::need(size_t size, const char* what) {
  if (m_data.size() - m_position < size) return make_error(std::string("truncated message: expected ") + what);
  return ok();
}

Expected<uint32_t> MessageReader::u32() {
  TC_TRY(need(4, "a 32-bit integer"));
  uint32_t value;
  std::memcpy(&value, m_data.data() + m_position, 4);
  m_position += 4;
  return value;
}

Expected<uint64_t> MessageReader::u64() {
  TC_TRY(need(8, "a 64-bit integer"));
  uint64_t value;
  std::memcpy(&value, m_data.data() + m_position, 8);
  m_position += 8;
  return value;
}

Expected<double> MessageReader::f64() {
  TC_TRY(need(8, "a double"));
  double value;
  std::memcpy(&value, m_data.data() + m_position, 8);
  m_position += 8;
  return value;
}

Expected<std::vector<uint8_t>> MessageReader::bytes() {
  TC_TRY_ASSIGN(uint64_t size, u64());
  TC_TRY(need(size, "a byte string"));
  std::vector<uint8_t> value(m_data.begin() + static_cast<std::ptrdiff_t>(m_position),
                             m_data.begin() + static_cast<std::ptrdiff_t>(m_position + size));
  m_position += size;
  return value;
}

Expected<std::string> MessageReader::text() {
  TC_TRY_ASSIGN(uint64_t size, u64());
  TC_TRY(need(size, "a string"));
  std::string value = m_data.substr(m_position, size);
  m_position += size;
  return value;
}

Status write_frame(int fd, const std::string& message) {
  const uint64_t header[2] = {k_magic, message.size()};
  TC_TRY(write_all(fd, reinterpret_cast<const char*>(header), sizeof header));
  return write_all(fd, message.data(), message.size());
}

Expected<std::string> read_frame(int fd, int64_t timeout_ms, uint64_t max_bytes) {
  const auto deadline = timeout_ms < 0 ? std::chrono::steady_clock::time_point::max()
                                       : std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  uint64_t header[2];
  TC_TRY(read_all(fd, reinterpret_cast<char*>(header), sizeof header, deadline));
  if (header[0] != k_magic) return make_error("closed: not a tilecamp worker message");
  if (header[1] > max_bytes) return make_error("too large: a reply of " + std::to_string(header[1]) + " bytes");
  std::string message(header[1], '\0');
  TC_TRY(read_all(fd, message.data(), message.size(), deadline));
  return message;
}

}  // namespace tilecamp::child
