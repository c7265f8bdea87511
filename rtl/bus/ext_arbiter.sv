// The external memory's port shared by the core's data accesses and the
// instruction cache's refills, one access at a time: a request is issued in
// the cycle the previous one is answered or later, and its answer (rvalid)
// goes to whoever issued it.
// The instruction cache goes first: its request comes from registers, so the
// port's address is chosen from registers, and the core's request -- which
// settles late (its address adder, a withdrawal) -- only gates req. A core
// access that finds the port taken is kept here and issued next, before
// anything else; the core waits for its answer as for any slow one (the
// bus decoder holds it until core_rvalid_o). The core makes one access at
// a time, so one is all that is ever kept.
module ext_arbiter (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t core_req_i,   // req: issued now and accepted for this port
  output logic                  core_rvalid_o,
  input  soc_bus_pkg::bus_req_t fill_req_i,   // req holds until fill_gnt_o
  output logic                  fill_gnt_o,
  output logic                  fill_rvalid_o,
  output soc_bus_pkg::bus_req_t mem_req_o,
  input  logic                  mem_rvalid_i  // from a register
);

  logic                  pending_q, fill_owns_q, kept_q;
  soc_bus_pkg::bus_req_t kept_req_q;
  logic                  free, issue_kept, issue_fill, issue_core;

  assign free       = !pending_q || mem_rvalid_i;
  assign issue_kept = free && kept_q;
  assign issue_fill = free && !kept_q && fill_req_i.req;
  assign issue_core = free && !kept_q && !fill_req_i.req && core_req_i.req;

  always_comb begin
    if (kept_q)              mem_req_o = kept_req_q;
    else if (fill_req_i.req) mem_req_o = fill_req_i;
    else                     mem_req_o = core_req_i;
    mem_req_o.req = issue_kept || issue_fill || issue_core;
  end

  assign fill_gnt_o    = issue_fill;
  assign core_rvalid_o = pending_q && !fill_owns_q && mem_rvalid_i;
  assign fill_rvalid_o = pending_q && fill_owns_q && mem_rvalid_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q   <= 1'b0;
      fill_owns_q <= 1'b0;
      kept_q      <= 1'b0;
      kept_req_q  <= '0;
    end else begin
      if (mem_req_o.req) begin
        pending_q   <= 1'b1;
        fill_owns_q <= issue_fill;
      end else if (mem_rvalid_i) begin
        pending_q <= 1'b0;
      end
      if (core_req_i.req && !issue_core) begin
        kept_q     <= 1'b1;
        kept_req_q <= core_req_i;
      end else if (issue_kept) begin
        kept_q <= 1'b0;
      end
    end
  end

endmodule : ext_arbiter
