// Controller for a 16-bit SDR SDRAM (the ULX3S's 32 MB part: 4 banks x 8192
// rows x 512 columns; IS42S16160, MT48LC16M16, AS4C32M16 using half).
// Closed page: every access activates its row, reads or writes one column a
// cycle (burst length 1, so any length and any byte mask), and precharges;
// a refresh goes between accesses when one is due. Timings are datasheet
// nanoseconds turned into cycles of ClkHz, rounded up.
//
// Port: a command (word address, 1..16 words, read or write) is taken when
// cmd_valid_i and cmd_ready_o; a write then takes a word from wdata_i/wbe_i
// in each cycle wdata_ready_o is high, a read returns each word with
// rdata_valid_o. A command must not cross a row (1 KiB); the cache lines and
// single words the SoC sends never do.
//
// Refresh times are kept against now_i, a free-running cycle count, rather
// than a counter of their own: between requests and refreshes nothing in
// the controller changes, so a simulator may skip those cycles (soc_top's
// ExternalMemory). now_i wraps; the controller sees every cycle a refresh
// falls due in.
//
// Pins are registered. The board feeds the chip the inverted clock, so a
// command registered at edge k is sampled half a cycle later, and read data
// of a READ registered at edge k is sampled at edge k + CasLatency + 1
// (ReadDelay).
module sdram_ctrl
#(
  parameter int unsigned ClkHz,
  parameter int unsigned CasLatency = 2,
  parameter int unsigned ReadDelay  = CasLatency + 1,
  parameter int unsigned RowBits    = 13,
  parameter int unsigned ColBits    = 9,
  // Datasheet figures (ns), the slowest of the parts above (-7/-75 grades).
  parameter int unsigned TRcdNs     = 21,
  parameter int unsigned TRpNs      = 21,
  parameter int unsigned TRasNs     = 44,
  parameter int unsigned TRcNs      = 66,
  parameter int unsigned TRfcNs     = 66,
  parameter int unsigned TWrNs      = 15,
  parameter int unsigned TRefiNs    = 7800,    // 8192 refreshes per 64 ms
  parameter int unsigned TInitNs    = 200_000, // power-up wait before the first command
  parameter int unsigned InitRefreshes = 8,
  localparam int unsigned AddrW     = RowBits + 2 + ColBits - 1  // word address bits
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [15:0]      now_i,

  input  logic             cmd_valid_i,
  output logic             cmd_ready_o,
  input  logic             cmd_we_i,
  input  logic [AddrW-1:0] cmd_addr_i,     // word address
  input  logic [3:0]       cmd_words_m1_i, // words - 1
  input  logic [31:0]      wdata_i,
  input  logic [3:0]       wbe_i,
  output logic             wdata_ready_o,
  output logic [31:0]      rdata_o,
  output logic             rdata_valid_o,

  output soc_bus_pkg::sdram_pins_t sdram_o,
  input  logic [15:0]      sdram_dq_i
);

  // ns -> cycles, rounded up, at least 1.
  function automatic int unsigned cycles(int unsigned ns);
    logic [63:0] c;
    c      = (64'(ns) * 64'(ClkHz) + 64'd999_999_999) / 64'd1_000_000_000;
    cycles = (c == 0) ? 1 : 32'(c);
  endfunction

  localparam int unsigned TRcd  = cycles(TRcdNs);
  localparam int unsigned TRp   = cycles(TRpNs);
  localparam int unsigned TRas  = cycles(TRasNs);
  localparam int unsigned TRc   = cycles(TRcNs);
  localparam int unsigned TRfc  = cycles(TRfcNs);
  localparam int unsigned TWr   = cycles(TWrNs) + 1;  // and one clock: parts want tWR = 1 clk + 7 ns or 2 clk
  localparam int unsigned TRefi = cycles(TRefiNs);
  localparam int unsigned TInit = cycles(TInitNs);
  localparam int unsigned TMrd  = 2;
  localparam int unsigned WaitW = $clog2(TInit + 1);
  // since_act_q stops counting here: no rule looks further back.
  localparam int unsigned SinceMax = ((TRc > TRas) ? TRc : TRas) - 1;
  // A command registered at edge e is followed by the next one at edge
  // e + T at the earliest: the state after it waits T - 2 cycles (the
  // cycle that leaves the state and the one that decides count too).

  // Commands: {cs_n, ras_n, cas_n, we_n}.
  localparam logic [3:0] CmdNop      = 4'b0111;
  localparam logic [3:0] CmdActive   = 4'b0011;
  localparam logic [3:0] CmdRead     = 4'b0101;
  localparam logic [3:0] CmdWrite    = 4'b0100;
  localparam logic [3:0] CmdPrecharge = 4'b0010;
  localparam logic [3:0] CmdRefresh  = 4'b0001;
  localparam logic [3:0] CmdMode     = 4'b0000;

  // Mode register: burst length 1, sequential, CAS latency, burst writes.
  localparam logic [12:0] ModeValue = 13'((CasLatency & 7) << 4);

  initial begin
    if (CasLatency != 2 && CasLatency != 3) $fatal(1, "sdram_ctrl: CasLatency = %0d (2 or 3)", CasLatency);
    if (ReadDelay < CasLatency) $fatal(1, "sdram_ctrl: ReadDelay = %0d < CasLatency", ReadDelay);
    if (TRefi >= 16'h8000) $fatal(1, "sdram_ctrl: tREFI of %0d cycles does not fit now_i", TRefi);
    if (RowBits > 13 || ColBits > 10) $fatal(1, "sdram_ctrl: RowBits = %0d, ColBits = %0d (A10 is auto-precharge)", RowBits, ColBits);
  end

  typedef enum logic [3:0] {
    S_POWERUP, S_INIT_PRECHARGE, S_INIT_REFRESH, S_INIT_MODE, S_IDLE, S_ACTIVE, S_XFER, S_PRECHARGE, S_WAIT
  } state_e;

  state_e            state_q, state_d;
  logic [WaitW-1:0]  wait_q, wait_d;         // cycles left in this state
  logic [3:0]        init_refs_q, init_refs_d;
  logic [15:0]       refresh_at_q;           // now_i when the next refresh is owed
  logic              refresh_due_q, refresh_taken, refresh_reached;
  logic [WaitW-1:0]  since_act_q;            // cycles since the last ACTIVE, up to SinceMax
  // The access being served.
  logic              we_q;
  logic [1:0]        bank_q;
  logic [ColBits-1:0] col_q, col_d;          // the next column
  logic [4:0]        left_q, left_d;         // halfwords left to issue
  logic              take_cmd;
  logic [3:0]        cmd_d;
  logic [1:0]        ba_d, dqm_d;
  logic [12:0]       a_d;
  logic [15:0]       dq_d;
  logic              dq_oe_d;
  // Read data: which registered READs are due, and the low half of a word.
  logic [ReadDelay-1:0] rd_pipe_q;
  logic              issue_read, half_q;
  logic [15:0]       low_q;

  // A write waits until the chip has returned the last read's data (DQ
  // turns around).
  assign take_cmd    = state_q == S_IDLE && !refresh_due_q && cmd_valid_i && since_act_q >= WaitW'(TRc - 1) &&
                       !(cmd_we_i && |rd_pipe_q);
  assign cmd_ready_o = take_cmd;
  assign refresh_reached = state_q >= S_IDLE && $signed(now_i - refresh_at_q) >= 0;

  always_comb begin
    state_d       = state_q;
    wait_d        = (wait_q != 0) ? wait_q - 1'b1 : '0;
    init_refs_d   = init_refs_q;
    col_d         = col_q;
    left_d        = left_q;
    cmd_d         = CmdNop;
    ba_d          = bank_q;
    a_d           = '0;
    dqm_d         = 2'b00;
    dq_d          = '0;
    dq_oe_d       = 1'b0;
    issue_read    = 1'b0;
    refresh_taken = 1'b0;
    wdata_ready_o = 1'b0;
    unique case (state_q)
      S_POWERUP: if (wait_q == 0) begin
        cmd_d   = CmdPrecharge;
        a_d[10] = 1'b1;  // all banks
        wait_d  = WaitW'(TRp - 1);
        state_d = S_INIT_PRECHARGE;
      end
      S_INIT_PRECHARGE, S_INIT_REFRESH: if (wait_q == 0) begin
        if (init_refs_q != 0) begin
          cmd_d       = CmdRefresh;
          init_refs_d = init_refs_q - 1'b1;
          wait_d      = WaitW'(TRfc - 1);
          state_d     = S_INIT_REFRESH;
        end else begin
          cmd_d   = CmdMode;
          ba_d    = 2'b00;
          a_d     = ModeValue;
          wait_d  = WaitW'(TMrd - 1);
          state_d = S_INIT_MODE;
        end
      end
      S_INIT_MODE: if (wait_q == 0) state_d = S_IDLE;
      S_IDLE: begin
        if (refresh_due_q) begin
          cmd_d         = CmdRefresh;
          refresh_taken = 1'b1;
          wait_d        = WaitW'((TRfc > 2) ? TRfc - 2 : 0);
          state_d       = (TRfc > 1) ? S_WAIT : S_IDLE;
        end else if (take_cmd) begin
          cmd_d   = CmdActive;
          ba_d    = cmd_addr_i[ColBits-1 +: 2];
          a_d     = 13'(cmd_addr_i[ColBits+1 +: RowBits]);
          col_d   = {cmd_addr_i[ColBits-2:0], 1'b0};
          left_d  = {cmd_words_m1_i, 1'b1};  // 2 x words - 1
          wait_d  = WaitW'((TRcd > 2) ? TRcd - 2 : 0);
          state_d = (TRcd > 1) ? S_ACTIVE : S_XFER;
        end
      end
      S_ACTIVE: if (wait_q == 0) state_d = S_XFER;
      S_XFER: begin
        a_d   = 13'(col_q);
        col_d = col_q + 1'b1;
        if (we_q) begin
          cmd_d         = CmdWrite;
          dq_d          = col_q[0] ? wdata_i[31:16] : wdata_i[15:0];
          dqm_d         = col_q[0] ? ~wbe_i[3:2] : ~wbe_i[1:0];
          dq_oe_d       = 1'b1;
          wdata_ready_o = col_q[0];
        end else begin
          cmd_d      = CmdRead;
          issue_read = 1'b1;
        end
        left_d = left_q - 1'b1;
        if (left_q == 0) begin
          // Precharge after tWR (writes) and tRAS since the ACTIVE.
          wait_d  = WaitW'(we_q ? TWr - 1 : 0);
          state_d = S_PRECHARGE;
        end
      end
      S_PRECHARGE: if (wait_q == 0 && since_act_q >= WaitW'(TRas - 1)) begin
        cmd_d   = CmdPrecharge;
        wait_d  = WaitW'((TRp > 2) ? TRp - 2 : 0);
        state_d = (TRp > 1) ? S_WAIT : S_IDLE;
      end
      S_WAIT: if (wait_q == 0) state_d = S_IDLE;  // tRP or tRFC before the next command
      default: state_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q         <= S_POWERUP;
      wait_q          <= WaitW'(TInit);
      init_refs_q     <= 4'(InitRefreshes);
      refresh_at_q    <= '0;
      refresh_due_q   <= 1'b0;
      since_act_q     <= WaitW'(SinceMax);
      we_q            <= 1'b0;
      bank_q          <= '0;
      col_q           <= '0;
      left_q          <= '0;
      sdram_o.cke     <= 1'b0;
      {sdram_o.cs_n, sdram_o.ras_n, sdram_o.cas_n, sdram_o.we_n} <= CmdNop;
      sdram_o.ba      <= '0;
      sdram_o.a       <= '0;
      sdram_o.dqm     <= 2'b11;
      sdram_o.dq      <= '0;
      sdram_o.dq_oe   <= 1'b0;
      rd_pipe_q       <= '0;
      half_q          <= 1'b0;
      low_q           <= '0;
      rdata_o         <= '0;
      rdata_valid_o   <= 1'b0;
    end else begin
      state_q     <= state_d;
      wait_q      <= wait_d;
      init_refs_q <= init_refs_d;
      col_q       <= col_d;
      left_q      <= left_d;
      if (take_cmd) begin
        we_q   <= cmd_we_i;
        bank_q <= cmd_addr_i[ColBits-1 +: 2];
      end
      // Refresh: one owed every tREFI, from the end of the initialisation.
      if (refresh_taken) refresh_due_q <= 1'b0;
      if (state_q < S_IDLE) begin
        refresh_at_q <= now_i + 16'(TRefi);
      end else if (refresh_reached) begin
        refresh_at_q  <= refresh_at_q + 16'(TRefi);
        refresh_due_q <= 1'b1;
      end
      if (cmd_d == CmdActive)                  since_act_q <= '0;
      else if (since_act_q < WaitW'(SinceMax)) since_act_q <= since_act_q + 1'b1;
      sdram_o.cke <= 1'b1;
      {sdram_o.cs_n, sdram_o.ras_n, sdram_o.cas_n, sdram_o.we_n} <= cmd_d;
      sdram_o.ba    <= ba_d;
      sdram_o.a     <= a_d;
      sdram_o.dqm   <= dqm_d;
      sdram_o.dq    <= dq_d;
      sdram_o.dq_oe <= dq_oe_d;
      // Read data: the low half, then the word.
      rd_pipe_q     <= {rd_pipe_q[ReadDelay-2:0], issue_read};
      rdata_valid_o <= 1'b0;
      if (rd_pipe_q[ReadDelay-1]) begin
        half_q <= !half_q;
        if (!half_q) begin
          low_q <= sdram_dq_i;
        end else begin
          rdata_o       <= {sdram_dq_i, low_q};
          rdata_valid_o <= 1'b1;
        end
      end
    end
  end

endmodule : sdram_ctrl
