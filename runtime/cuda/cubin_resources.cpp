#include "runtime/cuda/cubin_resources.hpp"

#include <cstdint>
#include <cstring>
#include <map>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {
namespace {

// ELF64 constants (System V gABI) and the CUDA additions observed in cubins.
constexpr std::uint32_t sht_symtab = 2;
constexpr std::uint32_t sht_cuda_info = 0x70000000;
constexpr unsigned stt_func = 2;
constexpr unsigned sto_cuda_entry = 0x10;
constexpr unsigned eifmt_sval = 4;
constexpr unsigned eiattr_frame_size = 0x11;
constexpr unsigned eiattr_regcount = 0x2f;
constexpr std::size_t section_header_size = 64;
constexpr std::size_t symbol_size = 24;

// Bounds-checked little-endian reads; any read outside the image means the file is not a cubin.
class ElfImage {
public:
  explicit ElfImage(std::span<const char> bytes) : bytes_(bytes) {}

  template <class T>
  T read(std::uint64_t offset) const {
    require(offset, sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }

  std::span<const char> slice(std::uint64_t offset, std::uint64_t size) const {
    require(offset, size);
    return bytes_.subspan(offset, size);
  }

  std::string string_at(std::uint64_t table_offset, std::uint64_t table_size,
                        std::uint32_t index) const {
    const std::span<const char> table = slice(table_offset, table_size);
    if (index >= table.size()) fail("string index outside its table");
    const std::span<const char> rest = table.subspan(index);
    const void* end = std::memchr(rest.data(), '\0', rest.size());
    if (end == nullptr) fail("unterminated string");
    return std::string(rest.data(), static_cast<const char*>(end));
  }

  [[noreturn]] static void fail(const std::string& what) {
    throw internal_error("malformed cubin: " + what);
  }

private:
  void require(std::uint64_t offset, std::uint64_t size) const {
    if (offset > bytes_.size() || size > bytes_.size() - offset) fail("read past the end");
  }

  std::span<const char> bytes_;
};

struct Section {
  std::uint32_t type;
  std::uint64_t offset;
  std::uint64_t size;
  std::uint32_t link;
};

std::vector<Section> read_sections(const ElfImage& elf) {
  const auto header_offset = elf.read<std::uint64_t>(0x28);
  const auto entry_size = elf.read<std::uint16_t>(0x3a);
  const auto count = elf.read<std::uint16_t>(0x3c);
  if (entry_size != section_header_size) ElfImage::fail("unexpected section header size");
  elf.slice(header_offset, count * section_header_size);  // bounds of the whole table, once
  std::vector<Section> sections;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t at = header_offset + i * section_header_size;
    sections.push_back({elf.read<std::uint32_t>(at + 4), elf.read<std::uint64_t>(at + 24),
                        elf.read<std::uint64_t>(at + 32), elf.read<std::uint32_t>(at + 40)});
  }
  return sections;
}

// Per symbol index: the value of the given attribute, from every SHT_CUDA_INFO section.
std::map<std::uint32_t, int> symbol_attribute(const ElfImage& elf,
                                              const std::vector<Section>& sections,
                                              unsigned attribute) {
  std::map<std::uint32_t, int> values;
  for (const Section& section : sections) {
    if (section.type != sht_cuda_info) continue;
    const std::uint64_t end = section.offset + elf.slice(section.offset, section.size).size();
    for (std::uint64_t at = section.offset; at < end;) {
      if (end - at < 4) ElfImage::fail("truncated attribute record");
      const auto format = elf.read<std::uint8_t>(at);
      const auto kind = elf.read<std::uint8_t>(at + 1);
      const auto size_or_value = elf.read<std::uint16_t>(at + 2);
      at += 4;
      if (format != eifmt_sval) continue;
      if (end - at < size_or_value) ElfImage::fail("attribute payload past its section");
      if (kind == attribute && size_or_value == 8) {
        values[elf.read<std::uint32_t>(at)] = static_cast<int>(elf.read<std::uint32_t>(at + 4));
      }
      at += size_or_value;
    }
  }
  return values;
}

std::optional<int> lookup(const std::map<std::uint32_t, int>& values, std::uint32_t symbol) {
  const auto found = values.find(symbol);
  if (found == values.end()) return std::nullopt;
  return found->second;
}

}  // namespace

std::vector<KernelResources> read_cubin_resources(std::span<const char> cubin) {
  const ElfImage elf(cubin);
  static constexpr char elf64_little_endian[] = {'\x7f', 'E', 'L', 'F', 2, 1};
  const std::span<const char> ident = elf.slice(0, sizeof elf64_little_endian);
  if (std::memcmp(ident.data(), elf64_little_endian, ident.size()) != 0) {
    ElfImage::fail("not a 64-bit little-endian ELF file");
  }
  const std::vector<Section> sections = read_sections(elf);
  const auto registers = symbol_attribute(elf, sections, eiattr_regcount);
  const auto frame_sizes = symbol_attribute(elf, sections, eiattr_frame_size);

  std::vector<KernelResources> kernels;
  for (const Section& symtab : sections) {
    if (symtab.type != sht_symtab) continue;
    if (symtab.link >= sections.size()) ElfImage::fail("symbol table without string table");
    const Section& strtab = sections[symtab.link];
    elf.slice(symtab.offset, symtab.size);  // bounds of the whole table, once
    for (std::uint64_t i = 0; i < symtab.size / symbol_size; ++i) {
      const std::uint64_t at = symtab.offset + i * symbol_size;
      const auto info = elf.read<std::uint8_t>(at + 4);
      const auto other = elf.read<std::uint8_t>(at + 5);
      if ((info & 0xfu) != stt_func || (other & sto_cuda_entry) == 0) continue;
      const auto index = static_cast<std::uint32_t>(i);
      kernels.push_back({elf.string_at(strtab.offset, strtab.size, elf.read<std::uint32_t>(at)),
                         lookup(registers, index), lookup(frame_sizes, index)});
    }
  }
  return kernels;
}

}  // namespace tensordiag::runtime
