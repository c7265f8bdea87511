// Instruction cache for code in external memory: direct-mapped, read-only;
// SizeBytes and LineBytes are parameters.
//
// The fetch side times like the block RAMs' port A: the address of a read
// enabled in one cycle (fetch_i: the core is not holding and fetches from
// the region) is answered in the next, with hit_o saying whether the word is
// the one asked for. The answer holds while no read is enabled. A miss is
// not waited for here: the core fetches the address again (cpu_core's
// ibus_valid_i) while the cache fills the line, one word read after another
// through the external memory's port (ext_arbiter), that is through the data
// cache (the next word is asked for in the cycle the last one arrives). So
// a store the core made is what a refill reads, dirty in the data
// cache or not, and fence.i only has to drop every line (inval_i: one cycle,
// the valid bits are registers); a fill under way then completes without
// marking its line valid, as it may have read words from before the stores.
module icache
#(
  parameter int unsigned SizeBytes = 4096,
  parameter int unsigned LineBytes = 32,
  parameter int unsigned AddrW     = 23,  // word address bits of the region
  localparam int unsigned LineWords = LineBytes / 4,
  localparam int unsigned Lines     = SizeBytes / LineBytes,
  localparam int unsigned OffW      = $clog2(LineWords),
  localparam int unsigned IndexW    = $clog2(Lines),
  localparam int unsigned TagW      = AddrW - IndexW - OffW
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  fetch_i,       // read at fetch_addr_i this cycle
  /* verilator lint_off UNUSEDSIGNAL */  // the word's address bits only
  input  logic [31:0]           fetch_addr_i,  // byte offset in the region
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [31:0]           rdata_o,
  output logic                  hit_o,         // rdata_o is the word of the last read
  input  logic                  inval_i,       // fence.i: drop every line

  // Refill: one word read at a time; req holds until gnt, the word comes
  // with rvalid.
  output soc_bus_pkg::bus_req_t mem_req_o,
  input  logic                  mem_gnt_i,
  input  logic                  mem_rvalid_i,
  input  logic [31:0]           mem_rdata_i
);

  initial begin
    if (LineWords < 2 || (1 << OffW) != LineWords)
      $fatal(1, "icache: LineBytes = %0d (8 or more, a power of two)", LineBytes);
    if ((1 << IndexW) != Lines || TagW < 1) $fatal(1, "icache: SizeBytes = %0d", SizeBytes);
  end

  typedef enum logic [1:0] { S_IDLE, S_REQ, S_WAIT } state_e;

  state_e            state_q;
  logic              read_q;             // a read was made last cycle
  logic [TagW-1:0]   fetch_tag_q, tag_rdata;
  logic [IndexW-1:0] fetch_index_q;
  logic [Lines-1:0]  valid_q;
  logic              valid_rdata_q;
  logic [TagW-1:0]   fill_tag_q;
  logic [IndexW-1:0] fill_index_q;
  logic [OffW-1:0]   fill_word_q;
  logic              fill_dropped_q;     // fence.i came during the fill
  logic              fill_last, just_filled, fill_ask;
  logic [OffW-1:0]   fill_ask_word;        // the word fill_ask asks for

  logic [TagW-1:0]   fetch_tag;
  logic [IndexW-1:0] fetch_index;
  assign fetch_tag   = fetch_addr_i[OffW+IndexW+2 +: TagW];
  assign fetch_index = fetch_addr_i[OffW+2 +: IndexW];
  assign fill_last   = state_q == S_WAIT && mem_rvalid_i && fill_word_q == OffW'(LineWords - 1);
  assign fill_ask    = state_q == S_REQ || (state_q == S_WAIT && mem_rvalid_i && !fill_last);
  assign fill_ask_word = (state_q == S_WAIT) ? fill_word_q + 1'b1 : fill_word_q;

  sdp_ram #(.Width(32), .Depth(Lines * LineWords)) u_data (
    .clk_i,
    .we_i    (state_q == S_WAIT && mem_rvalid_i),
    .waddr_i ({fill_index_q, fill_word_q}),
    .wdata_i (mem_rdata_i),
    .re_i    (fetch_i),
    .raddr_i (fetch_addr_i[2 +: OffW+IndexW]),
    .rdata_o (rdata_o)
  );

  sdp_ram #(.Width(TagW), .Depth(Lines)) u_tags (
    .clk_i,
    .we_i    (fill_last),
    .waddr_i (fill_index_q),
    .wdata_i (fill_tag_q),
    .re_i    (fetch_i),
    .raddr_i (fetch_index),
    .rdata_o (tag_rdata)
  );

  assign hit_o       = valid_rdata_q && tag_rdata == fetch_tag_q;
  assign just_filled = valid_q[fetch_index_q] && fill_index_q == fetch_index_q && fill_tag_q == fetch_tag_q;

  always_comb begin
    mem_req_o       = '0;
    mem_req_o.req   = fill_ask;
    mem_req_o.be    = 4'hF;
    mem_req_o.addr  = 32'({fill_tag_q, fill_index_q, fill_ask_word, 2'b00});
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q        <= S_IDLE;
      read_q         <= 1'b0;
      fetch_tag_q    <= '0;
      fetch_index_q  <= '0;
      valid_q        <= '0;
      valid_rdata_q  <= 1'b0;
      fill_tag_q     <= '0;
      fill_index_q   <= '0;
      fill_word_q    <= '0;
      fill_dropped_q <= 1'b0;
    end else begin
      read_q <= fetch_i;
      if (fetch_i) begin
        fetch_tag_q   <= fetch_tag;
        fetch_index_q <= fetch_index;
        valid_rdata_q <= valid_q[fetch_index];
      end
      unique case (state_q)
        // The first answer to a read that missed starts its line, unless
        // that line has just been filled (the read saw it before it was).
        S_IDLE: if (read_q && !hit_o && !just_filled) begin
          state_q                <= S_REQ;
          fill_tag_q             <= fetch_tag_q;
          fill_index_q           <= fetch_index_q;
          fill_word_q            <= '0;
          fill_dropped_q         <= 1'b0;
          valid_q[fetch_index_q] <= 1'b0;
        end
        S_REQ: if (mem_gnt_i) state_q <= S_WAIT;
        S_WAIT: if (mem_rvalid_i) begin
          fill_word_q <= fill_word_q + 1'b1;
          state_q     <= fill_last ? S_IDLE : (mem_gnt_i ? S_WAIT : S_REQ);
          if (fill_last) valid_q[fill_index_q] <= !fill_dropped_q && !inval_i;
        end
        default: state_q <= S_IDLE;
      endcase
      if (inval_i) begin
        valid_q        <= '0;
        fill_dropped_q <= 1'b1;
      end
    end
  end

endmodule : icache
