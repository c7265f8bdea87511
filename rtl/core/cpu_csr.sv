// Machine-mode CSRs (Zicsr, Zicntr), trap entry and return state.
// Reads or writes of an unimplemented CSR, and writes of a read-only one,
// are reported as illegal; the core then traps instead of committing.
module cpu_csr #(
  parameter logic [31:0] HartId = 32'd0,
  parameter logic [31:0] ImpId  = 32'd1,
  parameter bit          DotProducts = 1'b1  // ucxcfg.DOT reads 0 and ignores writes without them
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Access from the EX stage (not asserted when an older fault, an interrupt
  // or a fetch fault withdraws the instruction). Commit only with access_i
  // and !illegal_o.
  input  logic            access_i,
  input  logic [11:0]     addr_i,
  input  cpu_pkg::csr_op_e op_i,
  input  logic            write_i,     // the op writes (rs1 != x0 or uimm != 0 for set/clear)
  input  logic [31:0]     wdata_i,
  output logic [31:0]     rdata_o,
  output logic            illegal_o,

  // Trap entry and mret. The trap's state (mepc, mcause, mtval, mstatus) is
  // written a cycle late, from registers: the trap signal ends EX's longest
  // path, and the handler's first instruction is still two cycles away.
  input  logic        trap_i,
  input  logic        trap_irq_i,
  input  logic [4:0]  trap_cause_i,
  input  logic [31:2] trap_pc_i,
  input  logic [31:0] trap_tval_i,
  input  logic        mret_i,
  output logic [31:0] trap_vector_o,  // where trap_i goes
  output logic [31:0] mepc_o,

  // Interrupts.
  input  logic        timer_irq_i,
  input  logic        ext_irq_i,
  output logic        irq_pending_o,
  output logic [4:0]  irq_cause_o,
  output logic        irq_wake_o,     // an interrupt enabled in mie is pending (wfi ends)
  output logic        dot_enable_o,   // ucxcfg.DOT: the packed dot products execute (else illegal)

  // Counters.
  input  logic        instret_i,      // an instruction retired this cycle
  input  logic        instret_undo_i, // a retired access faulted after all
  input  logic [63:0] time_i
);

  logic        mie_q, mpie_q;           // mstatus.MIE / MPIE
  logic        mtie_q, meie_q;          // mie.MTIE / MEIE
  logic [31:2] mtvec_base_q, mepc_q;
  logic        mtvec_vectored_q;
  logic        mcause_irq_q;            // mcause is WLRL: interrupt bit and a 5-bit code
  logic [4:0]  mcause_code_q;
  logic [31:0] mscratch_q, mtval_q;
  logic        dot_enable_q;            // ucxcfg bit 0
  logic [63:0] mcycle_q, minstret_q /*verilator public_flat_rd*/;
  // Retirements are counted a cycle late (the retire signal comes at the end
  // of EX's longest path); reads add the step still pending.
  logic        instret_pending_q, instret_undo_pending_q;
  logic [63:0] minstret_step, minstret;

  logic        trap_q, trap_irq_q;
  logic [4:0]  trap_cause_q;
  logic [31:2] trap_pc_q;
  logic [31:0] trap_tval_q;

  logic [31:0] new_value, counter_value;
  logic [63:0] counter;
  logic        known, read_only, do_write;

  // The counters (cycle, time, instret and their m* and high-half names)
  // differ only in address bits [1:0] and [7]: one small mux for all of them.
  always_comb begin
    unique case (addr_i[1:0])
      2'b00:   counter = mcycle_q;
      2'b01:   counter = time_i;
      default: counter = minstret;
    endcase
    counter_value = addr_i[7] ? counter[63:32] : counter[31:0];
  end

  // Read: an AND-OR of the selected CSR (cheaper than a wide case on FPGAs).
  always_comb begin
    known   = 1'b1;
    rdata_o = '0;
    unique case (addr_i)
      cpu_pkg::CSR_MSTATUS:   rdata_o = {19'b0, 2'b11, 3'b0, mpie_q, 3'b0, mie_q, 3'b0};
      cpu_pkg::CSR_MISA:      rdata_o = 32'h4000_1100;  // MXL=32, I, M
      cpu_pkg::CSR_MIE:       rdata_o = {20'b0, meie_q, 3'b0, mtie_q, 7'b0};
      cpu_pkg::CSR_MTVEC:     rdata_o = {mtvec_base_q, 1'b0, mtvec_vectored_q};
      cpu_pkg::CSR_MSCRATCH:  rdata_o = mscratch_q;
      cpu_pkg::CSR_UCXCFG:    rdata_o = {31'b0, dot_enable_q};
      cpu_pkg::CSR_MEPC:      rdata_o = {mepc_q, 2'b00};
      cpu_pkg::CSR_MCAUSE:    rdata_o = {mcause_irq_q, 26'b0, mcause_code_q};
      cpu_pkg::CSR_MTVAL:     rdata_o = mtval_q;
      cpu_pkg::CSR_MIP:       rdata_o = {20'b0, ext_irq_i, 3'b0, timer_irq_i, 7'b0};
      cpu_pkg::CSR_MCYCLE, cpu_pkg::CSR_CYCLE, cpu_pkg::CSR_MCYCLEH, cpu_pkg::CSR_CYCLEH,
      cpu_pkg::CSR_MINSTRET, cpu_pkg::CSR_INSTRET, cpu_pkg::CSR_MINSTRETH, cpu_pkg::CSR_INSTRETH,
      cpu_pkg::CSR_TIME, cpu_pkg::CSR_TIMEH: rdata_o = counter_value;
      cpu_pkg::CSR_MIMPID:    rdata_o = ImpId;
      cpu_pkg::CSR_MHARTID:   rdata_o = HartId;
      cpu_pkg::CSR_MSTATUSH, cpu_pkg::CSR_MVENDORID, cpu_pkg::CSR_MARCHID,
      cpu_pkg::CSR_MCONFIGPTR,
      // No debug triggers: tselect reads 0 and tdata1.type = 0 says so.
      cpu_pkg::CSR_TSELECT, cpu_pkg::CSR_TDATA1, cpu_pkg::CSR_TDATA2: rdata_o = '0;
      default:                known = 1'b0;
    endcase
  end

  always_comb begin
    unique case (op_i)
      cpu_pkg::CSR_SET:   new_value = rdata_o | wdata_i;
      cpu_pkg::CSR_CLEAR: new_value = rdata_o & ~wdata_i;
      default:            new_value = wdata_i;
    endcase
  end

  assign read_only = (addr_i[11:10] == 2'b11);
  assign illegal_o = access_i && (!known || (write_i && read_only));
  assign do_write  = access_i && write_i && !illegal_o;

  // +1, 0 or -1 (a retired access that faulted in WB is taken back).
  assign minstret_step = {{63{instret_undo_pending_q && !instret_pending_q}},
                          instret_pending_q ^ instret_undo_pending_q};
  assign minstret      = minstret_q + minstret_step;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mie_q            <= 1'b0;
      mpie_q           <= 1'b0;
      mtie_q           <= 1'b0;
      meie_q           <= 1'b0;
      mtvec_base_q     <= '0;
      mtvec_vectored_q <= 1'b0;
      mscratch_q       <= '0;
      dot_enable_q     <= DotProducts;
      mepc_q           <= '0;
      mcause_irq_q     <= 1'b0;
      mcause_code_q    <= '0;
      mtval_q          <= '0;
      mcycle_q         <= '0;
      minstret_q       <= '0;
      instret_pending_q      <= 1'b0;
      instret_undo_pending_q <= 1'b0;
      trap_q           <= 1'b0;
      trap_irq_q       <= 1'b0;
      trap_cause_q     <= '0;
      trap_pc_q        <= '0;
      trap_tval_q      <= '0;
    end else begin
      trap_q                 <= trap_i;
      trap_irq_q             <= trap_irq_i;
      trap_cause_q           <= trap_cause_i;
      trap_pc_q              <= trap_pc_i;
      trap_tval_q            <= trap_tval_i;
      mcycle_q               <= mcycle_q + 64'd1;
      minstret_q             <= minstret;
      // The instruction that writes minstret does not count on top of the
      // value it wrote.
      instret_pending_q      <= instret_i && !(do_write && (addr_i == cpu_pkg::CSR_MINSTRET ||
                                                            addr_i == cpu_pkg::CSR_MINSTRETH));
      instret_undo_pending_q <= instret_undo_i;

      // EX is empty the cycle after a trap: no mret or write competes.
      if (trap_q) begin
        mepc_q        <= trap_pc_q;
        mcause_irq_q  <= trap_irq_q;
        mcause_code_q <= trap_cause_q;
        mtval_q       <= trap_tval_q;
        mpie_q        <= mie_q;
        mie_q         <= 1'b0;
      end else if (mret_i) begin
        mie_q  <= mpie_q;
        mpie_q <= 1'b1;
      end else if (do_write) begin
        unique case (addr_i)
          cpu_pkg::CSR_MSTATUS: begin
            mie_q  <= new_value[3];
            mpie_q <= new_value[7];
          end
          cpu_pkg::CSR_MIE: begin
            mtie_q <= new_value[7];
            meie_q <= new_value[11];
          end
          cpu_pkg::CSR_MTVEC: begin
            // Vectored mode needs a 64-byte aligned base (WARL): the vector
            // is then a concatenation, not a sum.
            mtvec_vectored_q <= new_value[0];
            mtvec_base_q     <= new_value[0] ? {new_value[31:6], 4'b0} : new_value[31:2];
          end
          cpu_pkg::CSR_MSCRATCH:  mscratch_q        <= new_value;
          cpu_pkg::CSR_UCXCFG:    dot_enable_q      <= DotProducts && new_value[0];
          cpu_pkg::CSR_MEPC:      mepc_q            <= new_value[31:2];
          cpu_pkg::CSR_MCAUSE: begin
            mcause_irq_q  <= new_value[31];
            mcause_code_q <= new_value[4:0];
          end
          cpu_pkg::CSR_MTVAL:     mtval_q           <= new_value;
          cpu_pkg::CSR_MCYCLE:    mcycle_q[31:0]    <= new_value;
          cpu_pkg::CSR_MCYCLEH:   mcycle_q[63:32]   <= new_value;
          cpu_pkg::CSR_MINSTRET:  minstret_q[31:0]  <= new_value;
          cpu_pkg::CSR_MINSTRETH: minstret_q[63:32] <= new_value;
          default: ;
        endcase
      end
    end
  end

  // Interrupt causes are 7 and 11, so the vector fits in bits [5:2].
  assign trap_vector_o = (trap_irq_i && mtvec_vectored_q)
                         ? {mtvec_base_q[31:6], trap_cause_i[3:0], 2'b00}
                         : {mtvec_base_q, 2'b00};
  assign mepc_o = {mepc_q, 2'b00};
  assign dot_enable_o = dot_enable_q;

  // External interrupts take priority over timer interrupts.
  assign irq_pending_o = mie_q && ((meie_q && ext_irq_i) || (mtie_q && timer_irq_i));
  assign irq_cause_o   = (meie_q && ext_irq_i) ? cpu_pkg::IRQ_EXTERNAL : cpu_pkg::IRQ_TIMER;
  // wfi wakes on what mie enables, whatever mstatus.MIE says (the privileged spec).
  assign irq_wake_o    = (meie_q && ext_irq_i) || (mtie_q && timer_irq_i);

endmodule : cpu_csr
