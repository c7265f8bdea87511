// The UniCAIM array block beside the SoC (soc_top's ExternalArray), a
// Verilated model of its own (Vucm, from the same RTL). It is evaluated only
// while it works, in the cycles the bus addresses it and for a few cycles
// after, until its registers have settled: each of them changes only with a
// request or a command, so the cycles skipped would leave it as it is.
// Before the SoC's rising edge a cycle is: the block's edge on the request
// the SoC registered at its last edge, then the block's answer to the one
// it registers at this edge (soc_top shows it ahead), which the SoC
// registers with it -- where the block inside the SoC answers the
// registered request in the cycle after the edge. Tracing evaluates it
// every cycle.
#ifndef SIM_ARRAY_MODEL_H
#define SIM_ARRAY_MODEL_H

#include <memory>

#include "Vsoc_top.h"
#include "Vucm.h"
#include "Vucm___024root.h"

class ArrayModel {
 public:
  ArrayModel(VerilatedContext *ctx, bool every_cycle) : m_(std::make_unique<Vucm>(ctx)), every_(every_cycle) {}
  Vucm *model() { return m_.get(); }

  void reset(bool rst_n, bool clk) {
    m_->rst_ni = rst_n;
    m_->clk_i = clk;
    m_->eval();
  }

  // Before the SoC's rising edge.
  void rise(Vsoc_top *top) {
    const bool req = (top->array_req_o[2] >> (kReqBit - 64)) & 1;
    if (every_ || settle_ > 0 || req || last_req_) {
      for (int i = 0; i < 3; i++) m_->req_i[i] = last_[i];
      m_->clk_i = 1;
      m_->eval();
      m_->clk_i = 0;
      for (int i = 0; i < 3; i++) m_->req_i[i] = top->array_req_o[i];
      m_->eval();  // its answer (the falling edge: nothing in the block uses it)
      top->array_rsp_i = m_->rsp_o;
      top->array_irq_i = m_->irq_o;
      settle_ = (req || m_->rootp->ucm_block__DOT__state_q != 0) ? kSettleCycles : (settle_ ? settle_ - 1 : 0);
    }
    for (int i = 0; i < 3; i++) last_[i] = top->array_req_o[i];
    last_req_ = req;
  }

  void final() { m_->final(); }

 private:
  static constexpr unsigned kSettleCycles = 4;
  static constexpr int kReqBit = 69;  // soc_bus_pkg::bus_req_t.req, its top bit

  std::unique_ptr<Vucm> m_;
  bool every_;
  unsigned settle_ = kSettleCycles;
  uint32_t last_[3] = {0, 0, 0};  // the request the SoC registered at its last edge
  bool last_req_ = false;
};

#endif
