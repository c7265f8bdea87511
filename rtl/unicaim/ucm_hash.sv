// The block's counter-based PRNG (lowbias32 of seed + serial, index and
// domain): every draw is a pure function of its coordinates, so draws for
// several slots can be made in one clock and the golden model
// (firmware/lib/unicaim/ucm_arith.c, ucm_draw) reproduces them.
module ucm_hash #(
  parameter logic [31:0] Domain = 32'd0
) (
  input  logic [31:0] seed_i,
  input  logic [31:0] serial_i,
  input  logic [31:0] index_i,
  output logic [31:0] draw_o
);

  logic [31:0] x0, x1, x2, x3, x4;

  always_comb begin
    x0 = seed_i + serial_i * 32'h9E37_79B9 + index_i * 32'h85EB_CA77 + Domain * 32'hC2B2_AE3D;
    x1 = (x0 ^ (x0 >> 16)) * 32'h7FEB_352D;
    x2 = x1 ^ (x1 >> 15);
    x3 = x2 * 32'h846C_A68B;
    x4 = x3 ^ (x3 >> 16);
  end

  assign draw_o = x4;

endmodule : ucm_hash
