// The protocol checkers (rtl/check) against traffic that keeps their rules
// and, with +break=NAME, traffic that breaks one: the run must then stop
// with that assertion (tests/fw_tests.py, fw/protocol-checkers-catch-a-broken-handshake).
// Without +break every check here passes and the checkers' counts match
// the traffic sent.
`timescale 1ns/1ps
module tb_checkers;
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 5;  // a run makes 5

  logic clk = 0, dst_clk = 0, rst_n = 0;
  always #5 clk = ~clk;
  always #7 dst_clk = ~dst_clk;

  // One access at a time, answered later.
  logic req = 0, rvalid = 0;
  check_req_rvalid #(.MaxWait(50)) u_rr (.clk_i(clk), .rst_ni(rst_n), .req_i(req), .rvalid_i(rvalid));
  // Valid until ready, payload stable.
  logic valid = 0, ready = 0;
  logic [7:0] data = '0;
  check_valid_ready #(.W(8), .MaxWait(50)) u_vr (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(valid), .ready_i(ready), .data_i(data));
  // A clock-domain crossing.
  logic start = 0, busy = 0, done = 0, dst_req = 0, ack = 0;
  check_cdc_handshake #(.MaxWait(50)) u_cdc (
    .src_clk_i(clk), .src_rst_ni(rst_n), .src_start_i(start), .src_busy_i(busy), .src_done_i(done),
    .dst_clk_i(dst_clk), .dst_rst_ni(rst_n), .dst_req_i(dst_req), .dst_ack_i(ack));
  // The array's command start.
  logic cmd = 0, accepted = 0, engine_busy = 0, finish = 0;
  check_ucm_command u_cmd (
    .clk_i(clk), .rst_ni(rst_n), .start_i(cmd), .accepted_i(accepted), .busy_i(engine_busy), .finish_i(finish));

  // Drive on the falling edge: the checkers sample on the rising one.
  task automatic access(input int unsigned latency);
    @(negedge clk) req = 1;
    @(negedge clk) req = 0;
    repeat (latency - 1) @(negedge clk);
    rvalid = 1;
    @(negedge clk) rvalid = 0;
  endtask

  task automatic transfer(input logic [7:0] d, input int unsigned wait_cycles);
    @(negedge clk) begin valid = 1; data = d; end
    repeat (wait_cycles) @(negedge clk);
    ready = 1;
    @(negedge clk) begin valid = 0; ready = 0; end
  endtask

  task automatic crossing();
    @(negedge clk) start = 1;
    @(negedge clk) begin start = 0; busy = 1; end
    @(negedge dst_clk) dst_req = 1;
    @(negedge dst_clk) ack = 1;
    @(negedge dst_clk) begin dst_req = 0; ack = 0; end
    @(negedge clk) done = 1;
    @(negedge clk) begin done = 0; busy = 0; end
  endtask

  task automatic command(input int unsigned cycles);
    @(negedge clk) begin cmd = 1; accepted = 1; end
    @(negedge clk) begin cmd = 0; accepted = 0; engine_busy = 1; end
    repeat (cycles - 1) @(negedge clk);
    finish = 1;
    @(negedge clk) begin finish = 0; engine_busy = 0; end
  endtask

  string broken;
  initial begin
    if (!$value$plusargs("break=%s", broken)) broken = "";
    repeat (2) @(posedge clk);
    @(negedge clk) rst_n = 1;
    repeat (2) @(negedge clk);
    for (int i = 1; i <= 5; i++) access(i);
    // An answer in the cycle of the next request is allowed.
    @(negedge clk) req = 1;
    @(negedge clk) req = 0;
    @(negedge clk) begin rvalid = 1; req = 1; end
    @(negedge clk) begin rvalid = 0; req = 0; end
    @(negedge clk) rvalid = 1;
    @(negedge clk) rvalid = 0;
    for (int i = 0; i < 4; i++) transfer(8'(i * 3 + 1), i);
    for (int i = 0; i < 3; i++) crossing();
    for (int i = 1; i <= 3; i++) command(i);
    repeat (3) @(negedge clk);
    tb_check(u_rr.requests_q == 7 && u_rr.answers_q == 7, "check_req_rvalid counted 7 accesses");
    tb_check(u_vr.taken_q == 4, "check_valid_ready counted 4 transfers");
    tb_check(u_cdc.done_q == 3, "check_cdc_handshake counted 3 crossings");
    tb_check(u_cmd.started_q == 3 && u_cmd.finished_q == 3, "check_ucm_command counted 3 commands");

    // One broken rule (the run stops at its assertion).
    case (broken)
      "": ;
      "req_while_waiting": begin
        @(negedge clk) req = 1;
        @(negedge clk) req = 1;
      end
      "answer_without_request": begin
        @(negedge clk) rvalid = 1;
      end
      "never_answered": begin
        @(negedge clk) req = 1;
        @(negedge clk) req = 0;
      end
      "valid_withdrawn": begin
        @(negedge clk) valid = 1;
        @(negedge clk) valid = 0;
      end
      "payload_changed": begin
        @(negedge clk) begin valid = 1; data = 8'h11; end
        @(negedge clk) data = 8'h12;
      end
      "cdc_start_while_busy": begin
        @(negedge clk) start = 1;
        @(negedge clk) busy = 1;
      end
      "cdc_ack_unrequested": begin
        @(negedge dst_clk) ack = 1;
      end
      "command_while_busy": begin
        @(negedge clk) engine_busy = 1;
        @(negedge clk) cmd = 1;
      end
      default: tb_check(1'b0, {"no such break: ", broken});
    endcase
    repeat (60) @(negedge clk);
    tb_check(broken == "", {"the checkers let a broken rule pass: ", broken});
    tb_finish(MinChecks);
  end
endmodule
