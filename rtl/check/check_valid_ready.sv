// Protocol checker (simulation only, bound by soc_checks.sv): a valid/ready
// port. A request stays valid, its payload unchanged, until it is taken
// (valid and ready in one cycle), and it is taken within MaxWait cycles.
// Immediate assertions in the clocked block, as in check_req_rvalid.
module check_valid_ready #(
  parameter int unsigned W       = 1,
  parameter int unsigned MaxWait = 100000
) (
  input logic         clk_i,
  input logic         rst_ni,
  input logic         valid_i,
  input logic         ready_i,
  input logic [W-1:0] data_i
);

  logic         live_q, waited_q;  // waited_q: valid and not taken in the last cycle
  logic [W-1:0] data_q;
  int unsigned  wait_q, taken_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      live_q   <= 1'b0;
      waited_q <= 1'b0;
      data_q   <= '0;
      wait_q   <= 0;
      taken_q  <= 0;
    end else begin
      live_q   <= 1'b1;
      waited_q <= valid_i && !ready_i;
      data_q   <= data_i;
      wait_q   <= valid_i && !ready_i ? wait_q + 1 : 0;
      taken_q  <= taken_q + 32'(valid_i && ready_i);
      if (live_q) begin
        a_held: assert (!waited_q || valid_i)
          else $error("%m: a request withdrawn before it was taken (payload %h)", data_q);
        a_stable: assert (!waited_q || data_i == data_q)
          else $error("%m: a request's payload changed before it was taken");
        a_taken: assert (wait_q < MaxWait)
          else $error("%m: a request not taken for %0d cycles", MaxWait);
      end
    end
  end

  final if ($test$plusargs("checks")) $fwrite(32'h8000_0002, "CHECK %m taken=%0d\n", taken_q);

endmodule : check_valid_ready
