// Data cache in front of external memory: direct-mapped, write-back,
// write-allocate; SizeBytes and LineBytes are parameters (a line is one
// burst of the memory controller).
//
// It takes the request the core is issuing (req_i, before the bus registers
// it) and looks its tag up at once, in distributed RAM, while the block RAM
// of words reads at the same address: a load that hits is answered in the
// next cycle, like on-chip RAM (early_q), with the word straight from the
// RAM. A store hit writes there and answers a cycle later (so the next
// access reads the RAMs after the write); a miss writes a dirty victim
// back, fills the line, then answers. After reset every line is
// invalidated (one a cycle); requests wait for that.
//
// Cache maintenance (Zicbom cbo.inval/clean/flush) arrives as a store of no
// bytes whose data is the operation; it acts on the line holding the
// address, if cached: clean writes a dirty line back and keeps it, flush
// writes it back and drops it, inval drops it unwritten.
//
// A second copy of the tags (every write goes to both) is read at the line
// the state machine works on: a miss's victim, or the prefetcher's line.
//
// With Prefetch, the line after the one being streamed is read into the
// cache while the core works: a miss on line L, or the first hit on the
// line fetched last, starts line L + 1. Its tag is checked first: a line
// the cache holds is left alone (and the stream goes on past it), a dirty
// occupant is not replaced (the stream stops there); otherwise the
// occupant's tag is cleared, the burst lands in a small buffer and is
// copied into the words' RAM in cycles no store writes it, and the tag is
// written at the end. Until then the core's accesses at that index wait
// for it, so nothing reads or writes a half-copied line; a miss waits for
// the memory port and looks its tag up again afterwards.
module dcache
#(
  parameter int unsigned SizeBytes = 8192,
  parameter int unsigned LineBytes = 32,
  parameter int unsigned AddrW     = 23,  // word address bits of the memory
  parameter bit          Prefetch  = 1'b1,
  parameter int unsigned Streams   = 4,   // streams the prefetcher follows at once
  localparam int unsigned LineWords = LineBytes / 4,
  localparam int unsigned Lines     = SizeBytes / LineBytes,
  localparam int unsigned OffW      = $clog2(LineWords),
  localparam int unsigned IndexW    = $clog2(Lines),
  localparam int unsigned TagW      = AddrW - IndexW - OffW,
  localparam int unsigned LineW     = TagW + IndexW,  // a line's number in memory
  localparam int unsigned SlotW     = (Streams > 1) ? $clog2(Streams) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  /* verilator lint_off UNUSEDSIGNAL */  // the address's word bits only
  input  soc_bus_pkg::bus_req_t req_i,  // the access being issued: req for one cycle; addr = byte offset, also without req
  /* verilator lint_on UNUSEDSIGNAL */
  output soc_bus_pkg::bus_rsp_t rsp_o,
  output logic                  rvalid_o,
  output logic [31:0]           hits_o,
  output logic [31:0]           misses_o,

  output logic                  cmd_valid_o,
  input  logic                  cmd_ready_i,
  output logic                  cmd_we_o,
  output logic [AddrW-1:0]      cmd_addr_o,
  output logic [3:0]            cmd_words_m1_o,
  output logic [31:0]           wdata_o,
  output logic [3:0]            wbe_o,
  input  logic                  wdata_ready_i,
  input  logic [31:0]           rdata_i,
  input  logic                  rdata_valid_i
);

  initial begin
    if (LineWords < 2 || LineWords > 16 || (1 << OffW) != LineWords)
      $fatal(1, "dcache: LineBytes = %0d (8..64, a power of two)", LineBytes);
    if ((1 << IndexW) != Lines || TagW < 1) $fatal(1, "dcache: SizeBytes = %0d", SizeBytes);
  end

  typedef enum logic [3:0] {
    S_INIT, S_IDLE, S_PF_WAIT, S_LOOKUP_READ, S_LOOKUP, S_WB_CMD, S_WB, S_FILL_CMD, S_FILL
  } state_e;
  typedef enum logic [1:0] { PF_IDLE, PF_CHECK, PF_CMD, PF_READ } pf_state_e;
  // A tag entry: {valid, dirty, tag}; the lookup copy keeps {valid, tag}.
  localparam int unsigned EntryW = TagW + 2;
  localparam int unsigned Valid  = TagW + 1;
  localparam int unsigned Dirty  = TagW;
  // cbo.* operations (Zicbom's imm), in a maintenance request's data.
  localparam logic [1:0] CboInval = 2'd0, CboClean = 2'd1;

  state_e              state_q, state_d;
  // The access being served (taken from req_i): in its first cycle req_q.
  logic                req_q, we_q, pending_q;
  logic [3:0]          be_q;
  logic [31:0]         wdata_q;
  logic [TagW-1:0]     tag_q;
  logic [IndexW-1:0]   index_q;
  logic [OffW-1:0]     off_q;
  logic                early_q;       // a load answered from the RAMs this cycle
  logic                rvalid_q;
  logic                hit_q;         // the lookup found the line
  logic [TagW-1:0]     victim_tag_q;  // the line a miss writes back
  logic [OffW-1:0]     count_q;       // words of the line moved so far
  logic [IndexW-1:0]   init_q;        // the line being invalidated
  logic [31:0]         rdata_q, fill_hold_q;  // fill_hold_q: the word asked for, as filled
  // The prefetcher: line pf_line_q, words received and copied so far.
  pf_state_e           pf_state_q;
  logic [LineW-1:0]    pf_line_q;
  logic [SlotW-1:0]    pf_slot_q;             // the stream it is for
  // The streams: each the line fetched last (valid), whose first hit
  // fetches the next (pending until the prefetcher is free).
  logic [LineW-1:0]    stream_line_q [Streams];
  logic [Streams-1:0]  stream_valid_q, stream_pending_q, stream_hit;
  logic [SlotW-1:0]    stream_next_q, stream_new, stream_due;
  logic                stream_free;
  logic [OffW:0]       pf_recv_q, pf_copy_q;
  logic [31:0]         pf_word;
  logic [IndexW-1:0]   pf_index;
  logic                pf_checking, pf_busy_here, pf_go, pf_copy, pf_done, pf_next, pf_stop;
  // The RAMs: tags (two copies, read at once), words (read a cycle later).
  logic [TagW:0]       lookup_entry;
  logic [EntryW-1:0]   entry, tag_wdata;
  logic                tag_we;
  logic [IndexW-1:0]   entry_index, tag_waddr;
  logic [31:0]         data_rdata, data_wdata;
  logic                data_we;
  logic [IndexW+OffW-1:0] data_raddr, data_waddr;
  // This cycle's decisions.
  logic [TagW-1:0]     req_tag;
  logic [IndexW-1:0]   req_index;
  logic                lookup_hit, early_d, entry_hit, store_hit, fsm_writes, cmo;
  logic                answer, count_hit, count_miss;
  logic [31:0]         answer_data, fill_word;

  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] new_data, logic [3:0] be);
    for (int i = 0; i < 4; i++) merge[8*i +: 8] = be[i] ? new_data[8*i +: 8] : old[8*i +: 8];
  endfunction

  assign req_tag   = req_i.addr[OffW+IndexW+2 +: TagW];
  assign req_index = req_i.addr[OffW+2 +: IndexW];

  lut_ram #(.Width(TagW + 1), .Depth(Lines)) u_lookup_tags (
    .clk_i,
    .we_i    (tag_we),
    .waddr_i (tag_waddr),
    .wdata_i ({tag_wdata[Valid], tag_wdata[TagW-1:0]}),
    .raddr_i (req_index),
    .rdata_o (lookup_entry)
  );

  lut_ram #(.Width(EntryW), .Depth(Lines)) u_tags (
    .clk_i,
    .we_i    (tag_we),
    .waddr_i (tag_waddr),
    .wdata_i (tag_wdata),
    .raddr_i (entry_index),
    .rdata_o (entry)
  );

  sdp_ram #(.Width(32), .Depth(Lines * LineWords)) u_data (
    .clk_i,
    .we_i    (data_we),
    .waddr_i (data_waddr),
    .wdata_i (data_wdata),
    .re_i    (1'b1),
    .raddr_i (data_raddr),
    .rdata_o (data_rdata)
  );

  // The prefetched burst, word by word, until it is copied.
  lut_ram #(.Width(32), .Depth(LineWords)) u_stream (
    .clk_i,
    .we_i    (pf_state_q == PF_READ && rdata_valid_i),
    .waddr_i (pf_recv_q[OffW-1:0]),
    .wdata_i (rdata_i),
    .raddr_i (pf_copy_q[OffW-1:0]),
    .rdata_o (pf_word)
  );

  assign lookup_hit = lookup_entry[TagW] && lookup_entry[TagW-1:0] == req_tag;
  assign early_d    = req_i.req && !req_i.we && state_q == S_IDLE && lookup_hit;

  // The second copy reads the prefetcher's line while it checks it (the
  // state machine is idle or waiting for it then), else the access's line.
  assign pf_index     = pf_line_q[IndexW-1:0];
  assign pf_checking  = pf_state_q == PF_CHECK && (state_q == S_IDLE || state_q == S_PF_WAIT);
  assign pf_go        = pf_checking && !fsm_writes;
  assign entry_index  = pf_checking ? pf_index : index_q;
  assign entry_hit    = entry[Valid] && entry[TagW-1:0] == tag_q;
  assign pf_busy_here = pf_state_q != PF_IDLE && pf_index == index_q;
  assign cmo          = we_q && be_q == 4'b0000;  // cbo.*: the operation in wdata_q
  assign store_hit    = req_q && we_q && !cmo && hit_q && !pf_busy_here;
  // The store hit is the one write the prefetcher's copy gives way to.
  assign fsm_writes   = state_q == S_IDLE && store_hit;
  assign pf_copy      = pf_state_q == PF_READ && pf_copy_q < pf_recv_q && !fsm_writes;
  assign pf_done      = pf_copy && pf_copy_q == (OffW + 1)'(LineWords - 1);
  assign fill_word    = (we_q && count_q == off_q) ? merge(rdata_i, wdata_q, be_q) : rdata_i;

  // Words' RAM read address: the issued access while idle (a hit's word is
  // there next cycle), the line being written back (one word ahead as the
  // controller takes one), the waiting access.
  always_comb begin
    data_raddr = {index_q, off_q};
    unique case (state_q)
      S_IDLE:   data_raddr = req_i.addr[2 +: OffW+IndexW];
      S_WB_CMD: data_raddr = {index_q, OffW'(0)};
      S_WB:     data_raddr = {index_q, count_q + OffW'(wdata_ready_i)};
      default: ;
    endcase
  end

  always_comb begin
    state_d     = state_q;
    tag_we      = 1'b0;
    tag_waddr   = index_q;
    tag_wdata   = {1'b1, 1'b1, tag_q};
    data_we     = 1'b0;
    data_waddr  = {index_q, off_q};
    data_wdata  = merge(data_rdata, wdata_q, be_q);
    answer      = 1'b0;
    answer_data = data_rdata;
    count_hit   = 1'b0;
    count_miss  = 1'b0;
    cmd_valid_o = 1'b0;
    cmd_we_o    = 1'b0;
    cmd_addr_o  = {tag_q, index_q, OffW'(0)};
    pf_next     = 1'b0;
    unique case (state_q)
      S_INIT: begin
        tag_we    = 1'b1;
        tag_waddr = init_q;
        tag_wdata = '0;
        if (init_q == IndexW'(Lines - 1)) state_d = (pending_q || req_i.req) ? S_LOOKUP_READ : S_IDLE;
      end
      S_IDLE: if (req_q) begin
        if (early_q || store_hit) begin
          count_hit = 1'b1;
          if (we_q) begin
            answer  = 1'b1;
            data_we = 1'b1;
            tag_we  = 1'b1;
          end
        end else if (pf_state_q != PF_IDLE || cmo) begin
          state_d = S_PF_WAIT;  // the memory port is the prefetcher's; maintenance looks up again
        end else if (entry_hit) begin
          state_d = S_LOOKUP_READ;  // a prefetch put the line there since the lookup
        end else begin
          count_miss = 1'b1;
          state_d    = (entry[Valid] && entry[Dirty]) ? S_WB_CMD : S_FILL_CMD;
        end
      end
      S_PF_WAIT: if (pf_state_q == PF_IDLE) state_d = S_LOOKUP_READ;
      S_LOOKUP_READ: state_d = S_LOOKUP;
      S_LOOKUP: begin
        state_d = S_IDLE;
        if (cmo) begin
          // cbo.clean/flush of a dirty line write it back first; inval and
          // flush drop the line (inval without writing it).
          if (entry_hit && entry[Dirty] && wdata_q[1:0] != CboInval) begin
            state_d = S_WB_CMD;
          end else begin
            answer    = 1'b1;
            tag_we    = entry_hit && wdata_q[1:0] != CboClean;
            tag_wdata = '0;
          end
        end else if (entry_hit) begin
          count_hit = 1'b1;
          answer    = 1'b1;
          data_we   = we_q;
          tag_we    = we_q;
        end else begin
          count_miss = 1'b1;
          state_d    = (entry[Valid] && entry[Dirty]) ? S_WB_CMD : S_FILL_CMD;
        end
      end
      S_WB_CMD: begin
        cmd_valid_o = 1'b1;
        cmd_we_o    = 1'b1;
        cmd_addr_o  = {victim_tag_q, index_q, OffW'(0)};
        if (cmd_ready_i) state_d = S_WB;
      end
      S_WB: if (wdata_ready_i && count_q == OffW'(LineWords - 1)) begin
        state_d = S_FILL_CMD;
        if (cmo) begin  // written back: kept clean, or dropped
          state_d   = S_IDLE;
          answer    = 1'b1;
          tag_we    = 1'b1;
          tag_wdata = (wdata_q[1:0] == CboClean) ? {1'b1, 1'b0, tag_q} : '0;
        end
      end
      S_FILL_CMD: begin
        cmd_valid_o = 1'b1;
        if (cmd_ready_i) state_d = S_FILL;
      end
      S_FILL: if (rdata_valid_i) begin
        data_we    = 1'b1;
        data_waddr = {index_q, count_q};
        data_wdata = fill_word;
        if (count_q == OffW'(LineWords - 1)) begin
          tag_we      = 1'b1;
          tag_wdata   = {1'b1, we_q, tag_q};
          answer      = 1'b1;
          answer_data = (count_q == off_q) ? fill_word : fill_hold_q;
          state_d     = S_IDLE;
          pf_next     = Prefetch;
        end
      end
      default: state_d = S_IDLE;
    endcase
    // The prefetcher: its check clears the occupant's tag (or stops), its
    // copy writes the words, the last one the tag.
    if (pf_go && !pf_stop) begin
      tag_we    = 1'b1;
      tag_waddr = pf_index;
      tag_wdata = '0;
    end
    if (pf_copy) begin
      data_we    = 1'b1;
      data_waddr = {pf_index, pf_copy_q[OffW-1:0]};
      data_wdata = pf_word;
    end
    if (pf_done) begin
      tag_we    = 1'b1;
      tag_waddr = pf_index;
      tag_wdata = {1'b1, 1'b0, pf_line_q[IndexW +: TagW]};
    end
    if (pf_state_q == PF_CMD) begin
      cmd_valid_o = 1'b1;
      cmd_we_o    = 1'b0;
      cmd_addr_o  = {pf_line_q, OffW'(0)};
    end
  end

  // The check: the line is cached already, or its index holds a dirty line.
  assign pf_stop      = entry[Valid] && (entry[TagW-1:0] == pf_line_q[IndexW +: TagW] || entry[Dirty]);

  // Which stream an access hits; where a new stream goes (a free slot, else
  // the next in turn); which pending stream goes first.
  always_comb begin
    stream_new  = stream_next_q;
    stream_free = 1'b0;
    stream_due  = '0;
    for (int i = Streams - 1; i >= 0; i--) begin
      stream_hit[i] = stream_valid_q[i] && stream_line_q[i] == {tag_q, index_q};
      if (!stream_valid_q[i]) begin
        stream_new  = SlotW'(i);
        stream_free = 1'b1;
      end
      if (stream_pending_q[i]) stream_due = SlotW'(i);
    end
  end

  assign rvalid_o       = rvalid_q;
  assign rsp_o.rdata    = early_q ? data_rdata : rdata_q;
  assign rsp_o.err      = 1'b0;  // every address exists
  assign wdata_o        = data_rdata;
  assign wbe_o          = 4'hF;
  assign cmd_words_m1_o = 4'(LineWords - 1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= S_INIT;
      init_q        <= '0;
      pending_q     <= 1'b0;
      req_q         <= 1'b0;
      we_q          <= 1'b0;
      be_q          <= '0;
      wdata_q       <= '0;
      tag_q         <= '0;
      index_q       <= '0;
      off_q         <= '0;
      early_q       <= 1'b0;
      hit_q         <= 1'b0;
      victim_tag_q  <= '0;
      count_q       <= '0;
      rvalid_q      <= 1'b0;
      rdata_q       <= '0;
      fill_hold_q   <= '0;
      pf_state_q    <= PF_IDLE;
      pf_line_q     <= '0;
      pf_slot_q     <= '0;
      stream_valid_q   <= '0;
      stream_pending_q <= '0;
      stream_next_q    <= '0;
      for (int i = 0; i < Streams; i++) stream_line_q[i] <= '0;
      pf_recv_q     <= '0;
      pf_copy_q     <= '0;
      hits_o        <= '0;
      misses_o      <= '0;
    end else begin
      state_q       <= state_d;
      req_q         <= req_i.req;
      early_q       <= early_d;
      rvalid_q      <= early_d || answer;
      if (answer) rdata_q <= answer_data;
      if (state_q == S_INIT) init_q <= init_q + 1'b1;
      if (req_i.req) begin
        pending_q <= state_q == S_INIT;
        hit_q     <= lookup_hit;
        we_q      <= req_i.we;
        be_q      <= req_i.be;
        wdata_q   <= req_i.wdata;
        tag_q     <= req_tag;
        index_q   <= req_index;
        off_q     <= req_i.addr[2 +: OffW];
      end
      if (count_miss || (state_q == S_LOOKUP && cmo)) victim_tag_q <= entry[TagW-1:0];
      if (count_hit)  hits_o   <= hits_o + 1'b1;
      if (count_miss) misses_o <= misses_o + 1'b1;
      if (state_q == S_FILL && rdata_valid_i && count_q == off_q) fill_hold_q <= fill_word;
      if ((state_q == S_WB && wdata_ready_i) || (state_q == S_FILL && rdata_valid_i)) count_q <= count_q + 1'b1;
      if (state_q == S_WB_CMD || state_q == S_FILL_CMD) count_q <= '0;
      // The prefetcher: a hit on a stream's line makes it pending.
      if (Prefetch && state_q == S_IDLE && req_q && (early_q || store_hit))
        stream_pending_q <= stream_pending_q | stream_hit;
      unique case (pf_state_q)
        PF_IDLE: if (pf_next) begin  // a miss starts a stream
          pf_state_q <= PF_CHECK;
          pf_line_q  <= {tag_q, index_q} + 1'b1;
          pf_slot_q  <= stream_new;
          stream_valid_q[stream_new]   <= 1'b0;
          stream_pending_q[stream_new] <= 1'b0;
          if (!stream_free) stream_next_q <= stream_next_q + 1'b1;
        end else if (stream_pending_q != '0) begin
          pf_state_q <= PF_CHECK;
          pf_line_q  <= stream_line_q[stream_due] + 1'b1;
          pf_slot_q  <= stream_due;
          stream_valid_q[stream_due]   <= 1'b0;
          stream_pending_q[stream_due] <= 1'b0;
        end
        PF_CHECK: if (pf_go) begin
          if (pf_stop) begin
            pf_state_q <= PF_IDLE;
            // A cached line carries the stream on; a dirty one ends it.
            stream_line_q[pf_slot_q]  <= pf_line_q;
            stream_valid_q[pf_slot_q] <= entry[TagW-1:0] == pf_line_q[IndexW +: TagW];
          end else begin
            pf_state_q <= PF_CMD;
          end
        end
        PF_CMD: if (cmd_ready_i) begin
          pf_state_q <= PF_READ;
          pf_recv_q  <= '0;
          pf_copy_q  <= '0;
        end
        PF_READ: begin
          if (rdata_valid_i) pf_recv_q <= pf_recv_q + 1'b1;
          if (pf_copy) pf_copy_q <= pf_copy_q + 1'b1;
          if (pf_done) begin
            pf_state_q                <= PF_IDLE;
            stream_line_q[pf_slot_q]  <= pf_line_q;
            stream_valid_q[pf_slot_q] <= 1'b1;
          end
        end
        default: pf_state_q <= PF_IDLE;
      endcase
    end
  end

endmodule : dcache
