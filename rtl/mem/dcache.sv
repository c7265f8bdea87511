// Data cache in front of external memory: direct-mapped, write-back,
// write-allocate; SizeBytes and LineBytes are parameters (a line is one
// burst of the memory controller).
//
// Its RAMs are read at the address the core is issuing (lookup_addr_i, the
// bus address before the bus registers it), so when the registered request
// arrives its line's tag and word are there: a hit answers at the next edge
// (the core waits one cycle). A miss writes a dirty victim back, fills the
// line, then answers. After reset every line is invalidated (one a cycle);
// requests wait for that.
//
// With Prefetch, a miss on line L also reads line L + 1, if the cache does
// not hold it, into a one-line stream buffer while the core goes on; a
// later miss on that line fills from the buffer (8 cycles instead of a
// memory burst). The buffer never holds a line the cache holds -- checked
// when the prefetch starts, and a line leaves the buffer when it enters
// the cache -- so it needs no coherence of its own. Streams (a model's
// weights, a cache of keys and values) then cost less than misses.
module dcache
#(
  parameter int unsigned SizeBytes = 8192,
  parameter int unsigned LineBytes = 32,
  parameter int unsigned AddrW     = 23,  // word address bits of the memory
  parameter bit          Prefetch  = 1'b1,
  localparam int unsigned LineWords = LineBytes / 4,
  localparam int unsigned Lines     = SizeBytes / LineBytes,
  localparam int unsigned OffW      = $clog2(LineWords),
  localparam int unsigned IndexW    = $clog2(Lines),
  localparam int unsigned TagW      = AddrW - IndexW - OffW
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  /* verilator lint_off UNUSEDSIGNAL */  // the word's index bits only
  input  logic [31:0]           lookup_addr_i,  // byte offset the core is issuing (early)
  input  soc_bus_pkg::bus_req_t req_i,          // registered request: req for one cycle, byte offset
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

  typedef enum logic [2:0] { S_INIT, S_IDLE, S_LOOKUP_READ, S_LOOKUP, S_WB_CMD, S_WB, S_FILL_CMD, S_FILL } state_e;
  // A tag entry: {valid, dirty, tag}.
  localparam int unsigned EntryW = TagW + 2;
  localparam int unsigned Valid  = TagW + 1;
  localparam int unsigned Dirty  = TagW;

  state_e              state_q, state_d;
  // The access being served (latched from req_i).
  logic                we_q;
  logic [3:0]          be_q;
  logic [31:0]         wdata_q;
  logic [TagW-1:0]     tag_q;
  logic [IndexW-1:0]   index_q;
  logic [OffW-1:0]     off_q;
  logic [TagW-1:0]     victim_tag_q;  // the line a miss writes back
  logic [OffW-1:0]     count_q;       // words of the line moved so far
  logic [IndexW-1:0]   init_q;        // the line being invalidated
  logic                pending_q;     // a request arrived during S_INIT
  // The stream buffer: line pf_line_q, being read (PF_CMD, PF_READ) or
  // complete (pf_full_q).
  typedef enum logic [1:0] { PF_IDLE, PF_CMD, PF_READ } pf_state_e;
  pf_state_e           pf_state_q;
  logic [TagW+IndexW-1:0] pf_line_q, next_line;
  logic                pf_full_q, pf_hit, pf_start, pf_next_cached, from_pf_q;
  logic [OffW-1:0]     pf_count_q;
  logic [31:0]         pf_word;
  // The RAMs: tags and words, read at rd_* (a cycle later), written at wr_*.
  logic [EntryW-1:0]   tag_rdata, tag_wdata;
  logic                tag_we;
  logic [IndexW-1:0]   tag_raddr, tag_waddr;
  logic [31:0]         data_rdata, data_wdata;
  logic                data_we;
  logic [IndexW+OffW-1:0] data_raddr, data_waddr;
  // The request being compared this cycle: the one arriving, or the latched one.
  logic                compare, hit, cur_we;
  logic [3:0]          cur_be;
  logic [31:0]         cur_wdata;
  logic [TagW-1:0]     cur_tag;
  logic [IndexW-1:0]   cur_index;
  logic [OffW-1:0]     cur_off;
  logic                answer;
  logic [31:0]         answer_data, fill_word, fill_hold_q;  // fill_hold_q: the word asked for, as filled

  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] new_data, logic [3:0] be);
    for (int i = 0; i < 4; i++) merge[8*i +: 8] = be[i] ? new_data[8*i +: 8] : old[8*i +: 8];
  endfunction

  sdp_ram #(.Width(EntryW), .Depth(Lines)) u_tags (
    .clk_i,
    .we_i    (tag_we),
    .waddr_i (tag_waddr),
    .wdata_i (tag_wdata),
    .re_i    (1'b1),
    .raddr_i (tag_raddr),
    .rdata_o (tag_rdata)
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

  assign compare   = (state_q == S_IDLE && req_i.req) || state_q == S_LOOKUP;
  assign cur_we    = (state_q == S_IDLE) ? req_i.we : we_q;
  assign cur_be    = (state_q == S_IDLE) ? req_i.be : be_q;
  assign cur_wdata = (state_q == S_IDLE) ? req_i.wdata : wdata_q;
  assign cur_tag   = (state_q == S_IDLE) ? req_i.addr[OffW+IndexW+2 +: TagW] : tag_q;
  assign cur_index = (state_q == S_IDLE) ? req_i.addr[OffW+2 +: IndexW] : index_q;
  assign cur_off   = (state_q == S_IDLE) ? req_i.addr[2 +: OffW] : off_q;
  assign hit       = tag_rdata[Valid] && tag_rdata[TagW-1:0] == cur_tag;
  // The word a fill writes: from memory, or from the stream buffer.
  logic [31:0] fill_in;
  logic        fill_valid;
  assign fill_in    = from_pf_q ? pf_word : rdata_i;
  assign fill_valid = from_pf_q || (rdata_valid_i && pf_state_q == PF_IDLE);
  assign fill_word  = (we_q && count_q == off_q) ? merge(fill_in, wdata_q, be_q) : fill_in;

  assign next_line      = {tag_q, index_q} + 1'b1;
  // During a fill the tag RAM reads the next line's entry (nothing else
  // reads it then): is that line cached?
  assign pf_next_cached = tag_rdata[Valid] && tag_rdata[TagW-1:0] == next_line[IndexW +: TagW];
  assign pf_hit         = pf_full_q && pf_line_q == {tag_q, index_q};

  lut_ram #(.Width(32), .Depth(LineWords)) u_stream (
    .clk_i,
    .we_i    (pf_state_q == PF_READ && rdata_valid_i),
    .waddr_i (pf_count_q),
    .wdata_i (rdata_i),
    .raddr_i (count_q),
    .rdata_o (pf_word)
  );

  // RAM addresses: the core's lookup while idle, the line being written
  // back (one word ahead as the controller takes one), the latched access.
  always_comb begin
    tag_raddr  = index_q;
    data_raddr = {index_q, off_q};
    unique case (state_q)
      S_IDLE: begin
        tag_raddr  = lookup_addr_i[OffW+2 +: IndexW];
        data_raddr = lookup_addr_i[2 +: OffW+IndexW];
      end
      S_WB_CMD: data_raddr = {index_q, OffW'(0)};
      S_WB:     data_raddr = {index_q, count_q + OffW'(wdata_ready_i)};
      S_FILL_CMD, S_FILL: tag_raddr = next_line[IndexW-1:0];
      default: ;
    endcase
  end

  always_comb begin
    state_d     = state_q;
    tag_we      = 1'b0;
    tag_waddr   = cur_index;
    tag_wdata   = {1'b1, 1'b1, cur_tag};
    data_we     = 1'b0;
    data_waddr  = {cur_index, cur_off};
    data_wdata  = merge(data_rdata, cur_wdata, cur_be);
    answer      = 1'b0;
    answer_data = data_rdata;
    cmd_valid_o = 1'b0;
    cmd_we_o    = 1'b0;
    cmd_addr_o  = {tag_q, index_q, OffW'(0)};
    pf_start    = 1'b0;
    unique case (state_q)
      S_INIT: begin
        tag_we    = 1'b1;
        tag_waddr = init_q;
        tag_wdata = '0;
        if (init_q == IndexW'(Lines - 1)) state_d = pending_q ? S_LOOKUP_READ : S_IDLE;
      end
      S_LOOKUP_READ: state_d = S_LOOKUP;
      S_IDLE, S_LOOKUP: if (compare) begin
        if (hit) begin
          answer = 1'b1;
          if (cur_we) begin
            data_we = 1'b1;
            tag_we  = !tag_rdata[Dirty];
          end
          state_d = S_IDLE;
        end else begin
          state_d = (tag_rdata[Valid] && tag_rdata[Dirty]) ? S_WB_CMD : S_FILL_CMD;
        end
      end
      // The memory port is the stream buffer's until its read is done.
      S_WB_CMD: if (pf_state_q == PF_IDLE) begin
        cmd_valid_o = 1'b1;
        cmd_we_o    = 1'b1;
        cmd_addr_o  = {victim_tag_q, index_q, OffW'(0)};
        if (cmd_ready_i) state_d = S_WB;
      end
      S_WB: if (wdata_ready_i && count_q == OffW'(LineWords - 1)) state_d = S_FILL_CMD;
      S_FILL_CMD: if (pf_state_q == PF_IDLE) begin
        if (pf_hit) begin
          state_d = S_FILL;  // from the buffer
        end else begin
          cmd_valid_o = 1'b1;
          if (cmd_ready_i) state_d = S_FILL;
        end
      end
      S_FILL: if (fill_valid) begin
        data_we    = 1'b1;
        data_waddr = {index_q, count_q};
        data_wdata = fill_word;
        if (count_q == OffW'(LineWords - 1)) begin
          tag_we      = 1'b1;
          tag_waddr   = index_q;
          tag_wdata   = {1'b1, we_q, tag_q};
          answer      = 1'b1;
          answer_data = (count_q == off_q) ? fill_word : fill_hold_q;
          state_d     = S_IDLE;
          pf_start    = Prefetch && !pf_next_cached;
        end
      end
      default: state_d = S_IDLE;
    endcase
    if (pf_state_q == PF_CMD) begin
      cmd_valid_o = 1'b1;
      cmd_we_o    = 1'b0;
      cmd_addr_o  = {pf_line_q, OffW'(0)};
    end
  end

  assign wdata_o        = data_rdata;
  assign wbe_o          = 4'hF;
  assign cmd_words_m1_o = 4'(LineWords - 1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= S_INIT;
      init_q    <= '0;
      pending_q <= 1'b0;
      we_q      <= 1'b0;
      be_q      <= '0;
      wdata_q   <= '0;
      tag_q     <= '0;
      index_q   <= '0;
      off_q     <= '0;
      victim_tag_q <= '0;
      count_q   <= '0;
      rvalid_o  <= 1'b0;
      rsp_o     <= '0;
      fill_hold_q <= '0;
      from_pf_q <= 1'b0;
      pf_state_q <= PF_IDLE;
      pf_line_q <= '0;
      pf_full_q <= 1'b0;
      pf_count_q <= '0;
      hits_o    <= '0;
      misses_o  <= '0;
    end else begin
      state_q  <= state_d;
      rvalid_o <= answer;
      if (answer) rsp_o.rdata <= answer_data;  // err stays 0: every address in the region exists
      if (state_q == S_INIT) init_q <= init_q + 1'b1;
      if (req_i.req && (state_q == S_IDLE || state_q == S_INIT)) begin
        pending_q <= state_q == S_INIT;
        we_q      <= req_i.we;
        be_q      <= req_i.be;
        wdata_q   <= req_i.wdata;
        tag_q     <= req_i.addr[OffW+IndexW+2 +: TagW];
        index_q   <= req_i.addr[OffW+2 +: IndexW];
        off_q     <= req_i.addr[2 +: OffW];
      end
      if (compare) begin
        victim_tag_q <= tag_rdata[TagW-1:0];
        if (hit) hits_o <= hits_o + 1'b1;
        else     misses_o <= misses_o + 1'b1;
      end
      if (state_q == S_FILL && fill_valid && count_q == off_q) fill_hold_q <= fill_word;
      if ((state_q == S_WB && wdata_ready_i) || (state_q == S_FILL && fill_valid)) count_q <= count_q + 1'b1;
      if (state_q == S_WB_CMD || state_q == S_FILL_CMD) count_q <= '0;
      if (state_q == S_FILL_CMD) from_pf_q <= pf_state_q == PF_IDLE && pf_hit;
      if (state_q == S_FILL && answer) begin
        from_pf_q <= 1'b0;
        if (from_pf_q) pf_full_q <= 1'b0;  // the line is the cache's now
      end
      // The stream buffer's read: the command, then a word per rdata_valid_i.
      unique case (pf_state_q)
        PF_IDLE: if (pf_start) begin
          pf_state_q <= PF_CMD;
          pf_line_q  <= next_line;
          pf_full_q  <= 1'b0;
        end
        PF_CMD: if (cmd_ready_i) begin
          pf_state_q <= PF_READ;
          pf_count_q <= '0;
        end
        PF_READ: if (rdata_valid_i) begin
          pf_count_q <= pf_count_q + 1'b1;
          if (pf_count_q == OffW'(LineWords - 1)) begin
            pf_state_q <= PF_IDLE;
            pf_full_q  <= 1'b1;
          end
        end
        default: pf_state_q <= PF_IDLE;
      endcase
    end
  end

endmodule : dcache
