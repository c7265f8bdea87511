#include "sdram_model.h"

#include <algorithm>
#include <cstdio>

namespace {

// Datasheet minimums (ns): the largest of AS4C32M16SB-7, MT48LC16M16A2-75
// and IS42S16160J-7, the parts ULX3S boards carry.
constexpr double kTRcd = 21, kTRp = 21, kTRas = 44, kTRc = 66, kTRfc = 66, kTRrd = 15;
constexpr double kTMrd = 14, kTWr = 15, kTWrAfterClock = 7.5;  // tWR: 15 ns, and 1 clock + 7.5 ns
constexpr double kTCkCl2 = 10;                                  // fastest clock at CAS latency 2
constexpr double kPowerUpNs = 200e3, kRefreshNs = 64e6 / 8192;  // 8192 rows every 64 ms
constexpr unsigned kInitRefreshes = 8, kMaxPostponed = 8, kColumns = 512;
constexpr uint16_t kFloating = 0xA5A5;  // DQ when nobody drives it

enum Command { kNop, kActive, kRead, kWrite, kPrecharge, kRefresh, kMode, kBurstStop };
const char *const kNames[] = {"NOP", "ACTIVE", "READ", "WRITE", "PRECHARGE", "AUTO REFRESH", "MODE REGISTER SET",
                              "BURST TERMINATE"};

Command decode(const SdramPins &p) {
  if (p.cs_n) return kNop;
  switch ((p.ras_n ? 4 : 0) | (p.cas_n ? 2 : 0) | (p.we_n ? 1 : 0)) {
    case 0b011: return kActive;
    case 0b101: return kRead;
    case 0b100: return kWrite;
    case 0b010: return kPrecharge;
    case 0b001: return kRefresh;
    case 0b000: return kMode;
    case 0b110: return kBurstStop;
    default: return kNop;
  }
}

}  // namespace

SdramModel::SdramModel(uint32_t bytes, double clk_hz) : mem_(bytes / 2), period_ns_(1e9 / clk_hz) {
  unsigned bits = 0;
  while ((2u << bits) < bytes) bits++;  // halfword address bits
  row_bits_ = bits - 2 - 9;
  // Power-up contents are whatever the cells hold: not zeros.
  uint32_t x = 0x1234567u;
  for (auto &h : mem_) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    h = uint16_t(x);
  }
}

bool SdramModel::broken(uint64_t cycle, const std::string &rule, const std::string &what) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " at cycle %llu: ", (unsigned long long)cycle);
  error_ = "sdram: " + rule + " violated" + buf + what;
  return false;
}

bool SdramModel::at_least(int64_t from, uint64_t to, double ns) const {
  return from < 0 || double(int64_t(to) - from) * period_ns_ >= ns - 1e-9;
}

uint16_t SdramModel::dq_for(uint64_t cycle) const {
  for (const ReadData &r : reads_)
    if (r.cycle == cycle) return r.value;
  return kFloating;
}

bool SdramModel::clock(uint64_t cycle, const SdramPins &p) {
  if (!error_.empty()) return false;
  while (!reads_.empty() && reads_.front().cycle < cycle) reads_.pop_front();
  // The chip drives DQ from half a cycle before the controller samples a
  // READ's data until half a cycle after.
  if (p.dq_oe)
    for (const ReadData &r : reads_)
      if (r.cycle == cycle || r.cycle == cycle + 1)
        return broken(cycle, "DQ direction", "the controller drives DQ while the chip returns read data");
  if (mode_set_) {
    const double owed = double(cycle - uint64_t(init_end_)) * period_ns_ / kRefreshNs;
    if (owed > double(refreshes_ + kMaxPostponed))
      return broken(cycle, "tREFI", "more than 8 refreshes overdue (8192 per 64 ms)");
  }
  if (!p.cke) {
    if (first_cmd_ >= 0) return broken(cycle, "CKE", "CKE low after power-up (power-down is not modelled)");
    return true;
  }
  return decode(p) == kNop ? true : command(cycle, p);
}

bool SdramModel::command(uint64_t cycle, const SdramPins &p) {
  const Command c = decode(p);
  const std::string name = kNames[c];
  const unsigned bank = p.ba & 3;
  char where[96];
  std::snprintf(where, sizeof where, " (bank %u, A 0x%04x)", bank, p.a);

  if (first_cmd_ < 0) {
    first_cmd_ = int64_t(cycle);
    if (double(cycle) * period_ns_ < kPowerUpNs)
      return broken(cycle, "power-up", name + " before 200 us of NOP after power-up");
  }
  if (last_mrs_ >= 0 && (int64_t(cycle) - last_mrs_ < 2 || !at_least(last_mrs_, cycle, kTMrd)))
    return broken(cycle, "tMRD", name + " too soon after MODE REGISTER SET");
  if (!at_least(last_ref_, cycle, kTRfc)) return broken(cycle, "tRFC", name + " too soon after AUTO REFRESH");
  if (c == kBurstStop) return broken(cycle, "command set", "BURST TERMINATE is not used with burst length 1");
  if (!mode_set_ && (c == kActive || c == kRead || c == kWrite))
    return broken(cycle, "initialisation", name + " before the mode register is set");

  Bank &b = banks_[bank];
  switch (c) {
    case kActive:
      if (b.open) return broken(cycle, "bank state", "ACTIVE to an open bank" + std::string(where));
      if (!at_least(b.pre, cycle, kTRp)) return broken(cycle, "tRP", "ACTIVE too soon after PRECHARGE" + std::string(where));
      if (!at_least(b.act, cycle, kTRc)) return broken(cycle, "tRC", "ACTIVE too soon after ACTIVE" + std::string(where));
      if (!at_least(last_act_, cycle, kTRrd)) return broken(cycle, "tRRD", "ACTIVE too soon after another bank's");
      if ((p.a >> row_bits_) != 0) return broken(cycle, "address", "row beyond the part" + std::string(where));
      b.open = true;
      b.row = p.a;
      b.act = last_act_ = int64_t(cycle);
      return true;
    case kRead:
    case kWrite: {
      if (!b.open) return broken(cycle, "bank state", name + " to a closed bank" + std::string(where));
      if (!at_least(b.act, cycle, kTRcd)) return broken(cycle, "tRCD", name + " too soon after ACTIVE" + std::string(where));
      if (p.a & 0x400) return broken(cycle, "command set", name + " with auto-precharge (not used, not modelled)");
      const unsigned col = p.a & (kColumns - 1);
      const uint32_t index = (uint32_t(b.row) << 11) | (bank << 9) | col;
      if (c == kRead) {
        reads_.push_back({cycle + cas_latency_ + 1, mem_[index]});
        return true;
      }
      if (!p.dq_oe) return broken(cycle, "DQ direction", "WRITE without the controller driving DQ");
      uint16_t &cell = mem_[index];
      if (!(p.dqm & 1)) cell = uint16_t((cell & 0xFF00) | (p.dq & 0x00FF));
      if (!(p.dqm & 2)) cell = uint16_t((cell & 0x00FF) | (p.dq & 0xFF00));
      b.write = int64_t(cycle);
      return true;
    }
    case kPrecharge:
      for (unsigned i = 0; i < 4; i++) {
        Bank &t = banks_[i];
        if (!(p.a & 0x400) && i != bank) continue;
        if (t.open) {
          if (!at_least(t.act, cycle, kTRas)) return broken(cycle, "tRAS", "PRECHARGE too soon after ACTIVE" + std::string(where));
          if (!at_least(t.write, cycle, std::max(kTWr, period_ns_ + kTWrAfterClock)))
            return broken(cycle, "tWR", "PRECHARGE too soon after WRITE" + std::string(where));
        }
        t.open = false;
        t.pre = int64_t(cycle);
        t.write = -1;
      }
      if (p.a & 0x400) precharged_all_ = true;
      return true;
    case kRefresh:
    case kMode:
      for (const Bank &t : banks_) {
        if (t.open) return broken(cycle, "bank state", name + " with a bank open");
        if (!at_least(t.pre, cycle, kTRp)) return broken(cycle, "tRP", name + " too soon after PRECHARGE");
        if (!at_least(t.act, cycle, kTRc)) return broken(cycle, "tRC", name + " too soon after ACTIVE");
      }
      if (c == kRefresh) {
        last_ref_ = int64_t(cycle);
        if (mode_set_) refreshes_++;
        else if (precharged_all_) init_refreshes_++;
        return true;
      }
      if (!precharged_all_ || init_refreshes_ < kInitRefreshes)
        return broken(cycle, "initialisation", "MODE REGISTER SET before PRECHARGE ALL and 8 AUTO REFRESH");
      if ((p.a & 7) != 0) return broken(cycle, "mode register", "burst length other than 1 (not modelled)");
      if (((p.a >> 7) & 3) != 0) return broken(cycle, "mode register", "reserved operating mode");
      cas_latency_ = (p.a >> 4) & 7;
      if (cas_latency_ != 2 && cas_latency_ != 3) return broken(cycle, "mode register", "CAS latency not 2 or 3");
      if (cas_latency_ == 2 && period_ns_ < kTCkCl2) return broken(cycle, "tCK", "clock too fast for CAS latency 2");
      if (!mode_set_) init_end_ = int64_t(cycle);
      mode_set_ = true;
      last_mrs_ = int64_t(cycle);
      return true;
    default:
      return true;
  }
}
