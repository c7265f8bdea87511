// 31 x 32-bit register file, three asynchronous read ports (the third for
// the dot products' accumulator) and one write port.
// A read of the register being written in the same cycle sees the new value.
module cpu_regfile (
  input  logic        clk_i,
  input  logic [4:0]  raddr_a_i,
  input  logic [4:0]  raddr_b_i,
  input  logic [4:0]  raddr_c_i,
  output logic [31:0] rdata_a_o,
  output logic [31:0] rdata_b_o,
  output logic [31:0] rdata_c_o,
  input  logic        we_i,
  input  logic [4:0]  waddr_i,
  input  logic [31:0] wdata_i
);

  logic [31:0] regs_q [1:31];

  always_ff @(posedge clk_i) begin
    if (we_i && waddr_i != 5'd0) regs_q[waddr_i] <= wdata_i;
  end

  function automatic logic [31:0] read_port(logic [4:0] addr);
    if (addr == 5'd0)                 read_port = '0;
    else if (we_i && waddr_i == addr) read_port = wdata_i;
    else                              read_port = regs_q[addr];
  endfunction

  assign rdata_a_o = read_port(raddr_a_i);
  assign rdata_b_o = read_port(raddr_b_i);
  assign rdata_c_o = read_port(raddr_c_i);

endmodule : cpu_regfile
