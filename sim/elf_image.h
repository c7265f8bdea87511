// Loading an RV32 ELF into the simulated SoC's memories.
#pragma once
#include <cstdint>
#include <map>
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
  // F(address, contents) for each word the segments' file bytes touch in
  // [BASE, BASE + SIZE), in address order (a segment's zero-filled rest is
  // left out: memories start zeroed).
  template <typename F>
  void each_word_in(uint32_t base, uint32_t size, F f) const {
    for (const auto &seg : segments_) {
      uint32_t lo = seg.base & ~3u, hi = seg.base + uint32_t(seg.bytes.size());
      for (uint32_t a = lo; a < hi; a += 4)
        if (a >= base && a - base < size) f(a, word(a));
    }
  }

 private:
  struct Segment {
    uint32_t base;
    std::vector<uint8_t> bytes;  // the file's bytes; the rest of the segment reads as zero
  };
  uint32_t entry_ = 0;
  std::map<std::string, uint32_t> symbols_;
  std::vector<Segment> segments_;  // in file order; a later one wins where they overlap
};
