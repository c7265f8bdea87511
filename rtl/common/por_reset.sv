// Power-on reset for board wrappers: held low until the clock source reports
// lock, then for 255 more cycles of the clock it produces.
module por_reset (
  input  logic clk_i,
  input  logic locked_i,
  output logic rst_no
);

  logic [7:0] count_q;

  always_ff @(posedge clk_i or negedge locked_i) begin
    if (!locked_i)         count_q <= '0;
    else if (!(&count_q))  count_q <= count_q + 8'd1;
  end
  assign rst_no = &count_q;

endmodule : por_reset
