// Protocol checker (simulation only, bound by soc_checks.sv): a port that
// takes one access at a time and answers it in a later cycle with rvalid.
// A request is issued while none is waiting or in the cycle the waiting one
// is answered; every rvalid answers a request; none waits MaxWait cycles.
// The checks are immediate assertions in the clocked block (the values
// before the edge, as a flop samples them, however the harness evaluates
// the model). With +checks the run ends with the counts (a checker that
// saw nothing checked nothing).
module check_req_rvalid #(
  parameter int unsigned MaxWait = 100000
) (
  input logic clk_i,
  input logic rst_ni,
  input logic req_i,
  input logic rvalid_i
);

  logic        live_q, waiting_q;  // live_q: out of reset
  int unsigned wait_q, requests_q, answers_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      live_q     <= 1'b0;
      waiting_q  <= 1'b0;
      wait_q     <= 0;
      requests_q <= 0;
      answers_q  <= 0;
    end else begin
      live_q     <= 1'b1;
      waiting_q  <= req_i || (waiting_q && !rvalid_i);
      wait_q     <= req_i || !waiting_q || rvalid_i ? 0 : wait_q + 1;
      requests_q <= requests_q + 32'(req_i);
      answers_q  <= answers_q + 32'(rvalid_i);
      if (live_q) begin
        a_one_at_a_time: assert (!req_i || !waiting_q || rvalid_i)
          else $error("%m: a request while the last one waits for its answer");
        a_answer_has_request: assert (!rvalid_i || waiting_q)
          else $error("%m: an answer without a request");
        a_answered: assert (wait_q < MaxWait)
          else $error("%m: a request unanswered for %0d cycles", MaxWait);
      end
    end
  end

  final if ($test$plusargs("checks")) $fwrite(32'h8000_0002, "CHECK %m requests=%0d answers=%0d\n", requests_q, answers_q);

endmodule : check_req_rvalid
