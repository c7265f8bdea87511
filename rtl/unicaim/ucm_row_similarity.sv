// CAM mode for one row: S = sum over the row's cells of query level (-2..2)
// times cell conductance (eighths of a level).
module ucm_row_similarity #(
  parameter int unsigned Dim       = 8,
  parameter int unsigned ScoreBits = 11
) (
  input  logic [Dim*6-1:0]           row_i,
  input  logic [Dim*3-1:0]           qlevel_i,
  output logic signed [ScoreBits-1:0] sim_o
);

  logic signed [ScoreBits-1:0] sum;
  logic signed [7:0]           conductance, drive;  // wide enough for the product (|.| <= 62)

  always_comb begin
    sum = '0;
    for (int unsigned d = 0; d < Dim; d++) begin
      conductance = 8'($signed(row_i[d*6 +: 6]));
      drive       = 8'($signed(qlevel_i[d*3 +: 3]));
      sum   = sum + ScoreBits'(conductance * drive);
    end
  end

  assign sim_o = sum;

endmodule : ucm_row_similarity
