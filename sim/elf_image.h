// Loading an RV32 ELF into the simulated SoC's memories.
#pragma once
#include <cstdint>
#include <map>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

struct MemRegion {
  const char *name;
  uint32_t base;
  uint32_t size;
};

class ElfImage {
 public:
  // Loads FILE; every loadable segment must lie inside one of REGIONS, and
  // the entry point inside one that holds code. Returns false with a
  // one-line reason in *error.
  bool load(const std::string &file, const std::vector<MemRegion> &regions, std::string *error);
  uint32_t entry() const { return entry_; }
  // Address of a symbol, or 0 when the ELF has none of that name.
  uint32_t symbol(const std::string &name) const;
  // Word at ADDR (zero where nothing was loaded).
  uint32_t word(uint32_t addr) const;
  // The words loaded in [BASE, BASE + SIZE), as (address, contents).
  std::vector<std::pair<uint32_t, uint32_t>> words_in(uint32_t base, uint32_t size) const;

 private:
  uint32_t entry_ = 0;
  std::map<std::string, uint32_t> symbols_;
  std::unordered_map<uint32_t, uint32_t> words_;  // word address -> contents (looked up for every memory word)
};
