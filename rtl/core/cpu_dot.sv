// The packed dot-product-accumulate instructions (custom-0, docs/soc/core.md):
// rd + the sum of four (or two) signed products, wrapping at 32 bits.
//   ucx.dot4   rd += s8(rs1.b0)*s8(rs2.b0) + ... + s8(rs1.b3)*s8(rs2.b3)
//   ucx.dotlo  rd += s8(rs1.b0)*s16(rs2.h0) + s8(rs1.b1)*s16(rs2.h1)
//   ucx.dothi  rd += s8(rs1.b2)*s16(rs2.h0) + s8(rs1.b3)*s16(rs2.h1)
// and with funct7 bit 0 set (ucx.dot4z, dotloz, dothiz) the same sums from
// zero: rd = the products' sum (the decoder reads x0 for the accumulator).
// Four 8 x 16 multipliers serve all three: the int8 x int16 forms, for int8
// weights or queries against int16 activations or keys, use two of them.
// This is the products' sum; the core adds rd in WB (cpu_core), so that the
// accumulation is not in series with the multipliers.
module cpu_dot (
  input  logic [2:0]  op_i,    // funct3
  input  logic [31:0] a_i,     // rs1
  input  logic [31:0] b_i,     // rs2
  output logic [31:0] sum_o
);

  logic signed [7:0]  x0, x1, x2, x3;
  logic signed [15:0] y0, y1, y2, y3;

  always_comb begin
    x2 = '0;
    x3 = '0;
    y2 = '0;
    y3 = '0;
    unique case (op_i)
      cpu_pkg::DOT_LO: begin
        {x1, x0} = a_i[15:0];
        {y1, y0} = b_i;
      end
      cpu_pkg::DOT_HI: begin
        {x1, x0} = a_i[31:16];
        {y1, y0} = b_i;
      end
      default: begin  // DOT_4
        {x3, x2, x1, x0} = a_i;
        y0 = {{8{b_i[7]}}, b_i[7:0]};
        y1 = {{8{b_i[15]}}, b_i[15:8]};
        y2 = {{8{b_i[23]}}, b_i[23:16]};
        y3 = {{8{b_i[31]}}, b_i[31:24]};
      end
    endcase
  end

  logic signed [23:0] p0, p1, p2, p3;
  assign p0 = x0 * y0;
  assign p1 = x1 * y1;
  assign p2 = x2 * y2;
  assign p3 = x3 * y3;
  assign sum_o = 32'(p0) + 32'(p1) + 32'(p2) + 32'(p3);

endmodule : cpu_dot
