// The data cache's memory port (sdram_ctrl's: a command of 1..16 words,
// write words taken on wdata_ready, read words given on rdata_valid) on
// LiteDRAM's native user port, for the Arty's DDR3 (mk/litedram.mk), which
// runs on the controller's own clock (DDR3 at 4:1 needs 100 MHz or more
// there, above the SoC's). A command must cover whole native words of 128
// bits, four of ours (a cache line of 16 bytes or more always does), and at
// most LineWords words.
//
// Whole commands cross, not native accesses: a write's words are gathered
// on the SoC's side first; then one cdc_handshake request carries the
// command to the controller's side, which issues its native commands back
// to back and moves their data in order (the controller's queue and bank
// machines overlap them), and one answer comes back -- after the last
// write word is taken, or with a read's words, which the SoC's side copies
// and then gives out one a cycle while it takes the next command: a line
// thus costs one round trip across the clocks, not one per native word,
// and a stream of reads (the matrix-vector unit's) overlaps each round trip
// with the words of the read before (docs/soc/memory.md).
module litedram_port
#(
  parameter int unsigned AddrW     = 26,  // word address bits of the memory (256 MB)
  parameter int unsigned LineWords = 8,   // the longest command, in words
  localparam int unsigned NativeWords = LineWords / 4,
  localparam int unsigned NativeAddrW = AddrW - 2
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                cmd_valid_i,
  output logic                                cmd_ready_o,
  input  logic                                cmd_we_i,
  /* verilator lint_off UNUSEDSIGNAL */  // the word within a native word: 0
  input  logic [AddrW-1:0]                    cmd_addr_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [3:0]                          cmd_words_m1_i,
  input  logic [31:0]                         wdata_i,
  input  logic [3:0]                          wbe_i,
  output logic                                wdata_ready_o,
  output logic [31:0]                         rdata_o,
  output logic                                rdata_valid_o,

  input  logic                                dram_clk_i,
  input  logic                                dram_rst_ni,
  output soc_bus_pkg::dram_native_req_t       native_o,
  input  soc_bus_pkg::dram_native_rsp_t       native_i
);

  typedef enum logic [1:0] { S_IDLE, S_GATHER, S_WAIT } state_e;

  localparam int unsigned CountW = $clog2(NativeWords + 1);

  // The SoC's side. The command's registers (we_q, addr_q, count_q, wbuf_q,
  // wbe_q) stay still from the request until its answer, and the
  // controller's side reads them.
  state_e                  state_q;
  logic                    we_q;
  logic [NativeAddrW-1:0]  addr_q;   // native word address
  logic [CountW-1:0]       count_q;  // native words in the command
  logic [3:0]              word_q, last_q;
  logic [32*LineWords-1:0] wbuf_q;
  logic [4*LineWords-1:0]  wbe_q;
  logic                    start, done, answered_q, answered;
  // The read being given out: its words (a copy of rbuf_q), the next, the last.
  logic                    scatter_q, take_words;
  logic [32*LineWords-1:0] sbuf_q;
  logic [3:0]              sword_q, slast_q;

  // The controller's side. rbuf_q stays still from the answer until the
  // next request, and the SoC's side reads it.
  logic                    dram_busy_q, dram_req, dram_ack;
  logic [CountW-1:0]       cmds_q, datas_q;
  logic [32*LineWords-1:0] rbuf_q;

  initial begin
    if (LineWords < 4 || LineWords > 16 || LineWords % 4 != 0)
      $fatal(1, "litedram_port: LineWords = %0d (whole native words: 4, 8, 12 or 16)", LineWords);
  end

  assign cmd_ready_o   = state_q == S_IDLE;
  assign wdata_ready_o = state_q == S_GATHER;
  assign rdata_valid_o = scatter_q;
  // A read's answer is taken once the words before it are out.
  assign answered      = done || answered_q;
  assign take_words    = state_q == S_WAIT && answered && !we_q && !scatter_q;
  assign start         = (state_q == S_IDLE && cmd_valid_i && !cmd_we_i) ||
                         (state_q == S_GATHER && word_q == last_q);

  // Buffers indexed by comparison with each constant position: as muxes and
  // enables, not the shifters a variable part-select would make.
  always_comb begin
    rdata_o = '0;
    for (int unsigned w = 0; w < LineWords; w++)
      if (sword_q == 4'(w)) rdata_o = sbuf_q[32*w +: 32];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= S_IDLE;
      answered_q <= 1'b0;
      we_q       <= 1'b0;
      addr_q     <= '0;
      count_q    <= '0;
      word_q     <= '0;
      last_q     <= '0;
      wbuf_q     <= '0;
      wbe_q      <= '0;
    end else begin
      unique case (state_q)
        S_IDLE: if (cmd_valid_i) begin
          we_q    <= cmd_we_i;
          addr_q  <= cmd_addr_i[AddrW-1:2];
          count_q <= CountW'(cmd_words_m1_i[3:2]) + 1'b1;
          last_q  <= cmd_words_m1_i;
          word_q  <= '0;
          state_q <= cmd_we_i ? S_GATHER : S_WAIT;
        end
        S_GATHER: begin
          for (int unsigned w = 0; w < LineWords; w++)
            if (word_q == 4'(w)) begin
              wbuf_q[32*w +: 32] <= wdata_i;
              wbe_q[4*w +: 4]    <= wbe_i;
            end
          word_q <= word_q + 1'b1;
          if (word_q == last_q) state_q <= S_WAIT;
        end
        S_WAIT: begin
          answered_q <= answered && !(we_q || take_words);
          if (answered && (we_q || take_words)) state_q <= S_IDLE;
        end
        default: state_q <= S_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      scatter_q <= 1'b0;
      sbuf_q    <= '0;
      sword_q   <= '0;
      slast_q   <= '0;
    end else if (take_words) begin
      scatter_q <= 1'b1;
      sbuf_q    <= rbuf_q;
      sword_q   <= '0;
      slast_q   <= last_q;
    end else if (scatter_q) begin
      sword_q <= sword_q + 1'b1;
      if (sword_q == slast_q) scatter_q <= 1'b0;
    end
  end

  cdc_handshake u_handshake (
    .src_clk_i   (clk_i),
    .src_rst_ni  (rst_ni),
    .src_start_i (start),
    /* verilator lint_off PINCONNECTEMPTY */  // state_q says it
    .src_busy_o  (),
    /* verilator lint_on PINCONNECTEMPTY */
    .src_done_o  (done),
    .dst_clk_i   (dram_clk_i),
    .dst_rst_ni  (dram_rst_ni),
    .dst_req_o   (dram_req),
    .dst_ack_i   (dram_ack)
  );

  // Commands go out back to back; data follow in command order (the
  // controller takes a write's data, or gives a read's, when it reaches
  // that command), so the data offered or captured is always the next one.
  always_comb begin
    native_o             = '0;
    native_o.cmd_valid   = dram_busy_q && cmds_q != count_q;
    native_o.cmd_we      = we_q;
    native_o.cmd_addr    = soc_bus_pkg::DramAddrW'(addr_q + NativeAddrW'(cmds_q));
    native_o.wdata_valid = dram_busy_q && we_q && datas_q != count_q;
    native_o.rdata_ready = dram_busy_q && !we_q && datas_q != count_q;
    for (int unsigned n = 0; n < NativeWords; n++)
      if (datas_q == CountW'(n)) begin
        native_o.wdata    = wbuf_q[128*n +: 128];
        native_o.wdata_we = wbe_q[16*n +: 16];
      end
  end
  assign dram_ack = (native_o.wdata_valid && native_i.wdata_ready ||
                     native_o.rdata_ready && native_i.rdata_valid) && datas_q == count_q - 1'b1;

  always_ff @(posedge dram_clk_i or negedge dram_rst_ni) begin
    if (!dram_rst_ni) begin
      dram_busy_q <= 1'b0;
      cmds_q      <= '0;
      datas_q     <= '0;
      rbuf_q      <= '0;
    end else begin
      if (!dram_busy_q && dram_req) begin
        dram_busy_q <= 1'b1;
        cmds_q      <= '0;
        datas_q     <= '0;
      end
      if (dram_ack) dram_busy_q <= 1'b0;
      if (native_o.cmd_valid && native_i.cmd_ready) cmds_q <= cmds_q + 1'b1;
      if (native_o.wdata_valid && native_i.wdata_ready) datas_q <= datas_q + 1'b1;
      if (native_o.rdata_ready && native_i.rdata_valid) begin
        for (int unsigned n = 0; n < NativeWords; n++)
          if (datas_q == CountW'(n)) rbuf_q[128*n +: 128] <= native_i.rdata;
        datas_q <= datas_q + 1'b1;
      end
    end
  end

endmodule : litedram_port
