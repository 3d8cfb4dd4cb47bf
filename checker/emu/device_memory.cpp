#include "checker/emu/device_memory.h"

#include <algorithm>

namespace tilecamp::emu {
namespace {

// A gap after each buffer so that running off its end never lands in the next one.
constexpr uint64_t k_guard_bytes = 1ull << 20;

}  // namespace

uint64_t DeviceMemory::allocate(std::string name, std::vector<uint8_t> contents) {
  const uint64_t address = m_next_address;
  const uint64_t size = contents.size();
  m_next_address = (address + size + k_guard_bytes + 255) / 256 * 256;
  m_buffers.push_back({std::move(name), address, std::move(contents)});
  return address;
}

DeviceBuffer* DeviceMemory::find(uint64_t address, uint64_t size) {
  auto contains = [&](const DeviceBuffer& buffer) {
    return address >= buffer.address && address + size <= buffer.address + buffer.bytes.size() &&
           address + size >= address;
  };
  if (m_last_hit < m_buffers.size() && contains(m_buffers[m_last_hit])) {
    return &m_buffers[m_last_hit];
  }
  auto it = std::upper_bound(m_buffers.begin(), m_buffers.end(), address,
                             [](uint64_t a, const DeviceBuffer& b) { return a < b.address; });
  if (it == m_buffers.begin()) return nullptr;
  --it;
  if (!contains(*it)) return nullptr;
  m_last_hit = static_cast<size_t>(it - m_buffers.begin());
  return &*it;
}

std::string DeviceMemory::describe_miss(uint64_t address, uint64_t size) const {
  const DeviceBuffer* nearest = nullptr;
  for (const DeviceBuffer& buffer : m_buffers) {
    if (buffer.address <= address) nearest = &buffer;
  }
  if (nearest == nullptr || address - nearest->address > k_guard_bytes + nearest->bytes.size()) {
    if (address < 4096) return "address " + std::to_string(address) + " (a null pointer?)";
    return "an address outside every buffer";
  }
  const uint64_t offset = address - nearest->address;
  if (offset < nearest->bytes.size()) {  // starts inside, runs past the end
    return "byte " + std::to_string(offset) + " of `" + nearest->name + "` (" +
           std::to_string(size) + " bytes; the buffer has " +
           std::to_string(nearest->bytes.size()) + ")";
  }
  return std::to_string(offset - nearest->bytes.size()) + " bytes past the end of `" +
         nearest->name + "` (" + std::to_string(nearest->bytes.size()) + " bytes)";
}

}  // namespace tilecamp::emu
