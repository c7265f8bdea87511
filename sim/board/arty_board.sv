// The Arty A7 with its DDR3, for the board simulator (arty-rtl,
// board_main.cpp with BOARD_ARTY): the SoC as the Arty's DDR3 build
// configures it (soc_top with Litedram; boards/arty/arty_top.sv adds the
// MMCM and LiteDRAM's core for the board) on LiteDRAM's simulation core
// from the same generator and settings (build/litedram/sim: the
// controller and its CSRs as on the board, with LiteDRAM's model of the
// PHY and the DDR3 in place of both). The harness drives both clocks: the
// SoC's and the controller's (LiteDRAM's user_clk is its input clock here).
module arty_board #(
  // The platform's (boards/boards.toml, through the generated parameter
  // list): no defaults, so a build without them fails at elaboration.
  parameter int unsigned ClkMhz,
  parameter int unsigned Baud,
  parameter int unsigned RamBytes,
  parameter int unsigned SdramBytes,  // the DDR3 (LiteDRAM's simulation core)
  parameter int unsigned UcmArray,    // arrays.toml's configuration (0: none)
  parameter              RamInit  = "",  // $readmemh images (strings)
  parameter              RomInit  = ""
) (
  input  logic       clk,
  input  logic       dram_clk,
  input  logic       uart_txd_in,
  output logic       uart_rxd_out,
  output logic [3:0] led,
  input  logic       btn0
);
  logic        rst_n, user_clk, user_rst;
  logic [7:0]  gpio_out;
  soc_bus_pkg::dram_native_req_t native_req;
  soc_bus_pkg::dram_native_rsp_t native_rsp;
  soc_bus_pkg::dram_wb_req_t     wb_req;
  soc_bus_pkg::dram_wb_rsp_t     wb_rsp;

  por_reset u_por (.clk_i(clk), .locked_i(!user_rst), .rst_no(rst_n));  // after the controller's reset

  soc_top #(
    .ClkHz (ClkMhz * 1_000_000), .Baud (Baud), .RamBytes (RamBytes), .RomBytes (soc_regs_pkg::ROM_SIZE),
    .RamInit (RamInit), .RomInit (RomInit), .Sim (1'b0), .UcmArray (UcmArray),
    .SdramBytes (SdramBytes), .Litedram (1'b1), .Mvu (1'b1), .LitedramModel (1'b1)
  ) u_soc (
    .clk_i (clk), .rst_ni (rst_n), .boot_addr_i (soc_regs_pkg::ROM_BASE), .tohost_addr_i (32'h0),
    .uart_rx_i (uart_txd_in), .uart_tx_o (uart_rxd_out), .uart_rts_no (),
    .gpio_i ({7'b0, btn0}), .gpio_o (gpio_out), .exit_valid_o (), .exit_code_o (),
    .array_req_o (), .array_rsp_i ('0), .array_irq_i (1'b0),
    .ext_req_o (), .ext_now_o (), .ext_rsp_i ('0), .ext_rvalid_i (1'b0), .dcache_hits_i ('0), .dcache_misses_i ('0),
    .sdram_o (), .sdram_dq_i ('0),
    .dram_clk_i (user_clk), .dram_rst_ni (!user_rst), .dram_native_o (native_req), .dram_native_i (native_rsp),
    .dram_wb_o (wb_req), .dram_wb_i (wb_rsp)
  );
  assign led = gpio_out[3:0];

  litedram_model u_dram (
    .clk_i (dram_clk), .user_clk_o (user_clk), .user_rst_o (user_rst),
    .native_i (native_req), .native_o (native_rsp), .wb_i (wb_req), .wb_o (wb_rsp)
  );
endmodule : arty_board
