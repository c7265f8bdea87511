// Machine timer: mtime counts clock cycles; the interrupt is pending while
// mtime >= mtimecmp. mtime also feeds the core's time CSR. The bus hands
// over a registered request; reads are answered in the same cycle.
module timer (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,
  output soc_bus_pkg::bus_rsp_t rsp_o,
  output logic [63:0]           mtime_o,
  output logic                  irq_o
);

  logic [63:0] mtime_q, mtimecmp_q;
  logic        wr;

  assign wr = req_i.req && req_i.we;

  always_comb begin
    rsp_o = '0;
    if (req_i.req) begin
      unique case (req_i.addr[11:0])
        soc_regs_pkg::TIMER_MTIME_LO_OFFSET:    rsp_o.rdata = mtime_q[31:0];
        soc_regs_pkg::TIMER_MTIME_HI_OFFSET:    rsp_o.rdata = mtime_q[63:32];
        soc_regs_pkg::TIMER_MTIMECMP_LO_OFFSET: rsp_o.rdata = mtimecmp_q[31:0];
        soc_regs_pkg::TIMER_MTIMECMP_HI_OFFSET: rsp_o.rdata = mtimecmp_q[63:32];
        default:                                rsp_o.err   = 1'b1;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mtime_q    <= '0;
      mtimecmp_q <= '1;
    end else begin
      mtime_q <= mtime_q + 64'd1;
      if (wr) begin
        unique case (req_i.addr[11:0])
          soc_regs_pkg::TIMER_MTIME_LO_OFFSET:    mtime_q[31:0]     <= req_i.wdata;
          soc_regs_pkg::TIMER_MTIME_HI_OFFSET:    mtime_q[63:32]    <= req_i.wdata;
          soc_regs_pkg::TIMER_MTIMECMP_LO_OFFSET: mtimecmp_q[31:0]  <= req_i.wdata;
          soc_regs_pkg::TIMER_MTIMECMP_HI_OFFSET: mtimecmp_q[63:32] <= req_i.wdata;
          default: ;
        endcase
      end
    end
  end

  assign mtime_o = mtime_q;
  assign irq_o   = (mtime_q >= mtimecmp_q);

endmodule : timer
