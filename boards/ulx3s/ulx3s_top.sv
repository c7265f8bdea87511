// ULX3S (Lattice ECP5 12F/25F/45F/85F) board wrapper: PLL, power-on reset,
// UART to the FTDI chip, eight LEDs, the FIRE1 button and the 32 MB SDR
// SDRAM (its clock is ours inverted, from an output DDR register, so the
// chip samples commands mid-cycle; DQ is bidirectional here). The boot ROM
// holds the UART bootloader; the RAM starts with the image given by RamInit.
module ulx3s_top #(
  parameter int unsigned ClkMhz   = 40,  // 30, 40 or 50 (ulx3s_pll)
  parameter int unsigned Baud     = 115_200,  // the console (the gate-level simulation's build is faster)
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
  parameter int unsigned UcmAdcCount = 64,
  parameter int unsigned SdramBytes  = 32 * 1024 * 1024  // 0: leave the SDRAM idle
) (
  input  logic       clk_25mhz,
  input  logic       ftdi_txd,   // FTDI -> FPGA
  output logic       ftdi_rxd,   // FPGA -> FTDI
  output logic [7:0] led,
  input  logic       btn_fire1,
  output logic        sdram_clk,
  output logic        sdram_cke,
  output logic        sdram_csn,
  output logic        sdram_rasn,
  output logic        sdram_casn,
  output logic        sdram_wen,
  output logic [1:0]  sdram_ba,
  output logic [12:0] sdram_a,
  output logic [1:0]  sdram_dqm,
  inout  wire  [15:0] sdram_d
);

  logic       clk, locked, rst_n;
  logic       exit_valid;
  logic [31:0] exit_code;
  logic [15:0] sdram_dq_out;
  logic        sdram_dq_oe;

  ulx3s_pll #(.OutMhz(ClkMhz)) u_pll (
    .clk_25mhz_i (clk_25mhz),
    .clk_o       (clk),
    .locked_o    (locked)
  );

  por_reset u_por (.clk_i(clk), .locked_i(locked), .rst_no(rst_n));

  soc_top #(
    .ClkHz    (ClkMhz * 1_000_000),
    .Baud     (Baud),
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
    .UcmAdcCount (UcmAdcCount),
    .SdramBytes  (SdramBytes)
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
    .array_irq_i   (1'b0),
    .sdram_cke_o   (sdram_cke),
    .sdram_cs_no   (sdram_csn),
    .sdram_ras_no  (sdram_rasn),
    .sdram_cas_no  (sdram_casn),
    .sdram_we_no   (sdram_wen),
    .sdram_ba_o    (sdram_ba),
    .sdram_a_o     (sdram_a),
    .sdram_dqm_o   (sdram_dqm),
    .sdram_dq_o    (sdram_dq_out),
    .sdram_dq_oe_o (sdram_dq_oe),
    .sdram_dq_i    (sdram_d),
    .dram_clk_i    (1'b0),         // no LiteDRAM (Litedram = 0)
    .dram_rst_ni   (1'b0),
    .dram_native_o (),
    .dram_native_i ('0),
    .dram_wb_o     (),
    .dram_wb_i     ('0)
  );

  assign sdram_d = sdram_dq_oe ? sdram_dq_out : 16'bz;
  // Low in the first half of each cycle, high in the second: ~clk, aligned
  // with the other outputs by the same kind of I/O register.
  ODDRX1F u_sdram_clk (.SCLK(clk), .RST(1'b0), .D0(1'b0), .D1(1'b1), .Q(sdram_clk));

endmodule : ulx3s_top
