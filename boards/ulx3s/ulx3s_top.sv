// ULX3S (Lattice ECP5 12F/25F/45F/85F) board wrapper: PLL, power-on reset,
// UART to the FTDI chip, eight LEDs, the FIRE1 button. The boot ROM holds
// the UART bootloader; the RAM starts with the image given by RamInit.
module ulx3s_top #(
  parameter int unsigned ClkMhz   = 40,  // 30, 40 or 50 (ulx3s_pll)
  parameter int unsigned RamBytes = 131072,
  parameter              RamInit  = "",  // $readmemh images (strings)
  parameter              RomInit  = "",
  // The UniCAIM array (0 banks leave it out); the board builds set them
  // from rtl/unicaim/arrays.toml's [board].
  parameter int unsigned UcmBanks = 0,
  parameter int unsigned UcmSlots = 128,
  parameter int unsigned UcmDim   = 8,
  parameter int unsigned UcmLanes = 2,
  parameter int unsigned UcmCellBits = 3,
  parameter int unsigned UcmQBits    = 8,
  parameter int unsigned UcmAdcBits  = 10,
  parameter int unsigned UcmAdcCount = 64
) (
  input  logic       clk_25mhz,
  input  logic       ftdi_txd,   // FTDI -> FPGA
  output logic       ftdi_rxd,   // FPGA -> FTDI
  output logic [7:0] led,
  input  logic       btn_fire1
);

  logic       clk, locked, rst_n;
  logic       exit_valid;
  logic [31:0] exit_code;

  ulx3s_pll #(.OutMhz(ClkMhz)) u_pll (
    .clk_25mhz_i (clk_25mhz),
    .clk_o       (clk),
    .locked_o    (locked)
  );

  por_reset u_por (.clk_i(clk), .locked_i(locked), .rst_no(rst_n));

  soc_top #(
    .ClkHz    (ClkMhz * 1_000_000),
    .Baud     (115_200),
    .RamBytes (RamBytes),
    .RomBytes (16384),
    .RamInit  (RamInit),
    .RomInit  (RomInit),
    .Sim      (1'b0),
    .UcmBanks (UcmBanks),
    .UcmSlots (UcmSlots),
    .UcmDim   (UcmDim),
    .UcmLanes (UcmLanes),
    .UcmCellBits (UcmCellBits),
    .UcmQBits    (UcmQBits),
    .UcmAdcBits  (UcmAdcBits),
    .UcmAdcCount (UcmAdcCount)
  ) u_soc (
    .clk_i         (clk),
    .rst_ni        (rst_n),
    .boot_addr_i   (soc_regs_pkg::ROM_BASE),
    .tohost_addr_i (32'h0),
    .uart_rx_i     (ftdi_txd),
    .uart_tx_o     (ftdi_rxd),
    .uart_rts_no   (),             // no RTS line to the FTDI
    .gpio_i        ({7'b0, btn_fire1}),
    .gpio_o        (led),
    .exit_valid_o  (exit_valid),
    .exit_code_o   (exit_code),
    .array_req_o   (),             // the array is inside (ExternalArray = 0)
    .array_rsp_i   ('0),
    .array_irq_i   (1'b0)
  );

endmodule : ulx3s_top
