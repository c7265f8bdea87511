// The SoC bus's external-memory port onto sdram_ctrl, one word an access
// (the bus's uncached path): the request is kept until the controller takes
// it, and the answer -- the word read, or the write taken -- comes back with
// rvalid_o, registered (the core holds on it).
module sdram_bridge
#(
  parameter int unsigned AddrW = 23  // word address bits of the memory
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,    // req for one cycle, addr = byte offset
  output soc_bus_pkg::bus_rsp_t rsp_o,
  output logic                  rvalid_o,

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

  logic pending_q, busy_q;  // waiting for the controller to take it / to finish it

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q  <= 1'b0;
      busy_q     <= 1'b0;
      cmd_we_o   <= 1'b0;
      cmd_addr_o <= '0;
      wdata_o    <= '0;
      wbe_o      <= '0;
      rvalid_o   <= 1'b0;
      rsp_o      <= '0;
    end else begin
      rvalid_o <= 1'b0;
      if (req_i.req) begin
        pending_q  <= 1'b1;
        busy_q     <= 1'b1;
        cmd_we_o   <= req_i.we;
        cmd_addr_o <= req_i.addr[AddrW+1:2];
        wdata_o    <= req_i.wdata;
        wbe_o      <= req_i.be;
      end else if (cmd_valid_o && cmd_ready_i) begin
        pending_q <= 1'b0;
      end
      if (busy_q && (cmd_we_o ? wdata_ready_i : rdata_valid_i)) begin
        busy_q      <= 1'b0;
        rvalid_o    <= 1'b1;
        rsp_o.rdata <= cmd_we_o ? '0 : rdata_i;
        rsp_o.err   <= 1'b0;
      end
    end
  end

  assign cmd_valid_o    = pending_q;
  assign cmd_words_m1_o = 4'd0;

endmodule : sdram_bridge
