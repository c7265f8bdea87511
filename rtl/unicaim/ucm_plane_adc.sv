// Current-domain mode for one query bit plane of one row: the column current
// sum_d bit(q_d) * cell_d, converted by a signed AdcBits ADC as
// sat((I * gain) >> shift), or passed through in ideal mode.
module ucm_plane_adc #(
  parameter int unsigned Dim     = 8,
  parameter int unsigned AdcBits = 10
) (
  input  logic [Dim*6-1:0]   row_i,
  input  logic [Dim-1:0]     plane_i,
  input  logic [7:0]         gain_i,
  input  logic [3:0]         shift_i,
  input  logic               ideal_i,
  output logic signed [31:0] code_o
);

  localparam int signed CodeMax = (1 <<< (AdcBits - 1)) - 1;

  logic signed [31:0] current, scaled;

  always_comb begin
    current = '0;
    for (int unsigned d = 0; d < Dim; d++) begin
      if (plane_i[d]) current = current + 32'($signed(row_i[d*6 +: 6]));
    end
    scaled = (current * $signed({24'b0, gain_i})) >>> shift_i;
    if (ideal_i) begin
      code_o = current;
    end else if (scaled > CodeMax) begin
      code_o = CodeMax;
    end else if (scaled < -CodeMax - 1) begin
      code_o = -CodeMax - 1;
    end else begin
      code_o = scaled;
    end
  end

endmodule : ucm_plane_adc
