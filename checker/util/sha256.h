// SHA-256 (FIPS 180-4), for content-addressed files such as the PTX cache's entries: a digest
// names an entry and checks it was read back whole. Not for secrets: nothing here is constant-time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilecamp {

using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  Sha256& update(std::string_view bytes);
  // The digest of everything updated so far; the object is spent afterwards.
  Sha256Digest finish();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> m_state;
  std::array<uint8_t, 64> m_block{};
  size_t m_block_size = 0;
  uint64_t m_total_bytes = 0;
};

Sha256Digest sha256(std::string_view bytes);
// Lower-case hexadecimal, two digits a byte.
std::string to_hex(const Sha256Digest& digest);

}  // namespace tilecamp
