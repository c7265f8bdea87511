// The data cache's memory port (sdram_ctrl's: a command of 1..16 words,
// write words taken on wdata_ready, read words given on rdata_valid) on
// LiteDRAM's native user port, for the Arty's DDR3 (mk/litedram.mk): the
// native port moves 128-bit words, four of ours. A command must cover
// whole native words (its address and length multiples of four words),
// which a cache line of 16 bytes or more always does; each native word is
// one native command. A write takes four words (one a cycle), then sends
// the command and the data with its byte mask; a read sends the command
// and gives out the four words of the answer, one a cycle. One native
// access at a time: the controller's own queue and bank machines, not this
// port, are where accesses overlap.
module litedram_port
#(
  parameter int unsigned AddrW = 26,  // word address bits of the memory (256 MB)
  localparam int unsigned NativeAddrW = AddrW - 2
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic                   cmd_valid_i,
  output logic                   cmd_ready_o,
  input  logic                   cmd_we_i,
  /* verilator lint_off UNUSEDSIGNAL */  // the word within a native word: 0
  input  logic [AddrW-1:0]       cmd_addr_i,
  input  logic [3:0]             cmd_words_m1_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]            wdata_i,
  input  logic [3:0]             wbe_i,
  output logic                   wdata_ready_o,
  output logic [31:0]            rdata_o,
  output logic                   rdata_valid_o,

  output logic                   native_cmd_valid_o,
  input  logic                   native_cmd_ready_i,
  output logic                   native_cmd_we_o,
  output logic [NativeAddrW-1:0] native_cmd_addr_o,
  output logic                   native_wdata_valid_o,
  input  logic                   native_wdata_ready_i,
  output logic [127:0]           native_wdata_o,
  output logic [15:0]            native_wdata_we_o,
  input  logic                   native_rdata_valid_i,
  output logic                   native_rdata_ready_o,
  input  logic [127:0]           native_rdata_i
);

  typedef enum logic [2:0] { S_IDLE, S_GATHER, S_CMD, S_WDATA, S_RDATA, S_SCATTER } state_e;

  state_e                 state_q;
  logic                   we_q;
  logic [NativeAddrW-1:0] addr_q;
  logic [1:0]             left_q;   // native words after this one
  logic [1:0]             word_q;   // our word within it
  logic [127:0]           data_q;
  logic [15:0]            be_q;

  assign cmd_ready_o          = state_q == S_IDLE;
  assign wdata_ready_o        = state_q == S_GATHER;
  assign rdata_o              = data_q[32*word_q +: 32];
  assign rdata_valid_o        = state_q == S_SCATTER;
  assign native_cmd_valid_o   = state_q == S_CMD;
  assign native_cmd_we_o      = we_q;
  assign native_cmd_addr_o    = addr_q;
  assign native_wdata_valid_o = state_q == S_WDATA;
  assign native_wdata_o       = data_q;
  assign native_wdata_we_o    = be_q;
  assign native_rdata_ready_o = state_q == S_RDATA;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      we_q    <= 1'b0;
      addr_q  <= '0;
      left_q  <= '0;
      word_q  <= '0;
      data_q  <= '0;
      be_q    <= '0;
    end else begin
      unique case (state_q)
        S_IDLE: if (cmd_valid_i) begin
          we_q    <= cmd_we_i;
          addr_q  <= cmd_addr_i[AddrW-1:2];
          left_q  <= cmd_words_m1_i[3:2];
          word_q  <= '0;
          state_q <= cmd_we_i ? S_GATHER : S_CMD;
        end
        S_GATHER: begin
          data_q[32*word_q +: 32] <= wdata_i;
          be_q[4*word_q +: 4]     <= wbe_i;
          word_q                  <= word_q + 1'b1;
          if (word_q == 2'd3) state_q <= S_CMD;
        end
        S_CMD: if (native_cmd_ready_i) state_q <= we_q ? S_WDATA : S_RDATA;
        S_RDATA: if (native_rdata_valid_i) begin
          data_q  <= native_rdata_i;
          state_q <= S_SCATTER;
        end
        S_WDATA: if (native_wdata_ready_i) begin
          left_q  <= left_q - 1'b1;
          addr_q  <= addr_q + 1'b1;
          state_q <= (left_q == '0) ? S_IDLE : S_GATHER;
        end
        S_SCATTER: begin
          word_q <= word_q + 1'b1;
          if (word_q == 2'd3) begin
            left_q  <= left_q - 1'b1;
            addr_q  <= addr_q + 1'b1;
            state_q <= (left_q == '0) ? S_IDLE : S_CMD;
          end
        end
        default: state_q <= S_IDLE;
      endcase
    end
  end

endmodule : litedram_port
