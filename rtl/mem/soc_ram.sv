// Inferred dual-port RAM: port A reads (instruction fetch; a_en_i low keeps
// the last word), port B reads or writes with byte enables (data). Both
// answer one cycle after the address.
// Contents at start: InitFile ($readmemh, for bitstreams) or, in the
// simulator, the ELF loader through sim_mem_init().
module soc_ram #(
  parameter int unsigned Bytes    = 4096,
  parameter logic [31:0] BaseAddr = 32'h0,
  parameter              InitFile = "",  // a string
  localparam int unsigned Words = Bytes / 4,
  localparam int unsigned AddrW = $clog2(Words)
) (
  input  logic             clk_i,
  input  logic             a_en_i,
  input  logic [AddrW-1:0] a_addr_i,
  output logic [31:0]      a_rdata_o,
  input  logic             b_req_i,
  input  logic             b_we_i,
  input  logic [3:0]       b_be_i,
  input  logic [AddrW-1:0] b_addr_i,
  input  logic [31:0]      b_wdata_i,
  output logic [31:0]      b_rdata_o
);

  logic [31:0] mem_q [Words];

`ifdef SIM_MEM_DPI
  import "DPI-C" function int unsigned sim_mem_init(input int unsigned addr);
  initial begin
    for (int unsigned i = 0; i < Words; i++) mem_q[i] = sim_mem_init(BaseAddr + 4 * i);
  end
`else
  initial begin
    if (InitFile != "") $readmemh(InitFile, mem_q);
  end
`endif

  always_ff @(posedge clk_i) begin
    if (a_en_i) a_rdata_o <= mem_q[a_addr_i];
  end

  always_ff @(posedge clk_i) begin
    if (b_req_i) begin
      if (b_we_i) begin
        for (int unsigned i = 0; i < 4; i++) begin
          if (b_be_i[i]) mem_q[b_addr_i][8*i +: 8] <= b_wdata_i[8*i +: 8];
        end
      end
      b_rdata_o <= mem_q[b_addr_i];
    end
  end

endmodule : soc_ram
