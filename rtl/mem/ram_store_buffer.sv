// One-entry store buffer in front of the RAM's data port, so that nothing
// decided late in the core's EX stage (the address decode, a trap) drives the
// block RAMs' enables: an accepted store only lands in registers here and is
// written to the RAM in a later cycle in which the port does not read. The
// port reads at the request's address whenever a load may be under way (an
// early signal from registers); such a read is harmless when the load turns
// out to go elsewhere or to be withdrawn. A load of a word still in the
// buffer gets the buffered bytes merged into the RAM's answer, so the core
// sees no difference and never waits.
//
// The buffer drains in the first cycle without a load, so it is empty before
// a fence.i lets the fetch port see the stored code.
module ram_store_buffer #(
  parameter int unsigned AddrW = 14  // word address bits
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  // Bus side: an access accepted for this RAM (req: not withdrawn, in its
  // region) and, earlier in the cycle, whether a load may be under way.
  input  soc_bus_pkg::bus_req_t req_i,
  input  logic             rd_i,
  output logic [31:0]      rdata_o,

  // The RAM's data port.
  output logic             ram_req_o,
  output logic             ram_we_o,
  output logic [3:0]       ram_be_o,
  output logic [AddrW-1:0] ram_addr_o,
  output logic [31:0]      ram_wdata_o,
  input  logic [31:0]      ram_rdata_i
);

  logic             buf_valid_q;
  logic [AddrW-1:0] buf_addr_q;
  logic [3:0]       buf_be_q;
  logic [31:0]      buf_data_q;
  logic [3:0]       fwd_be_q;  // bytes of this cycle's answer that come from the buffer
  logic [AddrW-1:0] req_word;

  assign req_word = req_i.addr[AddrW+1:2];

  assign ram_req_o   = rd_i || buf_valid_q;
  assign ram_we_o    = !rd_i;
  assign ram_addr_o  = rd_i ? req_word : buf_addr_q;
  assign ram_be_o    = buf_be_q;
  assign ram_wdata_o = buf_data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      buf_valid_q <= 1'b0;
      buf_addr_q  <= '0;
      buf_be_q    <= '0;
      buf_data_q  <= '0;
      fwd_be_q    <= '0;
    end else begin
      // A store comes in a cycle without a read, so the entry it replaces
      // has just been written: the entry is loaded whenever a store is on the
      // bus (an early signal) and marked valid only if it was accepted.
      if (req_i.we) begin
        buf_addr_q <= req_word;
        buf_be_q   <= req_i.be;
        buf_data_q <= req_i.wdata;
      end
      if (req_i.req && req_i.we) buf_valid_q <= 1'b1;
      else if (!rd_i)            buf_valid_q <= 1'b0;
      // A read leaves the entry in place, so it still holds these bytes
      // when the answer is formed.
      fwd_be_q <= (rd_i && buf_valid_q && buf_addr_q == req_word) ? buf_be_q : 4'b0;
    end
  end

  for (genvar i = 0; i < 4; i++) begin : g_merge
    assign rdata_o[8*i +: 8] = fwd_be_q[i] ? buf_data_q[8*i +: 8] : ram_rdata_i[8*i +: 8];
  end

endmodule : ram_store_buffer
