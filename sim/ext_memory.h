// The external memory beside the SoC (soc_top's ExternalMemory): the data
// cache and SDRAM controller (rtl/mem/ext_mem.sv) as a Verilated model of
// their own, evaluated only in the cycles they can change. Between
// requests nothing in them moves: the controller keeps its refresh time
// against the SoC's cycle count (now_i) instead of counting down, its
// since-ACTIVE counter stops at the longest rule, and the cache's RAMs are
// read at the core's address only for a request that follows. So a cycle
// is evaluated when the core is addressing the region (the cache reads its
// RAMs at that address), a request arrives, a refresh falls due, or the
// cache, its prefetch, the matrix-vector unit or the controller is still busy, and for a few cycles
// after; the cycles skipped would have left every register as it was. Tracing
// evaluates it every cycle. Its outputs come from its registers; the SoC takes their
// new values at the same edge (soc_top registers them again), so they are
// handed over before the SoC's edge and the SoC is evaluated once.
#ifndef SIM_EXT_MEMORY_H
#define SIM_EXT_MEMORY_H

#include <cstdint>
#include <memory>

#include "Vext.h"
#include "Vext___024root.h"
#include "Vsoc_top.h"

class ExtMemory {
 public:
  ExtMemory(VerilatedContext *ctx, bool every_cycle, uint32_t bytes)
      : m_(std::make_unique<Vext>(ctx)), every_(every_cycle), bytes_(bytes) {}
  Vext *model() { return m_.get(); }

  void reset(bool rst_n, bool clk) {
    m_->rst_ni = rst_n;
    m_->clk_i = clk;
    m_->eval();
  }

  // Its rising edge, before the SoC's (whose counter reads top->ext_now_o):
  // the inputs are what the SoC showed after its last edge; the new outputs
  // go to the SoC's inputs for its edge. Whether it was evaluated.
  bool rise(Vsoc_top *top) {
    if (!awake(top->ext_now_o)) return false;
    m_->now_i = top->ext_now_o;
    m_->clk_i = 1;
    m_->eval();
    // Nothing acts on the falling edge: its edge detector (Verilator 5's
    // trigger state) is told the clock is low instead of evaluating again.
    m_->clk_i = 0;
    m_->rootp->__Vtrigrprev__TOP__clk_i = 0;
    top->ext_rvalid_i = m_->rvalid_o;
    top->ext_rsp_i = m_->rsp_o;
    top->dcache_hits_i = m_->hits_o;
    top->dcache_misses_i = m_->misses_o;
    settle_ = busy() ? kSettleCycles : (settle_ ? settle_ - 1 : 0);
    return true;
  }

  // After the SoC's rising edge: the access it issues (or the address it
  // shows), which the cache looks up at its next edge.
  void request(const Vsoc_top *top) {
    for (int i = 0; i < 3; i++) m_->req_i[i] = top->ext_req_o[i];
  }

  void final() { m_->final(); }

 private:
  // Cycles evaluated after the last busy one, a margin: the pins, the
  // answer's valid and since-ACTIVE are at rest once the states are idle
  // (busy covers the valid; an access lasts longer than tRC).
  static constexpr unsigned kSettleCycles = 2;
  static constexpr int kReqBit = 69;  // soc_bus_pkg::bus_req_t.req, its top bit
  static constexpr unsigned kCacheIdle = 1, kCtrlIdle = 4;  // dcache / sdram_ctrl state_e S_IDLE

  bool addressed() const {
    return m_->req_i[1] < bytes_ || ((m_->req_i[2] >> (kReqBit - 64)) & 1);  // addr: bits 63..32
  }
  bool busy() const {
    const auto *r = m_->rootp;
    return addressed() || r->ext_mem__DOT__u_dcache__DOT__state_q != kCacheIdle ||
           r->ext_mem__DOT__u_dcache__DOT__pf_state_q != 0 ||  // a prefetch waiting or reading
           r->ext_mem__DOT__g_sdram__DOT__u_sdram__DOT__state_q != kCtrlIdle ||
           r->ext_mem__DOT__g_sdram__DOT__u_sdram__DOT__rd_pipe_q ||
           r->ext_mem__DOT__g_sdram__DOT__u_sdram__DOT__refresh_due_q || m_->rvalid_o ||
           r->ext_mem__DOT__g_mvu__DOT__u_mvu__DOT__run_q;  // the matrix-vector unit's run (its reads, rows)
  }
  bool awake(uint16_t now) const {
    // (settle_ counts down in evaluated cycles; a refresh falling due makes it busy.)
    return every_ || settle_ > 0 || addressed() ||
           int16_t(uint16_t(now - m_->rootp->ext_mem__DOT__g_sdram__DOT__u_sdram__DOT__refresh_at_q)) >= 0;
  }

  std::unique_ptr<Vext> m_;
  bool every_;
  uint32_t bytes_;
  unsigned settle_ = kSettleCycles;
};

#endif
