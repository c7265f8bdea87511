// Machine-mode CSRs (Zicsr, Zicntr), trap entry and return state.
// Reads or writes of an unimplemented CSR, and writes of a read-only one,
// are reported as illegal; the core then traps instead of committing.
module cpu_csr
  import cpu_pkg::*;
#(
  parameter logic [31:0] HartId = 32'd0,
  parameter logic [31:0] ImpId  = 32'd1
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Access from the EX stage. Commit only with access_i and !illegal_o.
  input  logic        access_i,
  input  logic [11:0] addr_i,
  input  csr_op_e     op_i,
  input  logic        write_i,     // the op writes (rs1 != x0 or uimm != 0 for set/clear)
  input  logic [31:0] wdata_i,
  output logic [31:0] rdata_o,
  output logic        illegal_o,

  // Trap entry (takes priority over a CSR write in the same cycle) and mret.
  input  logic        trap_i,
  input  logic        trap_irq_i,
  input  logic [4:0]  trap_cause_i,
  input  logic [31:0] trap_pc_i,
  input  logic [31:0] trap_tval_i,
  input  logic        mret_i,
  output logic [31:0] trap_vector_o,  // where trap_i goes
  output logic [31:0] mepc_o,

  // Interrupts.
  input  logic        timer_irq_i,
  input  logic        ext_irq_i,
  output logic        irq_pending_o,
  output logic [4:0]  irq_cause_o,

  // Counters.
  input  logic        instret_i,      // an instruction retired this cycle
  input  logic        instret_undo_i, // a retired access faulted after all
  input  logic [63:0] time_i
);

  logic        mie_q, mpie_q;           // mstatus.MIE / MPIE
  logic        mtie_q, meie_q;          // mie.MTIE / MEIE
  logic [31:0] mtvec_q, mscratch_q, mepc_q, mcause_q, mtval_q;
  logic [63:0] mcycle_q, minstret_q /*verilator public_flat_rd*/;

  logic [31:0] mstatus, mip, mie;
  logic [31:0] old_value, new_value;
  logic        known, read_only, do_write;

  assign mstatus = {19'b0, 2'b11, 3'b0, mpie_q, 3'b0, mie_q, 3'b0};
  assign mip     = {20'b0, ext_irq_i, 3'b0, timer_irq_i, 7'b0};
  assign mie     = {20'b0, meie_q, 3'b0, mtie_q, 7'b0};

  always_comb begin
    known     = 1'b1;
    old_value = '0;
    unique case (addr_i)
      CSR_MSTATUS:    old_value = mstatus;
      CSR_MSTATUSH:   old_value = '0;
      CSR_MISA:       old_value = 32'h4000_1100;  // MXL=32, I, M
      CSR_MIE:        old_value = mie;
      CSR_MTVEC:      old_value = mtvec_q;
      CSR_MSCRATCH:   old_value = mscratch_q;
      CSR_MEPC:       old_value = mepc_q;
      CSR_MCAUSE:     old_value = mcause_q;
      CSR_MTVAL:      old_value = mtval_q;
      CSR_MIP:        old_value = mip;
      CSR_MCYCLE,   CSR_CYCLE:    old_value = mcycle_q[31:0];
      CSR_MCYCLEH,  CSR_CYCLEH:   old_value = mcycle_q[63:32];
      CSR_MINSTRET, CSR_INSTRET:  old_value = minstret_q[31:0];
      CSR_MINSTRETH, CSR_INSTRETH: old_value = minstret_q[63:32];
      CSR_TIME:       old_value = time_i[31:0];
      CSR_TIMEH:      old_value = time_i[63:32];
      CSR_MVENDORID, CSR_MARCHID, CSR_MCONFIGPTR: old_value = '0;
      // No debug triggers: tselect reads 0 and tdata1.type = 0 says so.
      CSR_TSELECT, CSR_TDATA1, CSR_TDATA2:          old_value = '0;
      CSR_MIMPID:     old_value = ImpId;
      CSR_MHARTID:    old_value = HartId;
      default:        known = 1'b0;
    endcase
  end

  always_comb begin
    unique case (op_i)
      CSR_SET:   new_value = old_value | wdata_i;
      CSR_CLEAR: new_value = old_value & ~wdata_i;
      default:   new_value = wdata_i;
    endcase
  end

  assign read_only = (addr_i[11:10] == 2'b11);
  assign illegal_o = access_i && (!known || (write_i && read_only));
  assign do_write  = access_i && write_i && !illegal_o && !trap_i;
  assign rdata_o   = old_value;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mie_q      <= 1'b0;
      mpie_q     <= 1'b0;
      mtie_q     <= 1'b0;
      meie_q     <= 1'b0;
      mtvec_q    <= '0;
      mscratch_q <= '0;
      mepc_q     <= '0;
      mcause_q   <= '0;
      mtval_q    <= '0;
      mcycle_q   <= '0;
      minstret_q <= '0;
    end else begin
      mcycle_q   <= mcycle_q + 64'd1;
      minstret_q <= minstret_q + 64'(instret_i) - 64'(instret_undo_i);

      if (trap_i) begin
        mepc_q   <= trap_pc_i;
        mcause_q <= {trap_irq_i, 26'b0, trap_cause_i};
        mtval_q  <= trap_tval_i;
        mpie_q   <= mie_q;
        mie_q    <= 1'b0;
      end else if (mret_i) begin
        mie_q  <= mpie_q;
        mpie_q <= 1'b1;
      end else if (do_write) begin
        unique case (addr_i)
          CSR_MSTATUS: begin
            mie_q  <= new_value[3];
            mpie_q <= new_value[7];
          end
          CSR_MIE: begin
            mtie_q <= new_value[7];
            meie_q <= new_value[11];
          end
          CSR_MTVEC:     mtvec_q    <= {new_value[31:2], 1'b0, new_value[0]};
          CSR_MSCRATCH:  mscratch_q <= new_value;
          CSR_MEPC:      mepc_q     <= {new_value[31:2], 2'b00};
          CSR_MCAUSE:    mcause_q   <= new_value;
          CSR_MTVAL:     mtval_q    <= new_value;
          CSR_MCYCLE:    mcycle_q[31:0]    <= new_value;
          CSR_MCYCLEH:   mcycle_q[63:32]   <= new_value;
          CSR_MINSTRET:  minstret_q[31:0]  <= new_value;
          CSR_MINSTRETH: minstret_q[63:32] <= new_value;
          default: ;
        endcase
      end
    end
  end

  // Vectored mode sends interrupts to base + 4 * cause.
  assign trap_vector_o = (trap_irq_i && mtvec_q[0]) ? {mtvec_q[31:2], 2'b00} + {25'b0, trap_cause_i, 2'b00}
                                                    : {mtvec_q[31:2], 2'b00};
  assign mepc_o = mepc_q;

  // External interrupts take priority over timer interrupts.
  assign irq_pending_o = mie_q && ((meie_q && ext_irq_i) || (mtie_q && timer_irq_i));
  assign irq_cause_o   = (meie_q && ext_irq_i) ? IRQ_EXTERNAL : IRQ_TIMER;

endmodule : cpu_csr
