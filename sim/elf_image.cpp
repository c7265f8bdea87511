#include "elf_image.h"

#include <elf.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace {

template <typename T>
bool read_at(const std::vector<uint8_t> &buf, uint64_t off, T *out) {
  if (off > buf.size() || buf.size() - off < sizeof(T)) return false;
  std::memcpy(out, buf.data() + off, sizeof(T));
  return true;
}

const MemRegion *region_of(const std::vector<MemRegion> &regions, uint32_t addr, uint32_t len) {
  for (const auto &r : regions) {
    if (addr >= r.base && uint64_t(addr) - r.base + len <= r.size) return &r;
  }
  return nullptr;
}

}  // namespace

bool ElfImage::load(const std::string &file, const std::vector<MemRegion> &regions,
                    std::string *error) {
  struct stat st;
  if (stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    *error = "'" + file + "' is not a regular file";
    return false;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    *error = "cannot open ELF file '" + file + "'";
    return false;
  }
  std::vector<uint8_t> buf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  Elf32_Ehdr eh;
  if (!read_at(buf, 0, &eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    *error = "'" + file + "' is not an ELF file";
    return false;
  }
  if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_machine != EM_RISCV) {
    *error = "'" + file + "' is not a 32-bit little-endian RISC-V ELF";
    return false;
  }
  if (eh.e_phentsize != sizeof(Elf32_Phdr) || eh.e_phnum == 0) {
    *error = "'" + file + "' has no usable program headers";
    return false;
  }

  for (unsigned i = 0; i < eh.e_phnum; i++) {
    Elf32_Phdr ph;
    if (!read_at(buf, uint64_t(eh.e_phoff) + i * sizeof(Elf32_Phdr), &ph)) {
      *error = "'" + file + "' is truncated (program header " + std::to_string(i) + ")";
      return false;
    }
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz || uint64_t(ph.p_offset) + ph.p_filesz > buf.size()) {
      *error = "'" + file + "' is truncated (segment " + std::to_string(i) + ")";
      return false;
    }
    if (!region_of(regions, ph.p_paddr, ph.p_memsz)) {
      char msg[160];
      std::snprintf(msg, sizeof msg, "segment %u at 0x%08x..0x%08x does not fit the SoC's memory map",
                    i, ph.p_paddr, ph.p_paddr + ph.p_memsz);
      *error = "'" + file + "': " + msg;
      return false;
    }
    // The zero-filled rest is stored as zeros only where a segment before
    // put bytes (a later segment wins).
    uint32_t keep = ph.p_filesz;
    for (const auto &seg : segments_)
      if (seg.base < ph.p_paddr + ph.p_memsz && ph.p_paddr < seg.base + seg.bytes.size())
        keep = ph.p_memsz;
    Segment seg{ph.p_paddr, std::vector<uint8_t>(keep, 0)};
    std::memcpy(seg.bytes.data(), buf.data() + ph.p_offset, ph.p_filesz);
    segments_.push_back(std::move(seg));
  }
  entry_ = eh.e_entry;
  if (!region_of(regions, entry_, 4)) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "entry point 0x%08x is outside the SoC's memory", entry_);
    *error = "'" + file + "': " + msg;
    return false;
  }

  // Symbols are optional (a stripped ELF simply has no tohost).
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    Elf32_Shdr sh, strh;
    if (!read_at(buf, uint64_t(eh.e_shoff) + i * sizeof(Elf32_Shdr), &sh)) break;
    if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize != sizeof(Elf32_Sym)) continue;
    if (!read_at(buf, uint64_t(eh.e_shoff) + sh.sh_link * sizeof(Elf32_Shdr), &strh)) break;
    for (uint32_t s = 0; s < sh.sh_size / sizeof(Elf32_Sym); s++) {
      Elf32_Sym sym;
      if (!read_at(buf, uint64_t(sh.sh_offset) + s * sizeof(Elf32_Sym), &sym)) break;
      uint64_t name_off = uint64_t(strh.sh_offset) + sym.st_name;
      if (sym.st_name == 0 || name_off >= buf.size()) continue;
      const char *name = reinterpret_cast<const char *>(buf.data() + name_off);
      size_t max_len = buf.size() - name_off;
      symbols_[std::string(name, strnlen(name, max_len))] = sym.st_value;
    }
  }
  return true;
}

uint32_t ElfImage::symbol(const std::string &name) const {
  auto it = symbols_.find(name);
  return it == symbols_.end() ? 0 : it->second;
}

uint32_t ElfImage::word(uint32_t addr) const {
  uint32_t w = 0;
  for (unsigned i = 0; i < 4; i++) {
    uint32_t a = (addr & ~3u) + i;
    for (auto seg = segments_.rbegin(); seg != segments_.rend(); ++seg) {
      if (a >= seg->base && a - seg->base < seg->bytes.size()) {
        w |= uint32_t(seg->bytes[a - seg->base]) << (8 * i);
        break;
      }
    }
  }
  return w;
}
