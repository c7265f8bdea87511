// The memory controller's command port (sdram_ctrl's, or litedram_port's)
// shared by the data cache and the matrix-vector unit. The cache goes first
// (the core waits on it) unless the unit's command is already shown; the
// unit only reads. A controller returns read
// words in the order of its commands, so a queue of the reads taken (whose,
// how many words) says whose each returning word is; it is two deep, the
// most a controller overlaps (sdram_ctrl takes a read while the last one's
// words are still coming), and a full queue holds new commands back.
module mem_port_arbiter
#(
  parameter int unsigned AddrW = 23
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // The data cache.
  input  logic             cache_cmd_valid_i,
  output logic             cache_cmd_ready_o,
  input  logic             cache_cmd_we_i,
  input  logic [AddrW-1:0] cache_cmd_addr_i,
  input  logic [3:0]       cache_cmd_words_m1_i,
  output logic             cache_rdata_valid_o,
  // The matrix-vector unit (reads).
  input  logic             mvu_cmd_valid_i,
  output logic             mvu_cmd_ready_o,
  input  logic [AddrW-1:0] mvu_cmd_addr_i,
  input  logic [3:0]       mvu_cmd_words_m1_i,
  output logic             mvu_rdata_valid_o,
  // The controller (write data go straight from the cache to it).
  output logic             cmd_valid_o,
  input  logic             cmd_ready_i,
  output logic             cmd_we_o,
  output logic [AddrW-1:0] cmd_addr_o,
  output logic [3:0]       cmd_words_m1_o,
  input  logic             rdata_valid_i
);

  // Reads in flight, head first: whose, and words left after the one
  // coming (head: left0, second: left1).
  logic [1:0] q_valid_q, q_mvu_q, q_valid_d, q_mvu_d;
  logic [3:0] q_left0_q, q_left1_q, q_left0_d, q_left1_d;
  logic       full, cache_sel, take, take_read, pop;

  // A command shown to the controller stays until taken (its handshake): the
  // unit's, once shown, keeps the port over a cache command that comes
  // after it (mvu_shown_q), which waits for the controller's next take.
  logic mvu_shown_q;
  assign full      = q_valid_q[1];
  assign cache_sel = cache_cmd_valid_i && !mvu_shown_q;
  assign cmd_valid_o    = !full && (cache_cmd_valid_i || mvu_cmd_valid_i);
  assign cmd_we_o       = cache_sel && cache_cmd_we_i;
  assign cmd_addr_o     = cache_sel ? cache_cmd_addr_i : mvu_cmd_addr_i;
  assign cmd_words_m1_o = cache_sel ? cache_cmd_words_m1_i : mvu_cmd_words_m1_i;
  assign cache_cmd_ready_o = !full && cmd_ready_i && !mvu_shown_q;
  assign mvu_cmd_ready_o   = !full && cmd_ready_i && !cache_sel;
  assign take      = cmd_valid_o && cmd_ready_i;
  assign take_read = take && !cmd_we_o;

  assign cache_rdata_valid_o = rdata_valid_i && !q_mvu_q[0];
  assign mvu_rdata_valid_o   = rdata_valid_i && q_mvu_q[0];
  assign pop    = rdata_valid_i && q_left0_q == 0;

  // Shift out the head when its last word comes; append a read taken.
  always_comb begin
    q_valid_d = q_valid_q;
    q_mvu_d   = q_mvu_q;
    q_left0_d = rdata_valid_i ? q_left0_q - 1'b1 : q_left0_q;
    q_left1_d = q_left1_q;
    if (pop) begin
      q_valid_d = {1'b0, q_valid_q[1]};
      q_mvu_d   = {1'b0, q_mvu_q[1]};
      q_left0_d = q_left1_q;
      q_left1_d = '0;
    end
    if (take_read) begin
      if (!q_valid_d[0]) begin
        q_valid_d[0] = 1'b1;
        q_mvu_d[0]   = !cache_sel;
        q_left0_d    = cmd_words_m1_o;
      end else begin
        q_valid_d[1] = 1'b1;
        q_mvu_d[1]   = !cache_sel;
        q_left1_d    = cmd_words_m1_o;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mvu_shown_q <= 1'b0;
      q_valid_q   <= '0;
      q_mvu_q     <= '0;
      q_left0_q   <= '0;
      q_left1_q   <= '0;
    end else begin
      mvu_shown_q <= cmd_valid_o && !cmd_ready_i && !cache_sel;
      q_valid_q   <= q_valid_d;
      q_mvu_q     <= q_mvu_d;
      q_left0_q   <= q_left0_d;
      q_left1_q   <= q_left1_d;
    end
  end

endmodule : mem_port_arbiter
