// A 16-bit SDR SDRAM chip, cycle by cycle, as the simulator's external
// memory: 4 banks of rows x 512 columns, burst length 1, CAS latency 2 or 3,
// contents kept for the whole run. It checks every rule a controller must
// keep -- the power-up sequence, each bank's state, tRCD, tRP, tRAS, tRC,
// tRRD, tRFC, tMRD, tWR, the refresh rate and the data bus's direction --
// against datasheet nanoseconds (the slowest of the ULX3S's parts), and
// reports the first one broken with its name and cycle.
#ifndef SIM_SDRAM_MODEL_H
#define SIM_SDRAM_MODEL_H

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

struct SdramPins {
  bool cke, cs_n, ras_n, cas_n, we_n;
  unsigned ba, a, dqm;
  uint16_t dq;  // driven by the controller when dq_oe
  bool dq_oe;

  // From the controller's port (soc_bus_pkg::sdram_pins_t, packed: its
  // first field the highest bit, dq_oe bit 0).
  static SdramPins from_port(uint64_t p) {
    return SdramPins{bool(p >> 38 & 1), bool(p >> 37 & 1), bool(p >> 36 & 1), bool(p >> 35 & 1),
                     bool(p >> 34 & 1), unsigned(p >> 32 & 3), unsigned(p >> 19 & 0x1fff), unsigned(p >> 17 & 3),
                     uint16_t(p >> 1), bool(p & 1)};
  }
  // No command for the chip: clock enabled, DQ released, deselected or a NOP.
  bool idle() const { return cke && !dq_oe && (cs_n || (ras_n && cas_n && we_n)); }
};

class SdramModel {
 public:
  // BYTES: a power of two, 16 MiB or more (512 columns, 4 banks). The
  // controller's clock is CLK_HZ; the chip gets it inverted, so data of a
  // READ the controller registered at edge k is sampled at edge k + CL + 1.
  SdramModel(uint32_t bytes, double clk_hz);

  // The pins the controller registered at rising edge CYCLE. False once a
  // rule is broken (error() says which).
  bool clock(uint64_t cycle, const SdramPins &pins);
  // Whether an edge with no command (CS high) and DQ not driven can be
  // skipped: no read data due, and the refresh check is not this cycle's
  // (it runs every 1024 cycles and at every command).
  bool idle(uint64_t cycle) const { return reads_.empty() && (cycle & 1023) != 0; }
  // What the chip drives on DQ for the controller's edge CYCLE.
  uint16_t dq_for(uint64_t cycle) const;
  const std::string &error() const { return error_; }

  // Direct access for loading and checking images (halfword index).
  uint16_t peek(uint32_t halfword) const { return mem_[halfword]; }
  void poke(uint32_t halfword, uint16_t value) { mem_[halfword] = value; }

 private:
  struct Bank {
    bool open = false;
    unsigned row = 0;
    int64_t act = -1, pre = -1, write = -1;  // cycles of the last ACTIVE, PRECHARGE, WRITE
  };
  struct ReadData {
    uint64_t cycle;
    uint16_t value;
  };

  bool broken(uint64_t cycle, const std::string &rule, const std::string &what);
  // Cycles FROM..TO last at least NS (FROM < 0: never happened).
  bool at_least(int64_t from, uint64_t to, double ns) const;
  bool command(uint64_t cycle, const SdramPins &p);

  std::vector<uint16_t> mem_;
  unsigned row_bits_;
  double period_ns_;
  Bank banks_[4];
  int64_t last_act_ = -1, last_ref_ = -1, last_mrs_ = -1;
  int64_t first_cmd_ = -1, init_end_ = -1;
  bool precharged_all_ = false, mode_set_ = false;
  unsigned init_refreshes_ = 0, cas_latency_ = 0;
  uint64_t refreshes_ = 0;  // since the mode register was set
  std::deque<ReadData> reads_;
  std::string error_;
};

#endif
