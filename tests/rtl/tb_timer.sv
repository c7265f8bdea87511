// Timer unit test: mtime counts cycles, 64-bit writes, the interrupt
// condition mtime >= mtimecmp, carry into the high word, bad offsets.
`timescale 1ns/1ps
module tb_timer;
  import soc_bus_pkg::*;
  import soc_regs_pkg::*;
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 12;  // a run makes 12

  logic clk = 0, rst_n = 0;
  bus_req_t req = '0;
  bus_rsp_t rsp;
  logic [63:0] mtime;
  logic irq;

  always #5 clk = ~clk;

  timer dut (.clk_i(clk), .rst_ni(rst_n), .req_i(req), .rsp_o(rsp), .mtime_o(mtime), .irq_o(irq));

  `include "bus_master.svh"

  logic [31:0] d, d2;
  logic e;
  logic [63:0] t0;

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1;
    tb_check(!irq, "no interrupt after reset (mtimecmp all ones)");
    dev_read(TIMER_BASE + 32'(TIMER_MTIMECMP_LO_OFFSET), d, e);
    dev_read(TIMER_BASE + 32'(TIMER_MTIMECMP_HI_OFFSET), d2, e);
    tb_check(d == '1 && d2 == '1, "mtimecmp resets to all ones");

    // mtime advances by one per cycle.
    @(negedge clk);
    t0 = mtime;
    repeat (100) @(negedge clk);
    tb_check(mtime - t0 == 100, "mtime counts cycles");
    dev_read(TIMER_BASE + 32'(TIMER_MTIME_LO_OFFSET), d, e);
    tb_check(!e && d == mtime[31:0] - 1, "MTIME_LO reads the count of the access cycle");
    // (dev_read samples mid-cycle and returns after one more edge.)

    // Writes and carry from the low into the high word.
    dev_write(TIMER_BASE + 32'(TIMER_MTIME_HI_OFFSET), 32'h5, e);
    dev_write(TIMER_BASE + 32'(TIMER_MTIME_LO_OFFSET), 32'hffff_fff0, e);
    repeat (20) @(negedge clk);
    tb_check(mtime[63:32] == 32'h6, "carry into MTIME_HI");

    // Interrupt exactly when mtime reaches mtimecmp.
    dev_write(TIMER_BASE + 32'(TIMER_MTIME_HI_OFFSET), 32'h0, e);
    dev_write(TIMER_BASE + 32'(TIMER_MTIME_LO_OFFSET), 32'h0, e);
    dev_write(TIMER_BASE + 32'(TIMER_MTIMECMP_HI_OFFSET), 32'h0, e);
    dev_write(TIMER_BASE + 32'(TIMER_MTIMECMP_LO_OFFSET), 32'd50, e);
    tb_check(!irq, "not yet pending");
    wait (mtime == 64'd49);
    #1 tb_check(!irq, "not pending one cycle before");
    @(posedge clk);
    #1 tb_check(irq && mtime == 64'd50, "pending at mtime == mtimecmp");
    repeat (10) @(posedge clk);
    #1 tb_check(irq, "stays pending after");
    dev_write(TIMER_BASE + 32'(TIMER_MTIMECMP_HI_OFFSET), 32'h1, e);
    #1 tb_check(!irq, "cleared by a later mtimecmp");

    dev_read(TIMER_BASE + 32'h10, d, e);
    tb_check(e, "unknown offset errors");
    dev_write(TIMER_BASE + 32'h20, 32'h0, e);
    tb_check(e, "unknown offset write errors");
    tb_finish(MinChecks);
  end
endmodule
