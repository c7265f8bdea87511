// Branch target buffer: per entry a tag, a target and a 2-bit direction
// counter, read with the fetch address in the same cycle (LUT RAM), so that a
// hit whose counter says taken sends the next fetch to the target with no
// bubble. Written when EX resolves a jal or a conditional branch: a taken one
// (re)installs its entry, a not-taken one only moves the counter of the entry
// its prediction found. Contents are hints -- ID checks every prediction
// against the decoded instruction -- so the table needs no reset.
module cpu_btb #(
  parameter int unsigned IndexBits = 6,
  parameter int unsigned TagBits   = 8,
  localparam int unsigned PcTop    = IndexBits + TagBits + 1  // the pc bits that matter
) (
  input  logic        clk_i,

  input  logic [PcTop:2] fetch_pc_i,
  output logic        hit_o,      // the entry belongs to fetch_pc_i
  output logic        taken_o,    // a hit whose counter says taken
  output logic [31:2] target_o,
  output logic [1:0]  counter_o,  // the hit's counter (weakly not-taken on a miss)

  input  logic        update_i,
  input  logic [PcTop:2] update_pc_i,
  input  logic        update_hit_i,      // the prediction found this pc's entry
  input  logic [1:0]  update_counter_i,  // and used this counter
  input  logic        taken_i,
  input  logic [31:2] update_target_i
);

  typedef struct packed {
    logic               valid;
    logic [TagBits-1:0] tag;
    logic [31:2]        target;
    logic [1:0]         counter;
  } entry_t;

  localparam int unsigned Entries = 2 ** IndexBits;

  entry_t table_q [Entries];
  entry_t fetched, written;
  logic [IndexBits-1:0] fetch_index, update_index;

  initial begin
    for (int i = 0; i < Entries; i++) table_q[i] = '0;
  end

  assign fetch_index  = fetch_pc_i[IndexBits+1:2];
  assign update_index = update_pc_i[IndexBits+1:2];
  assign fetched      = table_q[fetch_index];

  assign hit_o     = fetched.valid && fetched.tag == fetch_pc_i[PcTop:IndexBits+2];
  assign counter_o = hit_o ? fetched.counter : 2'b01;
  assign taken_o   = hit_o && fetched.counter[1];
  assign target_o  = fetched.target;

  always_comb begin
    written.valid   = 1'b1;
    written.tag     = update_pc_i[PcTop:IndexBits+2];
    written.target  = update_target_i;
    if (!update_hit_i)                  written.counter = 2'b10;  // new: weakly taken
    else if (taken_i)                   written.counter = (update_counter_i == 2'b11) ? 2'b11 : update_counter_i + 2'b01;
    else                                written.counter = (update_counter_i == 2'b00) ? 2'b00 : update_counter_i - 2'b01;
  end

  // A not-taken branch without an entry leaves the table alone.
  always_ff @(posedge clk_i) begin
    if (update_i && (taken_i || update_hit_i)) table_q[update_index] <= written;
  end

endmodule : cpu_btb
