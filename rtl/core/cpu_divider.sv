// Iterative radix-2 divider for DIV/DIVU/REM/REMU: one quotient bit per cycle,
// 33 cycles from start to done. Divide-by-zero and the signed overflow case
// give the results the ISA specifies.
module cpu_divider (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,   // pulse: latch operands and begin
  input  logic        abort_i,   // the instruction was squashed
  input  logic [1:0]  op_i,      // funct3[1:0]: 00 div, 01 divu, 10 rem, 11 remu
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        done_o,    // one cycle, result_o valid
  output logic [31:0] result_o
);

  logic        busy_q;
  logic [5:0]  count_q;
  logic [31:0] quotient_q, remainder_q, divisor_q;
  logic        neg_quotient_q, neg_remainder_q, want_rem_q, done_q;
  logic        is_signed;
  logic [31:0] a_abs, b_abs;
  logic [32:0] trial;

  assign is_signed = !op_i[0];
  assign a_abs = (is_signed && a_i[31]) ? -a_i : a_i;
  assign b_abs = (is_signed && b_i[31]) ? -b_i : b_i;
  // Shift the next dividend bit into the partial remainder and try to subtract.
  assign trial = {remainder_q, quotient_q[31]} - {1'b0, divisor_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q          <= 1'b0;
      done_q          <= 1'b0;
      count_q         <= '0;
      quotient_q      <= '0;
      remainder_q     <= '0;
      divisor_q       <= '0;
      neg_quotient_q  <= 1'b0;
      neg_remainder_q <= 1'b0;
      want_rem_q      <= 1'b0;
    end else begin
      done_q <= 1'b0;
      if (abort_i) begin
        busy_q <= 1'b0;
      end else if (start_i && !busy_q) begin
        busy_q          <= 1'b1;
        count_q         <= 6'd32;
        quotient_q      <= a_abs;
        remainder_q     <= '0;
        divisor_q       <= b_abs;
        // A zero divisor yields all-ones quotient unsigned; keep it unnegated.
        neg_quotient_q  <= is_signed && (a_i[31] ^ b_i[31]) && (b_i != '0);
        neg_remainder_q <= is_signed && a_i[31];
        want_rem_q      <= op_i[1];
      end else if (busy_q) begin
        if (!trial[32]) begin
          remainder_q <= trial[31:0];
          quotient_q  <= {quotient_q[30:0], 1'b1};
        end else begin
          remainder_q <= {remainder_q[30:0], quotient_q[31]};
          quotient_q  <= {quotient_q[30:0], 1'b0};
        end
        count_q <= count_q - 6'd1;
        if (count_q == 6'd1) begin
          busy_q <= 1'b0;
          done_q <= 1'b1;
        end
      end
    end
  end

  assign done_o   = done_q;
  assign result_o = want_rem_q ? (neg_remainder_q ? -remainder_q : remainder_q)
                               : (neg_quotient_q  ? -quotient_q  : quotient_q);

endmodule : cpu_divider
