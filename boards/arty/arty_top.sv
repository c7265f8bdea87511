// Digilent Arty A7 (xc7a35t / xc7a100t) board wrapper, block RAM only: the
// 100 MHz oscillator, reset button, UART to the FTDI chip and four LEDs on
// arty_soc. The boot ROM holds the UART bootloader; the RAM starts with
// RamInit. arty_ddr3_top adds the DDR3.
module arty_top #(
  parameter int unsigned ClkMhz   = 50,
  parameter int unsigned RamBytes = 65536,
  parameter              RamInit  = "",
  parameter              RomInit  = "",
  parameter int unsigned UcmBanks = 0,
  parameter int unsigned UcmSlots = 128,
  parameter int unsigned UcmDim   = 8,
  parameter int unsigned UcmLanes = 2,
  parameter int unsigned UcmCellBits = 3,
  parameter int unsigned UcmQBits    = 8,
  parameter int unsigned UcmAdcBits  = 10,
  parameter int unsigned UcmAdcCount = 64
) (
  input  logic       clk100mhz,
  input  logic       ck_rst,        // reset button, active low
  input  logic       uart_txd_in,   // FTDI -> FPGA
  output logic       uart_rxd_out,  // FPGA -> FTDI
  output logic [3:0] led
);

  arty_soc #(
    .ClkMhz (ClkMhz), .RamBytes (RamBytes), .RamInit (RamInit), .RomInit (RomInit), .Ddr3 (1'b0),
    .UcmBanks (UcmBanks), .UcmSlots (UcmSlots), .UcmDim (UcmDim), .UcmLanes (UcmLanes),
    .UcmCellBits (UcmCellBits), .UcmQBits (UcmQBits), .UcmAdcBits (UcmAdcBits), .UcmAdcCount (UcmAdcCount)
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
