#include "pc_profile.h"

#include <cinttypes>
#include <cstdio>

PcProfile::PcProfile(uint32_t rom_base, uint32_t rom_bytes, uint32_t ram_base, uint32_t ram_bytes)
    : rom_base_(rom_base), ram_base_(ram_base), rom_(rom_bytes / 4), ram_(ram_bytes / 4) {}

bool PcProfile::write(const std::string &path) const {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  auto dump = [f](uint32_t base, const std::vector<uint64_t> &words) {
    for (size_t i = 0; i < words.size(); i++)
      if (words[i]) std::fprintf(f, "%08" PRIx32 " %" PRIu64 "\n", uint32_t(base + 4 * i), words[i]);
  };
  dump(rom_base_, rom_);
  dump(ram_base_, ram_);
  return std::fclose(f) == 0;
}
