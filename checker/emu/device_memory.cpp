#include "checker/emu/device_memory.h"

#include <algorithm>
#include <new>

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

uint64_t DeviceMemory::allocate_zeroed(std::string name, uint64_t size) {
  const uint64_t address = allocate(std::move(name), {});
  DeviceBuffer& buffer = m_buffers.back();
  buffer.zeroed.reset(static_cast<uint8_t*>(std::calloc(size, 1)));
  if (!buffer.zeroed) throw std::bad_alloc();  // the sandbox reports it as the memory limit
  buffer.zeroed_size = size;
  m_next_address = (address + size + k_guard_bytes + 255) / 256 * 256;
  return address;
}

DeviceBuffer* DeviceMemory::find(uint64_t address, uint64_t size) {
  auto contains = [&](const DeviceBuffer& buffer) {
    return address >= buffer.address && address + size <= buffer.address + buffer.size() &&
           address + size >= address;
  };
  const size_t last_hit = m_last_hit.load(std::memory_order_relaxed);
  if (last_hit < m_buffers.size() && contains(m_buffers[last_hit])) return &m_buffers[last_hit];
  auto it = std::upper_bound(m_buffers.begin(), m_buffers.end(), address,
                             [](uint64_t a, const DeviceBuffer& b) { return a < b.address; });
  if (it == m_buffers.begin()) return nullptr;
  --it;
  if (!contains(*it)) return nullptr;
  m_last_hit.store(static_cast<size_t>(it - m_buffers.begin()), std::memory_order_relaxed);
  return &*it;
}

// Names the miss in the buffer's own terms, taking the access size as the element size:
// "element 1024 of `out` (it has 1024 elements of 4 bytes, indices 0 to 1023)".
std::string DeviceMemory::describe_miss(uint64_t address, uint64_t size) const {
  const DeviceBuffer* best = nullptr;
  uint64_t best_distance = UINT64_MAX;
  for (const DeviceBuffer& buffer : m_buffers) {
    const uint64_t end = buffer.address + buffer.size();
    const uint64_t distance = address < buffer.address ? buffer.address - address : address >= end ? address - end : 0;
    if (distance < best_distance) {
      best_distance = distance;
      best = &buffer;
    }
  }
  if (best == nullptr || best_distance > k_guard_bytes) {
    if (address < 4096) return "address " + std::to_string(address) + " (a null pointer?)";
    return "an address outside every buffer";
  }
  const uint64_t element = std::max<uint64_t>(size, 1);
  const uint64_t count = best->size() / element;
  const int64_t offset = static_cast<int64_t>(address) - static_cast<int64_t>(best->address);
  const int64_t index = offset >= 0 ? offset / static_cast<int64_t>(element)
                                    : -((-offset + static_cast<int64_t>(element) - 1) / static_cast<int64_t>(element));
  std::string text = "element " + std::to_string(index) + " of `" + best->name + "` (it has " + std::to_string(count) +
                     " elements of " + std::to_string(element) + " bytes, indices 0 to " +
                     std::to_string(count == 0 ? 0 : count - 1) + ")";
  if (offset % static_cast<int64_t>(element) != 0) text += ", at byte offset " + std::to_string(offset);
  return text;
}

}  // namespace tilecamp::emu
