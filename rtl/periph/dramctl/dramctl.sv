// DRAMCTL: the SoC's way to LiteDRAM's control bus (wb_ctrl: its CSRs --
// DFII, the PHY's delays, init_done), which runs on the controller's clock.
// The firmware sets ADDR (and DATA for a write), writes CMD and polls
// STATUS.BUSY; the access crosses with cdc_handshake and is made as one
// Wishbone cycle there. Registers are refused while an access is under way,
// so what the other side reads stays still. The bus hands over a
// registered request; reads are answered in the same cycle.
module dramctl #(
  parameter bit PhyModel = 1'b0  // LiteDRAM's simulation core (STATUS.PHY_MODEL)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,
  output soc_bus_pkg::bus_rsp_t rsp_o,

  input  logic                  dram_clk_i,
  input  logic                  dram_rst_ni,
  output soc_bus_pkg::dram_wb_req_t dram_wb_o,
  input  soc_bus_pkg::dram_wb_rsp_t dram_wb_i
);

  logic        we_q, bus_error_q, start, busy, done;
  logic [31:0] addr_q, data_q;
  logic [1:0]  init_done_sync_q, init_error_sync_q;
  logic        wr, refused;
  logic        dram_req, dram_ack, dram_active_q, dram_err_q;
  logic [31:0] dram_rdata_q;

  assign wr      = req_i.req && req_i.we;
  assign refused = soc_regs_pkg::DRAMCTL_READ_ONLY[req_i.addr[11:2]] ||
                   (busy && req_i.addr[11:0] != soc_regs_pkg::DRAMCTL_STATUS_OFFSET);
  assign start   = wr && !busy && req_i.addr[11:0] == soc_regs_pkg::DRAMCTL_CMD_OFFSET;

  always_comb begin
    rsp_o = '0;
    if (req_i.req) begin
      unique case (req_i.addr[11:0])
        soc_regs_pkg::DRAMCTL_STATUS_OFFSET: begin
          rsp_o.rdata[soc_regs_pkg::DRAMCTL_STATUS_BUSY_LSB]       = busy;
          rsp_o.rdata[soc_regs_pkg::DRAMCTL_STATUS_BUS_ERROR_LSB]  = bus_error_q;
          rsp_o.rdata[soc_regs_pkg::DRAMCTL_STATUS_INIT_DONE_LSB]  = init_done_sync_q[1];
          rsp_o.rdata[soc_regs_pkg::DRAMCTL_STATUS_INIT_ERROR_LSB] = init_error_sync_q[1];
          rsp_o.rdata[soc_regs_pkg::DRAMCTL_STATUS_PHY_MODEL_LSB]  = PhyModel;
        end
        soc_regs_pkg::DRAMCTL_ADDR_OFFSET:   rsp_o.rdata = addr_q;
        soc_regs_pkg::DRAMCTL_DATA_OFFSET:   rsp_o.rdata = data_q;
        soc_regs_pkg::DRAMCTL_CMD_OFFSET:    rsp_o.err   = !req_i.we;  // write only
        default:                             rsp_o.err   = 1'b1;
      endcase
      if (wr && refused) rsp_o.err = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      we_q              <= 1'b0;
      bus_error_q       <= 1'b0;
      addr_q            <= '0;
      data_q            <= '0;
      init_done_sync_q  <= '0;
      init_error_sync_q <= '0;
    end else begin
      init_done_sync_q  <= {init_done_sync_q[0], dram_wb_i.init_done};
      init_error_sync_q <= {init_error_sync_q[0], dram_wb_i.init_error};
      if (wr && !refused) begin
        unique case (req_i.addr[11:0])
          soc_regs_pkg::DRAMCTL_ADDR_OFFSET: addr_q <= req_i.wdata;
          soc_regs_pkg::DRAMCTL_DATA_OFFSET: data_q <= req_i.wdata;
          soc_regs_pkg::DRAMCTL_CMD_OFFSET:  we_q   <= req_i.wdata[soc_regs_pkg::DRAMCTL_CMD_WRITE_LSB];
          default: ;
        endcase
      end
      if (done) begin
        bus_error_q <= dram_err_q;
        if (!we_q) data_q <= dram_rdata_q;
      end
    end
  end

  cdc_handshake u_handshake (
    .src_clk_i   (clk_i),
    .src_rst_ni  (rst_ni),
    .src_start_i (start),
    .src_busy_o  (busy),
    .src_done_o  (done),
    .dst_clk_i   (dram_clk_i),
    .dst_rst_ni  (dram_rst_ni),
    .dst_req_o   (dram_req),
    .dst_ack_i   (dram_ack)
  );

  // The controller's side: one Wishbone cycle per request.
  assign dram_ack = dram_active_q && (dram_wb_i.ack || dram_wb_i.err);
  always_comb begin
    dram_wb_o     = '0;
    dram_wb_o.cyc = dram_active_q;
    dram_wb_o.stb = dram_active_q;
    dram_wb_o.we  = we_q;
    dram_wb_o.adr = addr_q[31:2];
    dram_wb_o.dat = data_q;
  end

  always_ff @(posedge dram_clk_i or negedge dram_rst_ni) begin
    if (!dram_rst_ni) begin
      dram_active_q <= 1'b0;
      dram_err_q    <= 1'b0;
      dram_rdata_q  <= '0;
    end else if (dram_ack) begin
      dram_active_q <= 1'b0;
      dram_err_q    <= dram_wb_i.err;
      dram_rdata_q  <= dram_wb_i.dat;
    end else if (dram_req) begin
      dram_active_q <= 1'b1;
    end
  end

endmodule : dramctl
