// LiteDRAM's native user port carried from the SoC's clock to the
// controller's (its user_clk: DDR3 at 4:1 needs a controller clock of
// 100 MHz or more, above the SoC's). litedram_port makes one native access
// at a time, which this takes whole -- the command and, for a write, its
// data -- and makes on the controller's side through cdc_handshake; a
// read's data comes back the same way. Each access thus costs two
// crossings, a few cycles of each clock, on top of the controller's
// latency (docs/soc.md).
module litedram_cdc
#(
  parameter int unsigned AddrW = 24  // native (16-byte) word address bits
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               cmd_valid_i,
  output logic               cmd_ready_o,
  input  logic               cmd_we_i,
  input  logic [AddrW-1:0]   cmd_addr_i,
  input  logic               wdata_valid_i,
  output logic               wdata_ready_o,
  input  logic [127:0]       wdata_i,
  input  logic [15:0]        wdata_we_i,
  output logic               rdata_valid_o,
  input  logic               rdata_ready_i,
  output logic [127:0]       rdata_o,

  input  logic               dram_clk_i,
  input  logic               dram_rst_ni,
  output logic               dram_cmd_valid_o,
  input  logic               dram_cmd_ready_i,
  output logic               dram_cmd_we_o,
  output logic [AddrW-1:0]   dram_cmd_addr_o,
  output logic               dram_wdata_valid_o,
  input  logic               dram_wdata_ready_i,
  output logic [127:0]       dram_wdata_o,
  output logic [15:0]        dram_wdata_we_o,
  input  logic               dram_rdata_valid_i,
  output logic               dram_rdata_ready_o,
  input  logic [127:0]       dram_rdata_i
);

  typedef enum logic [1:0] { S_IDLE, S_WDATA, S_WAIT, S_RDATA } state_e;
  typedef enum logic [1:0] { D_IDLE, D_CMD, D_WDATA, D_RDATA } dram_state_e;

  state_e             state_q;
  dram_state_e        dram_state_q;
  logic               we_q;
  logic [AddrW-1:0]   addr_q;
  logic [127:0]       wdata_q, dram_rdata_q;
  logic [15:0]        wdata_we_q;
  logic               start, done, dram_req, dram_ack;

  // The SoC's side: take the command (and a write's data), cross, wait.
  assign cmd_ready_o   = state_q == S_IDLE;
  assign wdata_ready_o = state_q == S_WDATA;
  assign rdata_valid_o = state_q == S_RDATA;
  assign rdata_o       = dram_rdata_q;  // stable from the answer until the next access
  assign start         = (state_q == S_IDLE && cmd_valid_i && !cmd_we_i) ||
                         (state_q == S_WDATA && wdata_valid_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= S_IDLE;
      we_q       <= 1'b0;
      addr_q     <= '0;
      wdata_q    <= '0;
      wdata_we_q <= '0;
    end else begin
      unique case (state_q)
        S_IDLE: if (cmd_valid_i) begin
          we_q    <= cmd_we_i;
          addr_q  <= cmd_addr_i;
          state_q <= cmd_we_i ? S_WDATA : S_WAIT;
        end
        S_WDATA: if (wdata_valid_i) begin
          wdata_q    <= wdata_i;
          wdata_we_q <= wdata_we_i;
          state_q    <= S_WAIT;
        end
        S_WAIT: if (done) state_q <= we_q ? S_IDLE : S_RDATA;
        S_RDATA: if (rdata_ready_i) state_q <= S_IDLE;
        default: state_q <= S_IDLE;
      endcase
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

  // The controller's side: the same access on the native port.
  assign dram_cmd_valid_o   = dram_state_q == D_CMD;
  assign dram_cmd_we_o      = we_q;
  assign dram_cmd_addr_o    = addr_q;
  assign dram_wdata_valid_o = dram_state_q == D_WDATA;
  assign dram_wdata_o       = wdata_q;
  assign dram_wdata_we_o    = wdata_we_q;
  assign dram_rdata_ready_o = dram_state_q == D_RDATA;
  assign dram_ack           = (dram_state_q == D_WDATA && dram_wdata_ready_i) ||
                              (dram_state_q == D_RDATA && dram_rdata_valid_i);

  always_ff @(posedge dram_clk_i or negedge dram_rst_ni) begin
    if (!dram_rst_ni) begin
      dram_state_q <= D_IDLE;
      dram_rdata_q <= '0;
    end else begin
      unique case (dram_state_q)
        D_IDLE:  if (dram_req) dram_state_q <= D_CMD;
        D_CMD:   if (dram_cmd_ready_i) dram_state_q <= we_q ? D_WDATA : D_RDATA;
        D_WDATA: if (dram_wdata_ready_i) dram_state_q <= D_IDLE;
        D_RDATA: if (dram_rdata_valid_i) begin
          dram_rdata_q <= dram_rdata_i;
          dram_state_q <= D_IDLE;
        end
        default: dram_state_q <= D_IDLE;
      endcase
    end
  end

endmodule : litedram_cdc
