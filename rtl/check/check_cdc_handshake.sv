// Protocol checker (simulation only, bound into every cdc_handshake by
// soc_checks.sv): the source starts a request only while idle, and each is
// done exactly once, within MaxWait source cycles; the destination
// acknowledges only a request that waits. Immediate assertions in the
// clocked blocks, as in check_req_rvalid.
module check_cdc_handshake #(
  parameter int unsigned MaxWait = 100000
) (
  input logic src_clk_i,
  input logic src_rst_ni,
  input logic src_start_i,
  input logic src_busy_i,
  input logic src_done_i,
  input logic dst_clk_i,
  input logic dst_rst_ni,
  input logic dst_req_i,
  input logic dst_ack_i
);

  logic        src_live_q, open_q, dst_live_q;
  int unsigned wait_q, done_q;

  always_ff @(posedge src_clk_i or negedge src_rst_ni) begin
    if (!src_rst_ni) begin
      src_live_q <= 1'b0;
      open_q     <= 1'b0;
      wait_q     <= 0;
      done_q     <= 0;
    end else begin
      src_live_q <= 1'b1;
      open_q     <= src_start_i || (open_q && !src_done_i);
      wait_q     <= open_q && !src_done_i ? wait_q + 1 : 0;
      done_q     <= done_q + 32'(src_done_i);
      if (src_live_q) begin
        a_start_when_idle: assert (!src_start_i || !src_busy_i)
          else $error("%m: a request started while the last one is under way");
        a_done_once: assert (!src_done_i || open_q)
          else $error("%m: done without a request");
        a_done_in_time: assert (wait_q < MaxWait)
          else $error("%m: a request not done for %0d cycles", MaxWait);
      end
    end
  end

  always_ff @(posedge dst_clk_i or negedge dst_rst_ni) begin
    if (!dst_rst_ni) begin
      dst_live_q <= 1'b0;
    end else begin
      dst_live_q <= 1'b1;
      if (dst_live_q) begin
        a_ack_requested: assert (!dst_ack_i || dst_req_i)
          else $error("%m: an acknowledge without a waiting request");
      end
    end
  end

  final if ($test$plusargs("checks")) $fwrite(32'h8000_0002, "CHECK %m done=%0d\n", done_q);

endmodule : check_cdc_handshake
