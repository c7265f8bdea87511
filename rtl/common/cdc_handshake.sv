// One request at a time from one clock domain to another and its answer
// back: a toggle each way, each through two synchronising flops. The
// request's data stays in the source's registers, unchanged from start
// until done, and the answer's in the destination's, unchanged from ack
// until the next request, so each side may read the other's registers
// directly: they are stable for the two or more cycles a toggle takes.
module cdc_handshake (
  input  logic src_clk_i,
  input  logic src_rst_ni,
  input  logic src_start_i,  // a request (only while !src_busy_o)
  output logic src_busy_o,
  output logic src_done_o,   // one cycle: the destination has answered

  input  logic dst_clk_i,
  input  logic dst_rst_ni,
  output logic dst_req_o,    // a request is waiting, until dst_ack_i
  input  logic dst_ack_i     // one cycle: answered
);

  logic req_tgl_q, ack_sync1_q, ack_sync2_q, ack_seen_q;
  logic ack_tgl_q, req_sync1_q, req_sync2_q;

  always_ff @(posedge src_clk_i or negedge src_rst_ni) begin
    if (!src_rst_ni) begin
      req_tgl_q   <= 1'b0;
      ack_sync1_q <= 1'b0;
      ack_sync2_q <= 1'b0;
      ack_seen_q  <= 1'b0;
    end else begin
      if (src_start_i) req_tgl_q <= !req_tgl_q;
      ack_sync1_q <= ack_tgl_q;
      ack_sync2_q <= ack_sync1_q;
      ack_seen_q  <= ack_sync2_q;
    end
  end
  assign src_busy_o = req_tgl_q != ack_sync2_q;
  assign src_done_o = ack_sync2_q != ack_seen_q;

  always_ff @(posedge dst_clk_i or negedge dst_rst_ni) begin
    if (!dst_rst_ni) begin
      ack_tgl_q   <= 1'b0;
      req_sync1_q <= 1'b0;
      req_sync2_q <= 1'b0;
    end else begin
      req_sync1_q <= req_tgl_q;
      req_sync2_q <= req_sync1_q;
      if (dst_ack_i) ack_tgl_q <= !ack_tgl_q;
    end
  end
  assign dst_req_o = req_sync2_q != ack_tgl_q;

endmodule : cdc_handshake
