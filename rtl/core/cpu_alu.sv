// Integer ALU. One adder serves ADD, SUB and the comparisons (SLT/SLTU and
// the branch conditions); one right shifter serves all shifts, left shifts
// by reversing the operand and the result.
module cpu_alu (
  input  cpu_pkg::alu_op_e op_i,
  input  logic [31:0]      a_i,
  input  logic [31:0]      b_i,
  output logic [31:0]      result_o,
  output logic [31:0]      sum_o,  // a + b (a - b for SUB and the comparisons), before the result mux
  output logic             eq_o,   // a == b
  output logic             lt_o,   // a < b, signed (valid for SUB, SLT, SLTU)
  output logic             ltu_o   // a < b, unsigned (likewise)
);

  logic        subtract, shift_left, shift_arith;
  logic [32:0] sum;
  logic [31:0] shift_in, shifted, shifted_rev;
  logic [31:0] shift1, shift2, shift4, shift8;

  assign subtract = (op_i == cpu_pkg::ALU_SUB) || (op_i == cpu_pkg::ALU_SLT) ||
                    (op_i == cpu_pkg::ALU_SLTU);
  assign sum      = {1'b0, a_i} + {1'b0, subtract ? ~b_i : b_i} + {32'b0, subtract};
  assign sum_o    = sum[31:0];
  assign eq_o     = (a_i == b_i);
  assign ltu_o    = !sum[32];  // no carry out of a + ~b + 1: a borrowed
  assign lt_o     = (a_i[31] != b_i[31]) ? a_i[31] : sum[31];

  logic [31:0] a_rev;
  for (genvar i = 0; i < 32; i++) begin : g_rev
    assign a_rev[i] = a_i[31 - i];
    assign shifted_rev[i] = shifted[31 - i];
  end

  assign shift_left  = (op_i == cpu_pkg::ALU_SLL);
  assign shift_arith = (op_i == cpu_pkg::ALU_SRA) && a_i[31];
  assign shift_in    = shift_left ? a_rev : a_i;
  // Logarithmic right shifter written out stage by stage: Yosys maps the
  // shift operators to far more LUTs.
  assign shift1  = b_i[0] ? {shift_arith, shift_in[31:1]}        : shift_in;
  assign shift2  = b_i[1] ? {{2{shift_arith}}, shift1[31:2]}     : shift1;
  assign shift4  = b_i[2] ? {{4{shift_arith}}, shift2[31:4]}     : shift2;
  assign shift8  = b_i[3] ? {{8{shift_arith}}, shift4[31:8]}     : shift4;
  assign shifted = b_i[4] ? {{16{shift_arith}}, shift8[31:16]}   : shift8;

  always_comb begin
    unique case (op_i)
      cpu_pkg::ALU_ADD, cpu_pkg::ALU_SUB: result_o = sum[31:0];
      cpu_pkg::ALU_SLL:                   result_o = shifted_rev;
      cpu_pkg::ALU_SRL, cpu_pkg::ALU_SRA: result_o = shifted;
      cpu_pkg::ALU_SLT:                   result_o = {31'b0, lt_o};
      cpu_pkg::ALU_SLTU:                  result_o = {31'b0, ltu_o};
      cpu_pkg::ALU_XOR:                   result_o = a_i ^ b_i;
      cpu_pkg::ALU_OR:                    result_o = a_i | b_i;
      cpu_pkg::ALU_AND:                   result_o = a_i & b_i;
      default:                            result_o = '0;
    endcase
  end

endmodule : cpu_alu
