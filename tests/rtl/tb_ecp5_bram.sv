// The gate-level block RAM model (sim/board/ecp5_models.v) against RTL:
// ecp5_rams as written and as synth_ecp5 maps it (ecp5_rams_net), driven
// alike with random reads and writes; every output compared every cycle.
// Reads from the simple dual-port RAM never hit the word written in the
// same cycle (block RAM leaves that undefined across ports).
`timescale 1ns / 1ps
module tb_ecp5_bram #(
  parameter RomInit  = "",
  parameter RamInit  = "",
  parameter BitsInit = ""
);
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 1_000_000;  // a run makes 1,081,920

  logic        clk = 1'b0;
  logic [13:0] addr, raddr;
  logic [3:0]  be;
  logic        we, re;
  logic [35:0] wdata;
  logic [31:0] rom_ref, rom_net, ram_ref, ram_net;
  logic [35:0] wide_ref, wide_net;
  logic [17:0] half_ref, half_net;
  logic [1:0]  bits_ref, bits_net;

  ecp5_rams #(.RomInit(RomInit), .RamInit(RamInit), .BitsInit(BitsInit)) u_ref (.clk_i(clk), .addr_i(addr), .raddr_i(raddr), .be_i(be), .we_i(we), .re_i(re),
                   .wdata_i(wdata), .rom_o(rom_ref), .ram_o(ram_ref), .wide_o(wide_ref), .half_o(half_ref),
                   .bits_o(bits_ref));
  ecp5_rams_net u_net (.clk_i(clk), .addr_i(addr), .raddr_i(raddr), .be_i(be), .we_i(we), .re_i(re),
                       .wdata_i(wdata), .rom_o(rom_net), .ram_o(ram_net), .wide_o(wide_net), .half_o(half_net),
                       .bits_o(bits_net));

  always #5 clk = ~clk;

  int unsigned cycles = 0;
  task automatic step();
    @(posedge clk);
    #1;
    cycles++;
    tb_check(rom_net === rom_ref, $sformatf("cycle %0d: rom %h, expected %h", cycles, rom_net, rom_ref));
    tb_check(ram_net === ram_ref, $sformatf("cycle %0d: ram %h, expected %h", cycles, ram_net, ram_ref));
    tb_check(wide_net === wide_ref, $sformatf("cycle %0d: wide %h, expected %h", cycles, wide_net, wide_ref));
    tb_check(half_net === half_ref, $sformatf("cycle %0d: half %h, expected %h", cycles, half_net, half_ref));
    tb_check(bits_net === bits_ref, $sformatf("cycle %0d: bits %h, expected %h", cycles, bits_net, bits_ref));
  endtask

  initial begin
    {addr, raddr, be, we, re, wdata} = '0;
    // Every initial word of the ROM, the RAM and the 1-bit-wide memory.
    for (int a = 0; a < 16384; a++) begin
      addr = 14'(a);
      step();
    end
    // Random traffic; a narrow address range keeps reads hitting written words.
    for (int i = 0; i < 200000 && tb_errors < 10; i++) begin
      addr  = 14'($urandom_range(0, 16383)) & (i % 2 ? 14'h3fff : 14'h003f);
      raddr = 14'($urandom_range(0, 511)) & (i % 3 ? 14'h1ff : 14'h03f);
      we    = $urandom_range(0, 2) == 0;
      re    = $urandom_range(0, 3) != 0;
      be    = 4'($urandom);
      wdata = {4'($urandom), $urandom};
      if (we && raddr[8:0] == addr[8:0]) raddr[8:0] = addr[8:0] + 9'd1;
      step();
    end
    $display("%0d cycles compared", cycles);
    tb_finish(MinChecks);
  end
endmodule
