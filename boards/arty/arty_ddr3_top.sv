// Digilent Arty A7 board wrapper with its DDR3L (256 MB, MT41K128M16):
// LiteDRAM's generated core (build/litedram/hw/gateware/litedram_core.v,
// mk/litedram.mk: its PLL from the 100 MHz oscillator, the A7DDRPHY, the
// controller) and arty_soc on it. The SoC's MMCM takes the controller's
// clock (user_clk, 100 MHz) so that it starts once LiteDRAM's PLL has
// locked; the two clocks are unrelated for timing (arty_ddr3.xdc), the
// SoC's side crossing in litedram_port and DRAMCTL. The boot ROM holds
// bootrom_ddr3.elf, which initialises the DDR3.
module arty_ddr3_top #(
  // The platform's (boards/boards.toml, through the generated parameter
  // list): no defaults, so a build without them fails at elaboration.
  parameter int unsigned ClkMhz,
  parameter int unsigned Baud,
  parameter int unsigned RamBytes,
  parameter int unsigned SdramBytes,  // the DDR3 (256 MB)
  parameter int unsigned UcmArray,    // arrays.toml's configuration (0: none)
  parameter              RamInit  = "",  // $readmemh images (strings)
  parameter              RomInit  = ""
) (
  input  logic        clk100mhz,
  input  logic        ck_rst,        // reset button, active low
  input  logic        uart_txd_in,   // FTDI -> FPGA
  output logic        uart_rxd_out,  // FPGA -> FTDI
  output logic [3:0]  led,
  output logic [13:0] ddram_a,
  output logic [2:0]  ddram_ba,
  output logic        ddram_ras_n,
  output logic        ddram_cas_n,
  output logic        ddram_we_n,
  output logic        ddram_cs_n,
  output logic [1:0]  ddram_dm,
  inout  wire  [15:0] ddram_dq,
  inout  wire  [1:0]  ddram_dqs_p,
  inout  wire  [1:0]  ddram_dqs_n,
  output logic        ddram_clk_p,
  output logic        ddram_clk_n,
  output logic        ddram_cke,
  output logic        ddram_odt,
  output logic        ddram_reset_n
);

  logic user_clk, user_rst;
  soc_bus_pkg::dram_native_req_t native_req;
  soc_bus_pkg::dram_native_rsp_t native_rsp;
  soc_bus_pkg::dram_wb_req_t     wb_req;
  soc_bus_pkg::dram_wb_rsp_t     wb_rsp;

  litedram_core u_dram (
    .clk (clk100mhz), .rst (!ck_rst), .pll_locked (),
    .init_done (wb_rsp.init_done), .init_error (wb_rsp.init_error),
    .user_clk, .user_rst,
    .ddram_a, .ddram_ba, .ddram_ras_n, .ddram_cas_n, .ddram_we_n, .ddram_cs_n, .ddram_dm, .ddram_dq,
    .ddram_dqs_p, .ddram_dqs_n, .ddram_clk_p, .ddram_clk_n, .ddram_cke, .ddram_odt, .ddram_reset_n,
    .user_port_native_0_cmd_addr (native_req.cmd_addr), .user_port_native_0_cmd_ready (native_rsp.cmd_ready),
    .user_port_native_0_cmd_valid (native_req.cmd_valid), .user_port_native_0_cmd_we (native_req.cmd_we),
    .user_port_native_0_rdata_data (native_rsp.rdata), .user_port_native_0_rdata_ready (native_req.rdata_ready),
    .user_port_native_0_rdata_valid (native_rsp.rdata_valid), .user_port_native_0_wdata_data (native_req.wdata),
    .user_port_native_0_wdata_ready (native_rsp.wdata_ready), .user_port_native_0_wdata_valid (native_req.wdata_valid),
    .user_port_native_0_wdata_we (native_req.wdata_we),
    .wb_ctrl_ack (wb_rsp.ack), .wb_ctrl_adr (wb_req.adr), .wb_ctrl_bte (2'b0), .wb_ctrl_cti (3'b0),
    .wb_ctrl_cyc (wb_req.cyc), .wb_ctrl_dat_r (wb_rsp.dat), .wb_ctrl_dat_w (wb_req.dat), .wb_ctrl_err (wb_rsp.err),
    .wb_ctrl_sel (4'hF), .wb_ctrl_stb (wb_req.stb), .wb_ctrl_we (wb_req.we)
  );

  if (SdramBytes == 0) begin : g_bad_sdram
    $fatal(1, "arty_ddr3_top: SdramBytes = 0, but this build has the DDR3 (arty_top has none)");
  end

  arty_soc #(
    .ClkMhz (ClkMhz), .Baud (Baud), .RamBytes (RamBytes), .SdramBytes (SdramBytes), .UcmArray (UcmArray),
    .RamInit (RamInit), .RomInit (RomInit)
  ) u_arty (
    .clk100_i      (user_clk),
    .rst_i         (user_rst),
    .uart_rx_i     (uart_txd_in),
    .uart_tx_o     (uart_rxd_out),
    .led_o         (led),
    .dram_clk_i    (user_clk),
    .dram_rst_ni   (!user_rst),
    .dram_native_o (native_req),
    .dram_native_i (native_rsp),
    .dram_wb_o     (wb_req),
    .dram_wb_i     (wb_rsp)
  );

endmodule : arty_ddr3_top
