// The ULX3S board around ulx3s_top, for the board simulator at RTL
// (ulx3s-rtl): the same pins as the synthesized netlist once
// tools/gatelevel_pins.py has split its data lines, so one harness
// (board_main.cpp) drives both. Verilator makes a top-level inout a plain
// variable, so the SDRAM's data lines are wired here: the chip's side
// (sdram_d) drives them while the FPGA does not, and what the FPGA drives
// comes out on sdram_d_out where sdram_d_oe.
module ulx3s_board #(
  // The platform's (boards/boards.toml, through the generated parameter
  // list): no defaults, so a build without them fails at elaboration.
  parameter int unsigned ClkMhz,
  parameter int unsigned Baud,
  parameter int unsigned RamBytes,
  parameter int unsigned SdramBytes,  // the SDRAM (0: leave it idle)
  parameter int unsigned UcmArray,    // arrays.toml's configuration (0: none)
  parameter              RamInit  = "",  // $readmemh images (strings)
  parameter              RomInit  = ""
) (
  input  logic        clk_25mhz,
  input  logic        ftdi_txd,
  output logic        ftdi_rxd,
  output logic [7:0]  led,
  input  logic        btn_fire1,
  output logic        sdram_clk,
  output logic        sdram_cke,
  output logic        sdram_csn,
  output logic        sdram_rasn,
  output logic        sdram_casn,
  output logic        sdram_wen,
  output logic [1:0]  sdram_ba,
  output logic [12:0] sdram_a,
  output logic [1:0]  sdram_dqm,
  input  logic [15:0] sdram_d,
  output logic [15:0] sdram_d_out,
  output logic [15:0] sdram_d_oe
);
  wire [15:0] dq;

  ulx3s_top #(
    .ClkMhz (ClkMhz), .Baud (Baud), .RamBytes (RamBytes), .SdramBytes (SdramBytes), .UcmArray (UcmArray),
    .RamInit (RamInit), .RomInit (RomInit)
  ) u_top (
    .clk_25mhz, .ftdi_txd, .ftdi_rxd, .led, .btn_fire1, .sdram_clk, .sdram_cke, .sdram_csn, .sdram_rasn,
    .sdram_casn, .sdram_wen, .sdram_ba, .sdram_a, .sdram_dqm, .sdram_d (dq)
  );

  assign dq = u_top.sdram.dq_oe ? 16'bz : sdram_d;
  assign sdram_d_out = u_top.sdram.dq;
  assign sdram_d_oe  = {16{u_top.sdram.dq_oe}};
endmodule : ulx3s_board
