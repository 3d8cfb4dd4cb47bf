#include "checker/util/sha256.h"

#include <algorithm>
#include <bit>

namespace tilecamp {
namespace {

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4, 4.2.2).
constexpr std::array<uint32_t, 64> k_round_constants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// The first 32 bits of the fractional parts of the square roots of the first 8 primes (5.3.3).
constexpr std::array<uint32_t, 8> k_initial_state = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

uint32_t load_big_endian(const uint8_t* bytes) {
  return uint32_t{bytes[0]} << 24 | uint32_t{bytes[1]} << 16 | uint32_t{bytes[2]} << 8 | uint32_t{bytes[3]};
}

}  // namespace

Sha256::Sha256() : m_state(k_initial_state) {}

void Sha256::compress(const uint8_t* block) {
  std::array<uint32_t, 64> schedule;
  for (int t = 0; t < 16; ++t) schedule[t] = load_big_endian(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const uint32_t s0 = std::rotr(schedule[t - 15], 7) ^ std::rotr(schedule[t - 15], 18) ^ (schedule[t - 15] >> 3);
    const uint32_t s1 = std::rotr(schedule[t - 2], 17) ^ std::rotr(schedule[t - 2], 19) ^ (schedule[t - 2] >> 10);
    schedule[t] = schedule[t - 16] + s0 + schedule[t - 7] + s1;
  }
  auto [a, b, c, d, e, f, g, h] = m_state;
  for (int t = 0; t < 64; ++t) {
    const uint32_t sum1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
    const uint32_t choose = (e & f) ^ (~e & g);
    const uint32_t temp1 = h + sum1 + choose + k_round_constants[t] + schedule[t];
    const uint32_t sum0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
    const uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = d + temp1;
    d = c;
    c = b;
    b = a;
    a = temp1 + sum0 + majority;
  }
  const std::array<uint32_t, 8> rounds = {a, b, c, d, e, f, g, h};
  for (size_t i = 0; i < 8; ++i) m_state[i] += rounds[i];
}

Sha256& Sha256::update(std::string_view bytes) {
  m_total_bytes += bytes.size();
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t left = bytes.size();
  while (left > 0) {
    if (m_block_size == 0 && left >= m_block.size()) {  // whole blocks straight from the input
      compress(data);
      data += m_block.size();
      left -= m_block.size();
      continue;
    }
    const size_t taken = std::min(left, m_block.size() - m_block_size);
    std::copy_n(data, taken, m_block.begin() + static_cast<std::ptrdiff_t>(m_block_size));
    m_block_size += taken;
    data += taken;
    left -= taken;
    if (m_block_size == m_block.size()) {
      compress(m_block.data());
      m_block_size = 0;
    }
  }
  return *this;
}

Sha256Digest Sha256::finish() {
  const uint64_t total_bits = m_total_bytes * 8;
  // Padding (5.1.1): a 1 bit, zeros up to 56 bytes modulo 64, then the length in bits, big-endian.
  update(std::string_view("\x80", 1));
  while (m_block_size != 56) update(std::string_view("\0", 1));
  std::string length(8, '\0');
  for (int i = 0; i < 8; ++i) length[i] = static_cast<char>(total_bits >> (56 - 8 * i));
  update(length);
  Sha256Digest digest;
  for (size_t i = 0; i < 8; ++i) {
    for (size_t j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<uint8_t>(m_state[i] >> (24 - 8 * j));
  }
  return digest;
}

Sha256Digest sha256(std::string_view bytes) { return Sha256().update(bytes).finish(); }

std::string to_hex(const Sha256Digest& digest) {
  constexpr char k_digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(digest.size() * 2);
  for (const uint8_t byte : digest) {
    hex += k_digits[byte >> 4];
    hex += k_digits[byte & 0xf];
  }
  return hex;
}

}  // namespace tilecamp
