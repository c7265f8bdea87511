// ULX3S (Lattice ECP5 12F/25F/45F/85F) board wrapper: PLL, power-on reset,
// UART to the FTDI chip, eight LEDs, the FIRE1 button and the 32 MB SDR
// SDRAM (its clock is ours inverted, from an output DDR register, so the
// chip samples commands mid-cycle; DQ is bidirectional here). The boot ROM
// holds the UART bootloader; the RAM starts with the image given by RamInit.
module ulx3s_top #(
  // The platform's (boards/boards.toml, through the generated parameter
  // list): no defaults, so a build without them fails at elaboration.
  parameter int unsigned ClkMhz,    // 30, 40 or 50 (ulx3s_pll)
  parameter int unsigned Baud,      // the console (the gate-level simulation's build is faster)
  parameter int unsigned RamBytes,
  parameter int unsigned SdramBytes,  // the SDRAM (0: leave it idle)
  parameter int unsigned UcmArray,    // arrays.toml's configuration (0: none)
  parameter              RamInit  = "",  // $readmemh images (strings)
  parameter              RomInit  = ""
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
  soc_bus_pkg::sdram_pins_t sdram;

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
    .RomBytes (soc_regs_pkg::ROM_SIZE),
    .RamInit  (RamInit),
    .RomInit  (RomInit),
    .Sim      (1'b0),
    .UcmArray    (UcmArray),
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
    .sdram_o       (sdram),
    .sdram_dq_i    (sdram_d),
    .dram_clk_i    (1'b0),         // no LiteDRAM (Litedram = 0)
    .dram_rst_ni   (1'b0),
    .dram_native_o (),
    .dram_native_i ('0),
    .dram_wb_o     (),
    .dram_wb_i     ('0)
  );

  assign {sdram_cke, sdram_csn, sdram_rasn, sdram_casn, sdram_wen} =
         {sdram.cke, sdram.cs_n, sdram.ras_n, sdram.cas_n, sdram.we_n};
  assign {sdram_ba, sdram_a, sdram_dqm} = {sdram.ba, sdram.a, sdram.dqm};
  assign sdram_d = sdram.dq_oe ? sdram.dq : 16'bz;
  // Low in the first half of each cycle, high in the second: ~clk, aligned
  // with the other outputs by the same kind of I/O register.
  ODDRX1F u_sdram_clk (.SCLK(clk), .RST(1'b0), .D0(1'b0), .D1(1'b1), .Q(sdram_clk));

endmodule : ulx3s_top
