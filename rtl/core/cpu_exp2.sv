// ucx.exp2 (custom-0, funct3 3, docs/soc/core.md): 2^-z in Q16 for z in
// Q16, z rounded to 1/256 and looked up; fx_exp2_neg_coarse
// (firmware/lib/kernels/fixmath.h) defines it for every word:
//   0 from 2^21 up; else ((T[i] >> n) + 1) >> 1
// with i = z[15:8] + z[7] (0..256), n = z[20:16] and T the generated table
// (cpu_exp2_pkg). The rounding is split as (T[i] >> (n + 1)) + bit n of
// T[i]: this module gives both parts and WB's adder, the dot products',
// adds them, so no adder follows the table and the shifter here.
module cpu_exp2 (
  /* verilator lint_off UNUSEDSIGNAL */  // below 1/256: only z[7] rounds
  input  logic [31:0] z_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [31:0] value_o,  // T[i] >> (n + 1)
  output logic        round_o   // bit n of T[i]
);

  logic [8:0]  index;
  logic [17:0] shifted;
  logic        in_range;

  assign index    = {1'b0, z_i[15:8]} + 9'(z_i[7]);
  assign shifted  = cpu_exp2_pkg::exp2_entry(index) >> z_i[20:16];
  assign in_range = z_i[31:21] == '0;
  assign value_o  = in_range ? 32'(shifted[17:1]) : '0;
  assign round_o  = in_range && shifted[0];

endmodule : cpu_exp2
