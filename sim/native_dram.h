// A DRAM behind LiteDRAM's native user port (soc_bus_pkg::dram_native_*),
// for the fast simulator's builds whose external memory is larger than an
// SDR SDRAM chip (sim_smol: SmolLM2's 170 MB image, in 256 MB). Functional,
// not a timing model of DDR3 (the Arty's board simulator runs LiteDRAM's
// core for that): a command is taken at once, a write's 16-byte words in
// command order as they come, and a read's word kReadLatency cycles after
// its command, reads in order. The control bus (DRAMCTL's Wishbone)
// acknowledges every access with zeros and reports the initialisation done.
#ifndef SIM_NATIVE_DRAM_H
#define SIM_NATIVE_DRAM_H

#include <cstdint>
#include <deque>
#include <vector>

// The port's signals as soc_bus_pkg packs them (cmd_valid is the request's
// top bit), in the 32-bit words Verilator stores wide ports in.
struct NativeReq {
  bool cmd_valid, cmd_we, wdata_valid, rdata_ready;
  uint32_t cmd_addr;   // 16-byte words
  uint32_t wdata[4];
  uint16_t wdata_we;   // byte enables
  bool wb_cyc, wb_stb;
};

struct NativeRsp {
  bool cmd_ready, wdata_ready, rdata_valid;
  uint32_t rdata[4];
  bool wb_ack;
};

NativeReq unpack_native_req(const uint32_t *native, const uint32_t *wb);
// Into the port words (native: 5 words, 131 bits; wb: the 36-bit response).
void pack_native_rsp(const NativeRsp &r, uint32_t *native, uint64_t *wb);

class NativeDram {
 public:
  static constexpr unsigned kReadLatency = 12;  // SoC cycles from a read's command to its word

  explicit NativeDram(uint32_t bytes) : mem_(bytes / 4, 0) {}
  void poke(uint32_t offset, uint32_t word) { mem_[offset / 4] = word; }
  uint32_t peek(uint32_t offset) const { return mem_[offset / 4]; }

  // What the port shows before edge CYCLE.
  const NativeRsp &response() const { return rsp_; }
  // Edge CYCLE: the handshakes of REQ (the SoC's outputs before the edge)
  // with response(); then the response for the next edge.
  void clock(uint64_t cycle, const NativeReq &req);

 private:
  struct Command {
    bool we;
    uint32_t addr;
    uint64_t ready;  // a read's word is due at this cycle
  };
  uint32_t *native_word(uint32_t addr) { return &mem_[(addr * 4) % mem_.size()]; }

  std::vector<uint32_t> mem_;
  std::deque<Command> writes_, reads_;  // commands waiting for their data / to answer
  NativeRsp rsp_{true, false, false, {0, 0, 0, 0}, false};
};

#endif
