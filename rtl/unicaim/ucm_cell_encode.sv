// One cell write: an int8 key component becomes a cell level by the bank's
// step (1-bit cells: the sign, +-1; 3-bit cells: sign(k) * min(3, (|k| +
// step/2) / step)), stored as a conductance in eighths of a level plus the
// cell's threshold-voltage offset, unless the cell is stuck at a full level.
module ucm_cell_encode #(
  parameter int unsigned CellBits = 3
) (
  input  logic [7:0]        key_i,
  input  logic [7:0]        step_i,        // 0 acts as 1
  input  logic [7:0]        sigma_i,
  input  logic [15:0]       stuck_rate_i,
  input  logic [31:0]       variation_draw_i,
  input  logic [31:0]       stuck_draw_i,
  output logic signed [5:0] cell_o
);

  localparam int signed Full = (CellBits == 1) ? 8 : 24;

  logic [9:0]         step, mag;
  logic signed [31:0] level, offset, value;
  logic               negative;

  ucm_noise u_variation (
    .draw_i  (variation_draw_i),
    .sigma_i (sigma_i),
    .noise_o (offset)
  );

  always_comb begin
    negative = key_i[7];
    step     = (step_i == 8'd0) ? 10'd1 : {2'b0, step_i};
    mag      = (negative ? 10'(-$signed({2'b11, key_i})) : {2'b0, key_i}) + (step >> 1);
    if (CellBits == 1) begin
      level = negative ? -32'sd1 : 32'sd1;
    end else begin
      level = (mag >= 10'(3 * step)) ? 32'sd3 : (mag >= 10'(2 * step)) ? 32'sd2 :
              (mag >= step) ? 32'sd1 : 32'sd0;
      if (negative) level = -level;
    end
    value = level * 32'sd8 + offset;
    if (value > 32'sd31) value = 32'sd31;
    if (value < -32'sd31) value = -32'sd31;
    if (stuck_draw_i[15:0] < stuck_rate_i) value = stuck_draw_i[16] ? Full : -Full;
    cell_o = value[5:0];
  end

endmodule : ucm_cell_encode
