// LiteDRAM's simulation core (build/litedram/sim: the Arty's controller and
// CSRs with LiteDRAM's model of the PHY and the DDR3, mk/litedram.mk) on
// the SoC's types for its ports (soc_bus_pkg), for the Arty board simulator
// and tests/rtl/tb_litedram.sv. Its user clock is its input clock.
module litedram_model (
  input  logic                          clk_i,
  output logic                          user_clk_o,
  output logic                          user_rst_o,
  input  soc_bus_pkg::dram_native_req_t native_i,
  output soc_bus_pkg::dram_native_rsp_t native_o,
  input  soc_bus_pkg::dram_wb_req_t     wb_i,
  output soc_bus_pkg::dram_wb_rsp_t     wb_o
);
  litedram_sim u_core (
    .clk (clk_i), .init_done (wb_o.init_done), .init_error (wb_o.init_error), .sim_trace (1'b0),
    .user_clk (user_clk_o), .user_rst (user_rst_o),
    .user_port_native_0_cmd_addr (native_i.cmd_addr), .user_port_native_0_cmd_ready (native_o.cmd_ready),
    .user_port_native_0_cmd_valid (native_i.cmd_valid), .user_port_native_0_cmd_we (native_i.cmd_we),
    .user_port_native_0_rdata_data (native_o.rdata), .user_port_native_0_rdata_ready (native_i.rdata_ready),
    .user_port_native_0_rdata_valid (native_o.rdata_valid), .user_port_native_0_wdata_data (native_i.wdata),
    .user_port_native_0_wdata_ready (native_o.wdata_ready), .user_port_native_0_wdata_valid (native_i.wdata_valid),
    .user_port_native_0_wdata_we (native_i.wdata_we),
    .wb_ctrl_ack (wb_o.ack), .wb_ctrl_adr (wb_i.adr), .wb_ctrl_bte (2'b0), .wb_ctrl_cti (3'b0),
    .wb_ctrl_cyc (wb_i.cyc), .wb_ctrl_dat_r (wb_o.dat), .wb_ctrl_dat_w (wb_i.dat), .wb_ctrl_err (wb_o.err),
    .wb_ctrl_sel (4'hF), .wb_ctrl_stb (wb_i.stb), .wb_ctrl_we (wb_i.we)
  );
endmodule : litedram_model
