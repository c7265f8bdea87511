// Where the cycles go: every cycle is charged to the instruction in the
// core's EX stage (a bubble to the one that caused it -- the load a use
// waited for, the branch that redirected), per word of ROM and RAM.
// tools/profile.py turns the file into cycles per function.
#ifndef SIM_PC_PROFILE_H
#define SIM_PC_PROFILE_H

#include <cstdint>
#include <string>
#include <vector>

class PcProfile {
 public:
  PcProfile(uint32_t rom_base, uint32_t rom_bytes, uint32_t ram_base, uint32_t ram_bytes);
  void charge(uint32_t pc) {
    if (pc - ram_base_ < ram_.size() * 4) ram_[(pc - ram_base_) >> 2]++;
    else if (pc - rom_base_ < rom_.size() * 4) rom_[(pc - rom_base_) >> 2]++;
  }
  // Lines "ADDRESS CYCLES" (hex address) for every word with cycles; false
  // when the file cannot be written.
  bool write(const std::string &path) const;

 private:
  uint32_t rom_base_, ram_base_;
  std::vector<uint64_t> rom_, ram_;
};

#endif
