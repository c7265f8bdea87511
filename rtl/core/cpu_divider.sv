// Iterative radix-4 divider for DIV/DIVU/REM/REMU: two quotient bits per
// cycle (the largest multiple 0..3 of the divisor that fits). The result is
// delivered during the 16th iteration, 17 cycles after the operands arrive.
// Divide-by-zero and the signed overflow case give the results the ISA
// specifies.
module cpu_divider (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,   // pulse: latch operands and begin
  input  logic        abort_i,   // the instruction was squashed
  input  logic [1:0]  op_i,      // funct3[1:0]: 00 div, 01 divu, 10 rem, 11 remu
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        done_o,    // the last iteration: result_o valid this cycle
  output logic [31:0] result_o
);

  logic        busy_q;
  logic [3:0]  count_q;
  logic [31:0] quotient_q, remainder_q;  // quotient_q also shifts out the dividend
  logic [33:0] divisor_q, divisor3_q;    // d and 3d
  logic        negate_q, want_rem_q;
  logic        is_signed;
  logic [31:0] a_abs, b_abs, result, remainder_d, quotient_d;
  logic [33:0] partial;
  logic [34:0] minus1, minus2, minus3;
  logic        last;

  assign is_signed = !op_i[0];
  assign a_abs = (is_signed && a_i[31]) ? -a_i : a_i;
  assign b_abs = (is_signed && b_i[31]) ? -b_i : b_i;

  // Bring down two dividend bits and try 3d, 2d and d.
  assign partial = {remainder_q, quotient_q[31:30]};
  assign minus3  = {1'b0, partial} - {1'b0, divisor3_q};
  assign minus2  = {1'b0, partial} - {1'b0, divisor_q[32:0], 1'b0};
  assign minus1  = {1'b0, partial} - {1'b0, divisor_q};

  always_comb begin
    if (!minus3[34]) begin
      remainder_d = minus3[31:0];
      quotient_d  = {quotient_q[29:0], 2'd3};
    end else if (!minus2[34]) begin
      remainder_d = minus2[31:0];
      quotient_d  = {quotient_q[29:0], 2'd2};
    end else if (!minus1[34]) begin
      remainder_d = minus1[31:0];
      quotient_d  = {quotient_q[29:0], 2'd1};
    end else begin
      remainder_d = partial[31:0];
      quotient_d  = {quotient_q[29:0], 2'd0};
    end
  end
  assign last = busy_q && (count_q == 4'd0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      count_q     <= '0;
      quotient_q  <= '0;
      remainder_q <= '0;
      divisor_q   <= '0;
      divisor3_q  <= '0;
      negate_q    <= 1'b0;
      want_rem_q  <= 1'b0;
    end else begin
      if (abort_i) begin
        busy_q <= 1'b0;
      end else if (start_i && !busy_q) begin
        busy_q      <= 1'b1;
        count_q     <= 4'd15;
        quotient_q  <= a_abs;
        remainder_q <= '0;
        divisor_q   <= {2'b0, b_abs};
        divisor3_q  <= {2'b0, b_abs} + {1'b0, b_abs, 1'b0};
        want_rem_q  <= op_i[1];
        // The remainder takes the dividend's sign; the quotient the operands'
        // combined sign, except that x / 0 stays all ones.
        negate_q    <= op_i[1] ? (is_signed && a_i[31])
                               : (is_signed && (a_i[31] ^ b_i[31]) && (b_i != '0));
      end else if (busy_q) begin
        remainder_q <= remainder_d;
        quotient_q  <= quotient_d;
        count_q     <= count_q - 4'd1;
        if (last) busy_q <= 1'b0;
      end
    end
  end

  assign result   = want_rem_q ? remainder_d : quotient_d;
  // Not gated by abort_i: a squashed division leaves EX with the trap anyway,
  // and the stall that done_o ends must not wait for the trap signal.
  assign done_o   = last;
  assign result_o = negate_q ? -result : result;

endmodule : cpu_divider
