// The emulated device's global memory: named buffers at fixed, well-separated addresses, so that
// an out-of-bounds access is caught and reported against the buffer it missed.
#pragma once

#include <cstdint>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace tilecamp::emu {

// Generic-address windows. Global buffers live at k_global_base and above; shared and local
// memory appear in the generic space at these bases (cvta adds or subtracts them).
constexpr uint64_t k_global_base = 0x0000'7000'0000'0000ull;
constexpr uint64_t k_shared_window = 0x0000'1000'0000'0000ull;
constexpr uint64_t k_local_window = 0x0000'2000'0000'0000ull;
constexpr uint64_t k_window_size = 0x0000'0100'0000'0000ull;

struct DeviceBuffer {
  std::string name;
  uint64_t address = 0;
  std::vector<uint8_t> bytes;
  bool constant = false;  // a __constant__ variable: what ld.const may read
  // Instead of `bytes`: zeroed memory whose pages exist only once touched (calloc of a large size
  // maps fresh zero pages), for a sampled run's buffers of which a few blocks read a few tiles.
  std::unique_ptr<uint8_t, decltype(&std::free)> zeroed{nullptr, &std::free};
  uint64_t zeroed_size = 0;

  uint8_t* data() { return zeroed ? zeroed.get() : bytes.data(); }
  uint64_t size() const { return zeroed ? zeroed_size : bytes.size(); }
};

class DeviceMemory {
 public:
  // Returns the new buffer's device address (256-byte aligned, as cudaMalloc's are).
  uint64_t allocate(std::string name, std::vector<uint8_t> contents);
  // A buffer of `size` zero bytes, made lazily (DeviceBuffer::zeroed). An Error when it cannot be had.
  uint64_t allocate_zeroed(std::string name, uint64_t size);

  // The buffer wholly containing [address, address + size), or nullptr.
  DeviceBuffer* find(uint64_t address, uint64_t size);
  // For messages about an address outside every buffer: "element 1024 of `out` (it has 1024 ...)".
  std::string describe_miss(uint64_t address, uint64_t size) const;

  std::vector<DeviceBuffer>& buffers() { return m_buffers; }
  const std::vector<DeviceBuffer>& buffers() const { return m_buffers; }

 private:
  std::vector<DeviceBuffer> m_buffers;  // ascending addresses
  uint64_t m_next_address = k_global_base;
  // The buffer the last lookup found: a relaxed atomic, as host threads running blocks of one
  // launch look up at once (each lookup still checks the buffer holds the address).
  std::atomic<size_t> m_last_hit = 0;
};

}  // namespace tilecamp::emu
