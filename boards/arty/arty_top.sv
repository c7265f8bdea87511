// Digilent Arty A7 (xc7a35t / xc7a100t) board wrapper: MMCM from the 100 MHz
// oscillator to the system clock, reset button, UART to the FTDI chip, four
// LEDs. The boot ROM holds the UART bootloader; the RAM starts with RamInit.
module arty_top #(
  parameter int unsigned ClkMhz   = 50,     // 1000 MHz VCO / divider
  parameter int unsigned RamBytes = 65536,
  parameter              RamInit  = "",     // $readmemh images (strings)
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
  input  logic       clk100mhz,
  input  logic       ck_rst,        // reset button, active low
  input  logic       uart_txd_in,   // FTDI -> FPGA
  output logic       uart_rxd_out,  // FPGA -> FTDI
  output logic [3:0] led
);

  logic       clk, clk_fb, locked, rst_n;
  logic [7:0] gpio_out;
  logic       exit_valid;
  logic [31:0] exit_code;

  // VCO = 100 MHz * 10 = 1000 MHz (600..1200 MHz for -1 parts).
  MMCME2_BASE #(
    .CLKIN1_PERIOD    (10.0),
    .DIVCLK_DIVIDE    (1),
    .CLKFBOUT_MULT_F  (10.0),
    .CLKOUT0_DIVIDE_F (1000.0 / ClkMhz)
  ) u_mmcm (
    .CLKIN1   (clk100mhz),
    .CLKFBIN  (clk_fb),
    .CLKFBOUT (clk_fb),
    .CLKOUT0  (clk),
    .LOCKED   (locked),
    .PWRDWN   (1'b0),
    .RST      (!ck_rst)
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
    .uart_rx_i     (uart_txd_in),
    .uart_tx_o     (uart_rxd_out),
    .uart_rts_no   (),             // no RTS line to the FTDI
    .gpio_i        (8'h0),
    .gpio_o        (gpio_out),
    .exit_valid_o  (exit_valid),
    .exit_code_o   (exit_code),
    .array_req_o   (),             // the array is inside (ExternalArray = 0)
    .array_rsp_i   ('0),
    .array_irq_i   (1'b0),
    .sdram_cke_o   (),             // no SDR SDRAM (SdramBytes = 0): the DDR3 comes with LiteDRAM
    .sdram_cs_no   (),
    .sdram_ras_no  (),
    .sdram_cas_no  (),
    .sdram_we_no   (),
    .sdram_ba_o    (),
    .sdram_a_o     (),
    .sdram_dqm_o   (),
    .sdram_dq_o    (),
    .sdram_dq_oe_o (),
    .sdram_dq_i    ('0)
  );
  assign led = gpio_out[3:0];

endmodule : arty_top
