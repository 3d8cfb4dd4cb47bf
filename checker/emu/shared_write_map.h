// Which bytes of a block's shared memory some thread of the block has written: by a store, an
// atomic or a cp.async that landed. A load of any other byte reads what the previous block on the
// SM left there, garbage on a GPU; KernelRun warns about it (kind "uninitialized-shared").
//
// One flag byte per shared byte, reset at every block start. Most kernels have written all of
// their shared variables by their first barrier: from the barrier that finds it so, the map is off
// for the rest of the block, and loads and stores pay one test.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace tilecamp::emu {

class SharedWriteMap {
 public:
  // Once per launch: `ignored` has a byte per byte of shared memory, 1 where no load of the kernel
  // can reach (the other kernels' variables of the module, padding); those count as written.
  void set_ignored(std::vector<uint8_t> ignored) { m_ignored = std::move(ignored); }
  void start_block() {
    m_written.assign(m_ignored.begin(), m_ignored.end());
    m_all_written = false;
    note_barrier();
  }
  // At a barrier (and a block start): stop tracking if every byte has been written.
  void note_barrier() {
    if (!m_all_written) m_all_written = std::memchr(m_written.data(), 0, m_written.size()) == nullptr;
  }
  bool all_written() const { return m_all_written; }

  // [address, address + bytes) lies within the block's shared memory (the emulator checked it).
  void mark(uint64_t address, uint32_t bytes) {
    if (bytes == 4) {
      std::memcpy(m_written.data() + address, &k_four_written, 4);
    } else {
      std::memset(m_written.data() + address, 1, bytes);
    }
  }
  template <typename Addresses>  // LaneAddresses
  void mark(const Addresses& addresses, uint32_t lanes, uint32_t bytes) {
    if (m_all_written) return;
    for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) mark(addresses[std::countr_zero(rest)], bytes);
  }

  // Every lane's [address, address + bytes) was written: the common answer, found without a
  // branch per lane for 4-byte accesses.
  template <typename Addresses>  // LaneAddresses
  bool all_written(const Addresses& addresses, uint32_t lanes, uint32_t bytes) const {
    if (m_all_written) return true;
    if (bytes != 4) {
      for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
        if (first_unwritten(addresses[std::countr_zero(rest)], bytes)) return false;
      }
      return true;
    }
    uint32_t all = k_four_written;
    for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
      uint32_t four;
      std::memcpy(&four, m_written.data() + addresses[std::countr_zero(rest)], 4);
      all &= four;
    }
    return all == k_four_written;
  }

  // The first byte of [address, address + bytes) that no thread wrote, if any.
  std::optional<uint64_t> first_unwritten(uint64_t address, uint32_t bytes) const {
    const uint8_t* flags = m_written.data() + address;
    for (uint32_t i = 0; i < bytes; ++i) {
      if (flags[i] == 0) return address + i;
    }
    return std::nullopt;
  }

 private:
  static constexpr uint32_t k_four_written = 0x01010101u;
  std::vector<uint8_t> m_ignored;
  std::vector<uint8_t> m_written;  // 1: some thread of the block wrote the byte, or it is ignored
  bool m_all_written = false;
};

}  // namespace tilecamp::emu
