// Unit test of the Arty's memory path: the data cache and litedram_port in
// front of LiteDRAM's generated controller with its DRAM model
// (build/litedram/sim, mk/litedram.mk). The user port opens only once
// init_done is set over wb_ctrl, as the firmware will after the DDR3's
// initialisation; until then a miss must wait. Then every word of 48 lines
// spread over the whole 256 MB (different banks and rows) is written, a
// seeded random mix of loads and stores of any byte mask runs over them
// (six times the cache's lines, so lines are written back and filled all
// the time), each line is flushed (written back and dropped), and every
// word is read back from the DRAM. Every load is checked against a model.
`timescale 1ns/1ps
module tb_litedram;
  import soc_bus_pkg::*;
  `include "tb_util.svh"

  localparam int unsigned SizeBytes = 256, LineBytes = 32, AddrW = 26;
  localparam int unsigned LineWords = LineBytes / 4, NumLines = 48;
  logic clk = 0, rst_n = 0;
  bus_req_t req = '0;
  bus_rsp_t rsp;
  logic rvalid;
  logic [31:0] hits, misses;
  logic cmd_valid, cmd_ready, cmd_we, wdata_ready, rdata_valid;
  logic [AddrW-1:0] cmd_addr;
  logic [3:0] cmd_words_m1, wbe;
  logic [31:0] wdata, rdata;
  logic n_cmd_valid, n_cmd_ready, n_cmd_we, n_wdata_valid, n_wdata_ready, n_rdata_valid, n_rdata_ready;
  logic [AddrW-3:0] n_cmd_addr;
  logic [127:0] n_wdata, n_rdata;
  logic [15:0] n_wdata_we;
  logic init_done, init_error, user_clk, user_rst;
  logic wb_cyc = 0, wb_stb = 0, wb_we = 0, wb_ack, wb_err;
  logic [29:0] wb_adr = '0;
  logic [31:0] wb_dat_w = '0, wb_dat_r;

  always #5 clk = ~clk;

  dcache #(.SizeBytes(SizeBytes), .LineBytes(LineBytes), .AddrW(AddrW)) u_dcache (
    .clk_i(clk), .rst_ni(rst_n), .req_i(req), .rsp_o(rsp), .rvalid_o(rvalid),
    .hits_o(hits), .misses_o(misses),
    .cmd_valid_o(cmd_valid), .cmd_ready_i(cmd_ready), .cmd_we_o(cmd_we), .cmd_addr_o(cmd_addr),
    .cmd_words_m1_o(cmd_words_m1), .wdata_o(wdata), .wbe_o(wbe), .wdata_ready_i(wdata_ready),
    .rdata_i(rdata), .rdata_valid_i(rdata_valid)
  );
  litedram_port #(.AddrW(AddrW)) u_port (
    .clk_i(clk), .rst_ni(rst_n),
    .cmd_valid_i(cmd_valid), .cmd_ready_o(cmd_ready), .cmd_we_i(cmd_we), .cmd_addr_i(cmd_addr),
    .cmd_words_m1_i(cmd_words_m1), .wdata_i(wdata), .wbe_i(wbe), .wdata_ready_o(wdata_ready),
    .rdata_o(rdata), .rdata_valid_o(rdata_valid),
    .native_cmd_valid_o(n_cmd_valid), .native_cmd_ready_i(n_cmd_ready), .native_cmd_we_o(n_cmd_we),
    .native_cmd_addr_o(n_cmd_addr), .native_wdata_valid_o(n_wdata_valid), .native_wdata_ready_i(n_wdata_ready),
    .native_wdata_o(n_wdata), .native_wdata_we_o(n_wdata_we), .native_rdata_valid_i(n_rdata_valid),
    .native_rdata_ready_o(n_rdata_ready), .native_rdata_i(n_rdata)
  );
  litedram_sim u_dram (
    .clk(clk), .init_done(init_done), .init_error(init_error), .sim_trace(1'b0),
    .user_clk(user_clk), .user_rst(user_rst),
    .user_port_native_0_cmd_addr(n_cmd_addr), .user_port_native_0_cmd_ready(n_cmd_ready),
    .user_port_native_0_cmd_valid(n_cmd_valid), .user_port_native_0_cmd_we(n_cmd_we),
    .user_port_native_0_rdata_data(n_rdata), .user_port_native_0_rdata_ready(n_rdata_ready),
    .user_port_native_0_rdata_valid(n_rdata_valid), .user_port_native_0_wdata_data(n_wdata),
    .user_port_native_0_wdata_ready(n_wdata_ready), .user_port_native_0_wdata_valid(n_wdata_valid),
    .user_port_native_0_wdata_we(n_wdata_we),
    .wb_ctrl_ack(wb_ack), .wb_ctrl_adr(wb_adr), .wb_ctrl_bte(2'b0), .wb_ctrl_cti(3'b0), .wb_ctrl_cyc(wb_cyc),
    .wb_ctrl_dat_r(wb_dat_r), .wb_ctrl_dat_w(wb_dat_w), .wb_ctrl_err(wb_err), .wb_ctrl_sel(4'hF),
    .wb_ctrl_stb(wb_stb), .wb_ctrl_we(wb_we)
  );

  // A Wishbone write to the core's CSRs (byte address; init_done is at 0).
  task automatic wb_write(input logic [31:0] addr, input logic [31:0] data);
    int unsigned waited = 0;
    @(negedge clk);
    {wb_cyc, wb_stb, wb_we, wb_adr, wb_dat_w} = {3'b111, addr[31:2], data};
    do begin
      @(negedge clk);
      waited++;
    end while (!wb_ack && waited < 100);
    tb_check(wb_ack, $sformatf("wb_ctrl write of %08x never acknowledged", addr));
    {wb_cyc, wb_stb, wb_we} = 3'b000;
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
    logic [31:0] unused;
    bit answered;
    int unsigned word;
    for (int i = 0; i < NumLines; i++) line_word[i] = ($urandom % (1 << AddrW)) & ~(LineWords - 1);
    repeat (4) @(negedge clk);
    rst_n = 1;
    // The user port is closed until init_done: a store that misses waits.
    access(1'b1, line_word[0], 4'hF, 32'h1, 300, unused, answered);
    tb_check(!answered && !init_done, "the user port is closed before init_done");
    wb_write(32'h0, 32'h1);
    tb_check(init_done && !init_error, "init_done set over wb_ctrl");
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
    tb_finish();
  end
endmodule
