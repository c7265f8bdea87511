// Digilent Arty A7 (xc7a35t / xc7a100t) board wrapper, block RAM only: the
// 100 MHz oscillator, reset button, UART to the FTDI chip and four LEDs on
// arty_soc. The boot ROM holds the UART bootloader; the RAM starts with
// RamInit. arty_ddr3_top adds the DDR3.
module arty_top #(
  // The platform's (boards/boards.toml, through the generated parameter
  // list): no defaults, so a build without them fails at elaboration.
  parameter int unsigned ClkMhz,
  parameter int unsigned Baud,
  parameter int unsigned RamBytes,
  parameter int unsigned SdramBytes,  // 0: this build has no DDR3 (arty_ddr3_top)
  parameter int unsigned UcmArray,    // arrays.toml's configuration (0: none)
  parameter              RamInit  = "",  // $readmemh images (strings)
  parameter              RomInit  = ""
) (
  input  logic       clk100mhz,
  input  logic       ck_rst,        // reset button, active low
  input  logic       uart_txd_in,   // FTDI -> FPGA
  output logic       uart_rxd_out,  // FPGA -> FTDI
  output logic [3:0] led
);

  if (SdramBytes != 0) begin : g_bad_sdram
    $fatal(1, "arty_top: SdramBytes = %0d, but this build has no DDR3 (arty_ddr3_top has)", SdramBytes);
  end

  arty_soc #(
    .ClkMhz (ClkMhz), .Baud (Baud), .RamBytes (RamBytes), .SdramBytes (SdramBytes), .UcmArray (UcmArray),
    .RamInit (RamInit), .RomInit (RomInit)
  ) u_arty (
    .clk100_i      (clk100mhz),
    .rst_i         (!ck_rst),
    .uart_rx_i     (uart_txd_in),
    .uart_tx_o     (uart_rxd_out),
    .led_o         (led),
    .dram_clk_i    (1'b0),         // no DDR3 in this build
    .dram_rst_ni   (1'b0),
    .dram_native_o (),
    .dram_native_i ('0),
    .dram_wb_o     (),
    .dram_wb_i     ('0)
  );

endmodule : arty_top
