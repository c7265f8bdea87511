// Protocol checker (simulation only, bound into ucm_regs by soc_checks.sv):
// the register side starts a command only while the engine is idle; a
// command that passed its checks makes the engine busy in the next cycle;
// the engine reports a command's end only while busy. Immediate assertions
// in the clocked block, as in check_req_rvalid.
module check_ucm_command (
  input logic clk_i,
  input logic rst_ni,
  input logic start_i,
  input logic accepted_i,  // start_i with a command that passed its checks
  input logic busy_i,
  input logic finish_i
);

  logic        live_q, accepted_q;
  int unsigned started_q, finished_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      live_q     <= 1'b0;
      accepted_q <= 1'b0;
      started_q  <= 0;
      finished_q <= 0;
    end else begin
      live_q     <= 1'b1;
      accepted_q <= accepted_i;
      started_q  <= started_q + 32'(accepted_i);
      finished_q <= finished_q + 32'(finish_i);
      if (live_q) begin
        a_start_when_idle: assert (!start_i || !busy_i)
          else $error("%m: a command started while the engine is busy");
        a_accepted_runs: assert (!accepted_q || busy_i)
          else $error("%m: an accepted command did not make the engine busy");
        a_finish_when_busy: assert (!finish_i || busy_i)
          else $error("%m: a command's end reported while idle");
      end
    end
  end

  final if ($test$plusargs("checks")) $fwrite(32'h8000_0002, "CHECK %m started=%0d finished=%0d\n", started_q, finished_q);

endmodule : check_ucm_command
