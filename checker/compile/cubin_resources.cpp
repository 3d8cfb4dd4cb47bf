#include "checker/compile/cubin_resources.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace tilecamp {
namespace {

constexpr uint32_t k_nobits = 8;         // SHT_NOBITS
constexpr uint32_t k_symtab = 2;         // SHT_SYMTAB
constexpr uint8_t k_func = 2;            // STT_FUNC
constexpr uint8_t k_cuda_entry = 0x10;   // STO_CUDA_ENTRY: a __global__ function
constexpr uint8_t k_eifmt_sval = 4;
constexpr uint8_t k_eiattr_max_threads = 0x05;
constexpr uint8_t k_eiattr_frame_size = 0x11;
constexpr uint8_t k_eiattr_min_stack_size = 0x12;
constexpr uint8_t k_eiattr_regcount = 0x2f;
// sm_90 keeps the first 1 KB of a block's shared memory for the system (the device's
// reservedSharedMemPerBlock); a cubin that refers to it by this symbol lays each kernel's
// .nv.shared section out after it, so the section's size counts it too.
constexpr std::string_view k_reserved_shared_symbol = ".nv.reservedSmem.offset0";
constexpr uint64_t k_reserved_shared_bytes = 1024;

// Little-endian reads that fail instead of reading past the end.
class Bytes {
 public:
  explicit Bytes(std::string_view bytes) : m_bytes(bytes) {}
  std::optional<uint64_t> read(uint64_t offset, int width) const {
    if (offset > m_bytes.size() || m_bytes.size() - offset < static_cast<uint64_t>(width)) return std::nullopt;
    uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(m_bytes[offset + i]);
    return value;
  }
  std::optional<std::string_view> slice(uint64_t offset, uint64_t size) const {
    if (offset > m_bytes.size() || m_bytes.size() - offset < size) return std::nullopt;
    return m_bytes.substr(offset, size);
  }
  size_t size() const { return m_bytes.size(); }

 private:
  std::string_view m_bytes;
};

struct Section {
  uint64_t name_offset = 0;  // in the section names' table
  std::string name;
  uint32_t type = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t info = 0;
  uint64_t entry_size = 0;
};

// A symbol of .symtab: its name and whether it is a kernel.
struct Symbol {
  std::string name;
  bool kernel = false;
};

Error truncated(const std::string& what) { return make_error("the cubin is malformed: " + what); }

// A NUL-terminated name at `offset` of a string table.
std::optional<std::string> string_at(const Bytes& file, const Section& table, uint64_t offset) {
  auto bytes = file.slice(table.offset, table.size);
  if (!bytes || offset >= bytes->size()) return std::nullopt;
  const size_t end = bytes->find('\0', offset);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(bytes->substr(offset, end - offset));
}

Expected<std::vector<Section>> read_sections(const Bytes& file) {
  const std::optional<uint64_t> magic = file.read(0, 4);
  if (!magic || *magic != 0x464c457f) return truncated("not an ELF file");
  if (file.read(4, 1) != 2u || file.read(5, 1) != 1u) return truncated("not a 64-bit little-endian ELF file");
  const auto table = file.read(0x28, 8);
  const auto entry_size = file.read(0x3a, 2);
  const auto count = file.read(0x3c, 2);
  const auto names_index = file.read(0x3e, 2);
  if (!table || !entry_size || !count || !names_index) return truncated("its header is cut short");
  if (*entry_size < 64) return truncated("section headers of " + std::to_string(*entry_size) + " bytes");
  std::vector<Section> sections;
  for (uint64_t i = 0; i < *count; ++i) {
    const uint64_t at = *table + i * *entry_size;
    Section section;
    const auto name = file.read(at, 4), type = file.read(at + 4, 4), offset = file.read(at + 0x18, 8),
               size = file.read(at + 0x20, 8), link = file.read(at + 0x28, 4), info = file.read(at + 0x2c, 4),
               entsize = file.read(at + 0x38, 8);
    if (!name || !type || !offset || !size || !link || !info || !entsize) return truncated("section header cut short");
    section.type = static_cast<uint32_t>(*type);
    section.offset = *offset;
    section.size = *size;
    section.link = static_cast<uint32_t>(*link);
    section.info = static_cast<uint32_t>(*info);
    section.entry_size = *entsize;
    section.name_offset = *name;
    if (section.type != k_nobits && !file.slice(section.offset, section.size)) {
      return truncated("section " + std::to_string(i) + " lies outside the file");
    }
    sections.push_back(section);
  }
  if (*names_index >= sections.size()) return truncated("no section names");
  const Section names = sections[*names_index];
  for (Section& section : sections) {
    auto name = string_at(file, names, section.name_offset);
    if (!name) return truncated("a section name lies outside its table");
    section.name = *name;
  }
  return sections;
}

Expected<std::vector<Symbol>> read_symbols(const Bytes& file, const std::vector<Section>& sections) {
  for (const Section& table : sections) {
    if (table.type != k_symtab) continue;
    if (table.entry_size < 24 || table.link >= sections.size()) return truncated("a symbol table without names");
    std::vector<Symbol> symbols;
    for (uint64_t at = table.offset; at + table.entry_size <= table.offset + table.size; at += table.entry_size) {
      const auto name = file.read(at, 4), info = file.read(at + 4, 1), other = file.read(at + 5, 1);
      if (!name || !info || !other) return truncated("symbol cut short");
      auto text = string_at(file, sections[table.link], *name);
      if (!text) return truncated("a symbol name lies outside its table");
      symbols.push_back({*text, (*info & 0xf) == k_func && (*other & k_cuda_entry) != 0});
    }
    return symbols;
  }
  return truncated("no symbol table");
}

// One record of an .nv.info section.
struct Attribute {
  uint8_t id = 0;
  std::string_view value;  // an SVAL's bytes; empty for the other formats
};

Expected<std::vector<Attribute>> read_attributes(const Bytes& file, const Section& section) {
  const std::optional<std::string_view> contents = file.slice(section.offset, section.size);
  if (!contents) return truncated(section.name + " lies outside the file");
  const std::string_view bytes = *contents;
  const Bytes info(bytes);
  std::vector<Attribute> attributes;
  uint64_t at = 0;
  while (at + 4 <= bytes.size()) {
    const uint8_t format = static_cast<uint8_t>(bytes[at]);
    Attribute attribute{static_cast<uint8_t>(bytes[at + 1]), {}};
    if (format < 1 || format > k_eifmt_sval) return truncated("an attribute of unknown format in " + section.name);
    uint64_t length = 4;
    if (format == k_eifmt_sval) {
      const uint64_t size = *info.read(at + 2, 2);
      auto value = info.slice(at + 4, size);
      if (!value) return truncated("an attribute of " + section.name + " runs past its end");
      attribute.value = *value;
      length += size;
    }
    attributes.push_back(attribute);
    at += (length + 3) / 4 * 4;
  }
  return attributes;
}

// [symbol index u32][value u32] attributes of .nv.info: each symbol's value.
std::map<uint32_t, uint32_t> values_by_symbol(const std::vector<Attribute>& attributes, uint8_t id) {
  std::map<uint32_t, uint32_t> values;
  for (const Attribute& attribute : attributes) {
    if (attribute.id != id || attribute.value.size() < 8) continue;
    const Bytes value(attribute.value);
    values[static_cast<uint32_t>(*value.read(0, 4))] = static_cast<uint32_t>(*value.read(4, 4));
  }
  return values;
}

const Section* find_section(const std::vector<Section>& sections, const std::string& name) {
  for (const Section& section : sections) {
    if (section.name == name) return &section;
  }
  return nullptr;
}

Expected<uint32_t> max_threads(const Bytes& file, const std::vector<Section>& sections, const std::string& kernel) {
  const Section* info = find_section(sections, ".nv.info." + kernel);
  if (info == nullptr) return 0u;
  TC_TRY_ASSIGN(const std::vector<Attribute> attributes, read_attributes(file, *info));
  for (const Attribute& attribute : attributes) {
    if (attribute.id != k_eiattr_max_threads || attribute.value.size() < 12) continue;
    const Bytes value(attribute.value);
    uint64_t threads = 1;
    for (int axis = 0; axis < 3; ++axis) threads *= std::max<uint64_t>(1, *value.read(4 * axis, 4));
    return static_cast<uint32_t>(std::min<uint64_t>(threads, UINT32_MAX));
  }
  return 0u;
}

}  // namespace

Expected<std::vector<KernelResources>> read_cubin_resources(std::string_view cubin) {
  const Bytes file(cubin);
  TC_TRY_ASSIGN(const std::vector<Section> sections, read_sections(file));
  TC_TRY_ASSIGN(const std::vector<Symbol> symbols, read_symbols(file, sections));
  std::vector<Attribute> attributes;
  if (const Section* info = find_section(sections, ".nv.info")) {
    TC_TRY_ASSIGN(attributes, read_attributes(file, *info));
  }
  const std::map<uint32_t, uint32_t> registers = values_by_symbol(attributes, k_eiattr_regcount);
  const std::map<uint32_t, uint32_t> frames = values_by_symbol(attributes, k_eiattr_frame_size);
  const std::map<uint32_t, uint32_t> stacks = values_by_symbol(attributes, k_eiattr_min_stack_size);
  auto value = [](const std::map<uint32_t, uint32_t>& values, uint32_t symbol) {
    auto it = values.find(symbol);
    return it == values.end() ? 0u : it->second;
  };
  uint64_t reserved_shared = 0;
  for (const Symbol& symbol : symbols) {
    if (symbol.name == k_reserved_shared_symbol) reserved_shared = k_reserved_shared_bytes;
  }
  std::vector<KernelResources> kernels;
  for (uint32_t index = 0; index < symbols.size(); ++index) {
    if (!symbols[index].kernel) continue;
    KernelResources kernel;
    kernel.kernel = symbols[index].name;
    kernel.registers = value(registers, index);
    if (kernel.registers == 0) {
      if (const Section* text = find_section(sections, ".text." + kernel.kernel)) kernel.registers = text->info >> 24;
    }
    // The frame is the kernel's own; the minimum stack adds the frames of what it calls.
    kernel.local_bytes = std::max(value(frames, index), value(stacks, index));
    if (const Section* shared = find_section(sections, ".nv.shared." + kernel.kernel)) {
      const uint64_t own = shared->size > reserved_shared ? shared->size - reserved_shared : 0;
      kernel.static_shared_bytes = static_cast<uint32_t>(std::min<uint64_t>(own, UINT32_MAX));
    }
    TC_TRY_ASSIGN(kernel.max_threads, max_threads(file, sections, kernel.kernel));
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

const KernelResources* find_resources(const std::vector<KernelResources>& resources, const std::string& entry) {
  for (const KernelResources& kernel : resources) {
    if (kernel.kernel == entry) return &kernel;
  }
  return nullptr;
}

}  // namespace tilecamp
