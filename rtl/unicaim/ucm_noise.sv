// Approximately Gaussian noise from one draw: the sum of its four bytes,
// centred (standard deviation 147.8), scaled by an 8-bit sigma:
// round(g * sigma * 7 / 8192).
module ucm_noise (
  input  logic [31:0]        draw_i,
  input  logic [7:0]         sigma_i,
  output logic signed [31:0] noise_o
);

  logic signed [31:0] gauss, scaled;

  always_comb begin
    gauss  = 32'(draw_i[7:0]) + 32'(draw_i[15:8]) + 32'(draw_i[23:16]) + 32'(draw_i[31:24]) - 32'sd510;
    scaled = gauss * $signed({24'b0, sigma_i}) * 32'sd7 + 32'sd4096;
    noise_o = scaled >>> 13;
  end

endmodule : ucm_noise
