// The SoC as the Arty A7 builds carry it: an MMCM from a 100 MHz clock to
// the system clock, power-on reset, the SoC (the UART to the FTDI chip,
// LEDs on its GPIO) and, with SdramBytes, the DDR3 on LiteDRAM's ports
// (the dram_* ports, in the controller's clock domain). arty_top
// (block RAM only) and arty_ddr3_top (with LiteDRAM's core) are its pins.
module arty_soc #(
  // The platform's (boards/boards.toml, through the generated parameter
  // list): no defaults, so a build without them fails at elaboration.
  parameter int unsigned ClkMhz,    // 1000 MHz VCO / divider
  parameter int unsigned Baud,
  parameter int unsigned RamBytes,
  parameter int unsigned SdramBytes,  // external memory (0: none)
  parameter int unsigned UcmArray,    // arrays.toml's configuration (0: none)
  parameter              RamInit  = "",  // $readmemh images (strings)
  parameter              RomInit  = ""
) (
  input  logic       clk100_i,
  input  logic       rst_i,          // resets the MMCM, and so the SoC
  input  logic       uart_rx_i,
  output logic       uart_tx_o,
  output logic [3:0] led_o,
  input  logic       dram_clk_i,
  input  logic       dram_rst_ni,
  output soc_bus_pkg::dram_native_req_t dram_native_o,
  input  soc_bus_pkg::dram_native_rsp_t dram_native_i,
  output soc_bus_pkg::dram_wb_req_t     dram_wb_o,
  input  soc_bus_pkg::dram_wb_rsp_t     dram_wb_i
);

  logic       clk, clk_fb, locked, rst_n;
  logic [7:0] gpio_out;

  // VCO = 100 MHz * 10 = 1000 MHz (600..1200 MHz for -1 parts).
  MMCME2_BASE #(
    .CLKIN1_PERIOD    (10.0),
    .DIVCLK_DIVIDE    (1),
    .CLKFBOUT_MULT_F  (10.0),
    .CLKOUT0_DIVIDE_F (1000.0 / ClkMhz)
  ) u_mmcm (
    .CLKIN1   (clk100_i),
    .CLKFBIN  (clk_fb),
    .CLKFBOUT (clk_fb),
    .CLKOUT0  (clk),
    .LOCKED   (locked),
    .PWRDWN   (1'b0),
    .RST      (rst_i)
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
    .SdramBytes  (SdramBytes),
    .Litedram    (SdramBytes != 0),
    .Mvu         (SdramBytes != 0)  // SmolLM2's weights stream from the DDR3
  ) u_soc (
    .clk_i         (clk),
    .rst_ni        (rst_n),
    .boot_addr_i   (soc_regs_pkg::ROM_BASE),
    .tohost_addr_i (32'h0),
    .uart_rx_i,
    .uart_tx_o,
    .uart_rts_no   (),             // no RTS line to the FTDI
    .gpio_i        (8'h0),
    .gpio_o        (gpio_out),
    .exit_valid_o  (),
    .exit_code_o   (),
    .array_req_o   (),             // the array is inside (ExternalArray = 0)
    .array_rsp_i   ('0),
    .array_irq_i   (1'b0),
    .ext_req_o     (),             // the external memory too (ExternalMemory = 0)
    .ext_now_o     (),
    .ext_rsp_i     ('0),
    .ext_rvalid_i  (1'b0),
    .dcache_hits_i   ('0),
    .dcache_misses_i ('0),
    .sdram_o       (),             // no SDR SDRAM on the Arty
    .sdram_dq_i    ('0),
    .dram_clk_i,
    .dram_rst_ni,
    .dram_native_o,
    .dram_native_i,
    .dram_wb_o,
    .dram_wb_i
  );
  assign led_o = gpio_out[3:0];

endmodule : arty_soc
