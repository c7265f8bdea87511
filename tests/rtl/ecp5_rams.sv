// Memories in the shapes the ULX3S build maps onto ECP5 block RAM (DP16KD):
// an initialised ROM, an initialised RAM with byte enables, an 18-bit RAM
// with 9-bit enables, a 36-bit simple dual-port RAM with 9-bit write
// enables and a read enable (the array's key lanes), a 2-bit-wide one.
// tb_ecp5_bram runs this RTL beside its synth_ecp5 netlist on the
// gate-level cell models. The initial contents are files
// (tests/rtl/ecp5_rams_init.py), as the SoC's ROM and RAM images are.
module ecp5_rams #(
  parameter RomInit  = "",
  parameter RamInit  = "",
  parameter BitsInit = ""
) (
  input  logic        clk_i,
  input  logic [13:0] addr_i,
  input  logic [13:0] raddr_i,
  input  logic [3:0]  be_i,
  input  logic        we_i,
  input  logic        re_i,
  input  logic [35:0] wdata_i,
  output logic [31:0] rom_o,
  output logic [31:0] ram_o,
  output logic [35:0] wide_o,
  output logic [17:0] half_o,
  output logic [1:0]  bits_o
);
  logic [31:0] rom_q  [4096];
  logic [31:0] ram_q  [2048];
  logic [35:0] wide_q [512];
  logic [17:0] half_q [1024];
  logic [1:0]  bits_q [16384];

  initial begin
    if (RomInit != "") $readmemh(RomInit, rom_q);
    if (RamInit != "") $readmemh(RamInit, ram_q);
    if (BitsInit != "") $readmemh(BitsInit, bits_q);
  end

  always_ff @(posedge clk_i) rom_o <= rom_q[addr_i[11:0]];

  always_ff @(posedge clk_i) begin
    for (int b = 0; b < 4; b++)
      if (we_i && be_i[b]) ram_q[addr_i[10:0]][8*b +: 8] <= wdata_i[8*b +: 8];
    ram_o <= ram_q[addr_i[10:0]];
  end

  always_ff @(posedge clk_i) begin
    for (int b = 0; b < 4; b++)
      if (we_i && be_i[b]) wide_q[addr_i[8:0]][9*b +: 9] <= wdata_i[9*b +: 9];
  end
  always_ff @(posedge clk_i) if (re_i) wide_o <= wide_q[raddr_i[8:0]];

  always_ff @(posedge clk_i) begin
    for (int b = 0; b < 2; b++)
      if (we_i && be_i[b]) half_q[addr_i[9:0]][9*b +: 9] <= wdata_i[9*b +: 9];
    half_o <= half_q[addr_i[9:0]];
  end

  always_ff @(posedge clk_i) begin
    if (we_i) bits_q[addr_i] <= wdata_i[1:0];
    bits_o <= bits_q[addr_i];
  end
endmodule
