// Branch history table: 2-bit saturating counters indexed by pc[Bits+1:2].
// Read with the fetch address (the counter arrives with the word, a cycle
// later, and is kept with it through a stall); written when EX resolves a
// branch. Counters start weakly not-taken.
module cpu_bht #(
  parameter int unsigned Bits = 6
) (
  input  logic             clk_i,
  input  logic [Bits-1:0]  fetch_index_i,
  input  logic             fetch_hold_i,
  output logic [1:0]       counter_o,       // for the word arriving this cycle
  input  logic             update_i,
  input  logic [Bits-1:0]  update_index_i,
  input  logic [1:0]       update_counter_i, // the counter the prediction used
  input  logic             taken_i
);

  logic [1:0] table_q [2**Bits];

  initial begin
    for (int i = 0; i < 2**Bits; i++) table_q[i] = 2'b01;
  end

  always_ff @(posedge clk_i) begin
    if (!fetch_hold_i) counter_o <= table_q[fetch_index_i];
    if (update_i) begin
      if (taken_i && update_counter_i != 2'b11)      table_q[update_index_i] <= update_counter_i + 2'b01;
      else if (!taken_i && update_counter_i != 2'b00) table_q[update_index_i] <= update_counter_i - 2'b01;
    end
  end

endmodule : cpu_bht
