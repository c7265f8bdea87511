// The protocol checkers bound to the SoC's interfaces (simulation only:
// the asserting simulator build, build/sim, and the memory testbenches;
// docs/soc/assertions.md). Each bind reaches every instance of its
// module.

// The bus decoder's external-memory port: one access at a time.
bind soc_xbar check_req_rvalid u_check_ext (.clk_i, .rst_ni, .req_i(ext_req_o.req), .rvalid_i(ext_rvalid_i));

// The external port's arbiter: the core's accesses and the port itself.
bind ext_arbiter check_req_rvalid u_check_core (.clk_i, .rst_ni, .req_i(core_req_i.req), .rvalid_i(core_rvalid_o));
bind ext_arbiter check_req_rvalid u_check_mem (.clk_i, .rst_ni, .req_i(mem_req_o.req), .rvalid_i(mem_rvalid_i));

// The instruction cache's refills: a request held until granted, then answered.
bind icache check_valid_ready #(.W(32)) u_check_fill_req (
  .clk_i, .rst_ni, .valid_i(mem_req_o.req), .ready_i(mem_gnt_i), .data_i(mem_req_o.addr));
bind icache check_req_rvalid u_check_fill (.clk_i, .rst_ni, .req_i(mem_gnt_i), .rvalid_i(mem_rvalid_i));

// The data cache: the core's accesses, and its commands to the memory port.
bind dcache check_req_rvalid u_check_core (.clk_i, .rst_ni, .req_i(req_i.req), .rvalid_i(rvalid_o));
bind dcache check_valid_ready #(.W(1 + AddrW + 4)) u_check_cmd (
  .clk_i, .rst_ni, .valid_i(cmd_valid_o), .ready_i(cmd_ready_i), .data_i({cmd_we_o, cmd_addr_o, cmd_words_m1_o}));

// The memory port's arbiter: the matrix-vector unit's commands and the controller's.
bind mem_port_arbiter check_valid_ready #(.W(AddrW + 4)) u_check_mvu (
  .clk_i, .rst_ni, .valid_i(mvu_cmd_valid_i), .ready_i(mvu_cmd_ready_o), .data_i({mvu_cmd_addr_i, mvu_cmd_words_m1_i}));
bind mem_port_arbiter check_valid_ready #(.W(1 + AddrW + 4)) u_check_ctrl (
  .clk_i, .rst_ni, .valid_i(cmd_valid_o), .ready_i(cmd_ready_i), .data_i({cmd_we_o, cmd_addr_o, cmd_words_m1_o}));

// Clock-domain crossings.
bind cdc_handshake check_cdc_handshake u_check (
  .src_clk_i, .src_rst_ni, .src_start_i, .src_busy_i(src_busy_o), .src_done_i(src_done_o),
  .dst_clk_i, .dst_rst_ni, .dst_req_i(dst_req_o), .dst_ack_i);

// The array's registers and its engine.
bind ucm_regs check_ucm_command u_check (
  .clk_i, .rst_ni, .start_i(cmd_start_o), .accepted_i(cmd_start_o && cmd_state_o != ucm_pkg::ST_IDLE),
  .busy_i, .finish_i);
