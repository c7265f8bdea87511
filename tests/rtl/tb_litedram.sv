// Unit test of the Arty's memory path as soc_top builds it: ext_mem with
// Litedram (the data cache, litedram_port and the crossing to the
// controller's clock) and the DRAMCTL peripheral, in front of LiteDRAM's
// generated controller with its DRAM model (build/litedram/sim,
// mk/litedram.mk; sim/board/litedram_model.sv), the SoC and the controller
// on clocks of unrelated periods. DRAMCTL's misuses are refused; the user
// port opens only once init_done is set through DRAMCTL, as the firmware
// does after the DDR3's initialisation, and until then a miss must wait.
// Then every word of 48 lines spread over the whole 256 MB (different
// banks and rows) is written, a seeded random mix of loads and stores of
// any byte mask runs over them (six times the cache's lines, so lines are
// written back and filled all the time), each line is flushed (written
// back and dropped), and every word is read back from the DRAM. Every load
// is checked against a model.
`timescale 1ns/1ps
module tb_litedram;
  import soc_bus_pkg::*;
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 3_500;  // a run makes 3,840

  localparam int unsigned SizeBytes = 256, LineBytes = 32, AddrW = 26;
  localparam int unsigned LineWords = LineBytes / 4, NumLines = 48;
  logic clk = 0, rst_n = 0, dram_clk = 0;
  bus_req_t req = '0, ctl_req = '0;
  bus_rsp_t rsp, ctl_rsp;
  logic rvalid;
  logic [31:0] hits, misses;
  dram_native_req_t native_req;
  dram_native_rsp_t native_rsp;
  dram_wb_req_t wb_req;
  dram_wb_rsp_t wb_rsp;
  logic user_clk, user_rst;

  always #6.5 clk = ~clk;       // the SoC: 13 ns
  always #2.5 dram_clk = ~dram_clk;  // the controller: 5 ns

  ext_mem #(
    .ClkHz (76_923_077), .SdramBytes (1 << (AddrW + 2)), .DcacheBytes (SizeBytes), .DcacheLineBytes (LineBytes), .Litedram (1'b1)
  ) u_ext_mem (
    .clk_i(clk), .rst_ni(rst_n), .now_i('0), .req_i(req), .rsp_o(rsp), .rvalid_o(rvalid),
    .hits_o(hits), .misses_o(misses),
    .sdram_o(), .sdram_dq_i('0),
    .dram_clk_i(user_clk), .dram_rst_ni(!user_rst), .dram_native_o(native_req), .dram_native_i(native_rsp)
  );
  dramctl u_dramctl (
    .clk_i(clk), .rst_ni(rst_n), .req_i(ctl_req), .rsp_o(ctl_rsp),
    .dram_clk_i(user_clk), .dram_rst_ni(!user_rst), .dram_wb_o(wb_req), .dram_wb_i(wb_rsp)
  );
  litedram_model u_dram (
    .clk_i(dram_clk), .user_clk_o(user_clk), .user_rst_o(user_rst),
    .native_i(native_req), .native_o(native_rsp), .wb_i(wb_req), .wb_o(wb_rsp)
  );

  // A DRAMCTL register access as the bus hands it over: the registered
  // request for one cycle, answered in it.
  task automatic ctl(input logic we, input logic [11:0] offset, input logic [31:0] data,
                     output logic [31:0] got, output logic err);
    ctl_req = '{req: 1'b1, we: we, be: 4'hF, addr: 32'(offset), wdata: data};
    #1;
    got = ctl_rsp.rdata;
    err = ctl_rsp.err;
    @(negedge clk);
    ctl_req = '0;
  endtask
  // A LiteDRAM CSR access through DRAMCTL: ADDR, DATA, CMD, then STATUS
  // until BUSY falls.
  task automatic csr_access(input logic we, input logic [31:0] addr, inout logic [31:0] data);
    logic [31:0] got;
    logic err;
    int unsigned polls = 0;
    ctl(1'b1, soc_regs_pkg::DRAMCTL_ADDR_OFFSET, addr, got, err);
    tb_check(!err, "DRAMCTL ADDR written");
    if (we) ctl(1'b1, soc_regs_pkg::DRAMCTL_DATA_OFFSET, data, got, err);
    ctl(1'b1, soc_regs_pkg::DRAMCTL_CMD_OFFSET, 32'(we), got, err);
    tb_check(!err, "DRAMCTL CMD accepted");
    ctl(1'b1, soc_regs_pkg::DRAMCTL_CMD_OFFSET, 32'(we), got, err);
    tb_check(err, "DRAMCTL CMD refused while BUSY");
    ctl(1'b1, soc_regs_pkg::DRAMCTL_DATA_OFFSET, 32'h0, got, err);
    tb_check(err, "DRAMCTL DATA refused while BUSY");
    do begin
      ctl(1'b0, soc_regs_pkg::DRAMCTL_STATUS_OFFSET, '0, got, err);
      polls++;
    end while (got[0] && polls < 100);
    tb_check(!got[0] && !got[1], $sformatf("CSR access at %08x finished without error (status %08x)", addr, got));
    ctl(1'b0, soc_regs_pkg::DRAMCTL_DATA_OFFSET, '0, got, err);
    if (we) tb_check(got == data, $sformatf("DATA keeps the value written (%08x, not %08x)", data, got));
    else data = got;
  endtask

  // An access the way the core makes it: the request for one cycle, then
  // nothing until rvalid (at most LIMIT cycles).
  task automatic access(input logic we, input int unsigned word, input logic [3:0] be,
                        input logic [31:0] data, input int unsigned limit, output logic [31:0] got,
                        output bit answered);
    int unsigned waited = 0;
    req = '{req: 1'b1, we: we, be: be, addr: 32'(word * 4), wdata: data};
    @(negedge clk);
    req = '{req: 1'b0, we: 1'b0, be: 4'h0, addr: $urandom, wdata: '0};
    while (!rvalid && waited < limit) begin
      @(negedge clk);
      waited++;
    end
    answered = rvalid;
    got      = rsp.rdata;
  endtask

  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] new_data, logic [3:0] be);
    for (int i = 0; i < 4; i++) merge[8*i +: 8] = be[i] ? new_data[8*i +: 8] : old[8*i +: 8];
  endfunction

  int unsigned line_word [NumLines];  // each line's first word address
  logic [31:0] model [int unsigned];
  int unsigned loads = 0;

  task automatic load_check(input int unsigned word);
    logic [31:0] got;
    bit answered;
    access(1'b0, word, 4'hF, '0, 2000, got, answered);
    loads++;
    tb_check(answered && got == model[word],
             $sformatf("load of word 0x%0x: got %08x want %08x (answered %0d)", word, got, model[word], answered));
  endtask
  task automatic store(input int unsigned word, input logic [31:0] data, input logic [3:0] be);
    logic [31:0] unused;
    bit answered;
    access(1'b1, word, be, data, 2000, unused, answered);
    tb_check(answered, $sformatf("store to word 0x%0x never answered", word));
    model[word] = merge(model.exists(word) ? model[word] : '0, data, be);
  endtask

  initial begin
    logic [31:0] unused, status, csr_data;
    logic err;
    bit answered;
    int unsigned word;
    for (int i = 0; i < NumLines; i++) line_word[i] = ($urandom % (1 << AddrW)) & ~(LineWords - 1);
    repeat (4) @(negedge clk);
    rst_n = 1;
    while (user_rst) @(negedge clk);
    // Misuses of DRAMCTL are refused.
    ctl(1'b1, soc_regs_pkg::DRAMCTL_STATUS_OFFSET, '0, unused, err);
    tb_check(err, "a write to DRAMCTL STATUS is refused");
    ctl(1'b0, soc_regs_pkg::DRAMCTL_CMD_OFFSET, '0, unused, err);
    tb_check(err, "a read of DRAMCTL CMD is refused");
    ctl(1'b0, 12'h40, '0, unused, err);
    tb_check(err, "an access outside DRAMCTL's registers is refused");
    // The user port is closed until init_done: a store that misses waits.
    access(1'b1, line_word[0], 4'hF, 32'h1, 300, unused, answered);
    ctl(1'b0, soc_regs_pkg::DRAMCTL_STATUS_OFFSET, '0, status, err);
    tb_check(!answered && !status[2], "the user port is closed before init_done");
    // A CSR round trip (the DFII's control register, hardware control
    // after reset), then init_done.
    csr_data = '0;
    csr_access(1'b0, 32'h800, csr_data);
    tb_check(csr_data != 0, $sformatf("DFII control read back as %08x", csr_data));
    csr_data = 32'h1;
    csr_access(1'b1, 32'h0, csr_data);
    csr_data = '0;
    csr_access(1'b0, 32'h0, csr_data);
    tb_check(csr_data == 32'h1, $sformatf("init_done reads back as %08x", csr_data));
    ctl(1'b0, soc_regs_pkg::DRAMCTL_STATUS_OFFSET, '0, status, err);
    tb_check(status[3:2] == 2'b01, $sformatf("STATUS shows init_done (%08x)", status));
    while (!rvalid) @(negedge clk);  // the waiting store goes through
    model[line_word[0]] = 32'h1;
    @(negedge clk);

    for (int i = 0; i < NumLines; i++)
      for (int k = 0; k < LineWords; k++) store(line_word[i] + k, $urandom, 4'hF);
    for (int n = 0; n < 3000; n++) begin
      word = line_word[$urandom % NumLines] + $urandom % LineWords;
      if ($urandom % 2) load_check(word);
      else store(word, $urandom, 4'($urandom % 15 + 1));
    end
    // cbo.flush of every line: written back and dropped, so the reads
    // below come from the DRAM.
    for (int i = 0; i < NumLines; i++) begin
      access(1'b1, line_word[i], 4'h0, 32'd2, 2000, unused, answered);
      tb_check(answered, $sformatf("flush of line 0x%0x never answered", line_word[i]));
    end
    for (int i = 0; i < NumLines; i++)
      for (int k = 0; k < LineWords; k++) load_check(line_word[i] + k);
    tb_check(misses > 2 * NumLines, $sformatf("only %0d misses", misses));
    $display("loads %0d, hits %0d, misses %0d", loads, hits, misses);
    tb_finish(MinChecks);
  end
endmodule
