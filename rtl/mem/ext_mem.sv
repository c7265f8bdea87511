// External memory behind the bus's EXT region: the data cache in front of
// the SDR SDRAM controller, or with Litedram in front of LiteDRAM's native
// user port (the Arty's DDR3), carried to the controller's clock (the
// dram_* ports). soc_top instantiates it; the simulator can also
// evaluate it as a model of its own beside the SoC (soc_top's
// ExternalMemory), only in the cycles it can change: nothing in it moves
// without a request, a refresh falling due (against now_i) or a transfer in
// flight (docs/soc/memory.md).
// With Mvu the matrix-vector unit (rtl/mvu) sits beside the cache: the bus
// sends its region here too (the address XORed with EXT_BASE, as memory's),
// and it reads the weights on the controller's port, which the cache shares
// (mem_port_arbiter).
module ext_mem
#(
  parameter int unsigned ClkHz,
  parameter int unsigned SdramBytes,
  parameter int unsigned SdramCasLatency = 2,
  parameter int unsigned DcacheBytes     = 8192,
  parameter int unsigned DcacheLineBytes = 32,
  parameter bit          Litedram        = 1'b0,
  parameter bit          Mvu             = 1'b0,
  localparam int unsigned AddrW          = $clog2(SdramBytes / 4)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  /* verilator lint_off UNUSEDSIGNAL */  // not with Litedram (its controller refreshes)
  input  logic [15:0]           now_i,          // free-running cycle count (refresh times)
  /* verilator lint_on UNUSEDSIGNAL */
  input  soc_bus_pkg::bus_req_t req_i,          // the access being issued, unregistered (dcache)
  output soc_bus_pkg::bus_rsp_t rsp_o,
  output logic                  rvalid_o,
  output logic [31:0]           hits_o,
  output logic [31:0]           misses_o,

  output soc_bus_pkg::sdram_pins_t sdram_o,
  /* verilator lint_off UNUSEDSIGNAL */  // the SDRAM's without Litedram, the others with it
  input  logic [15:0]           sdram_dq_i,

  input  logic                  dram_clk_i,
  input  logic                  dram_rst_ni,
  output soc_bus_pkg::dram_native_req_t dram_native_o,
  input  soc_bus_pkg::dram_native_rsp_t dram_native_i
  /* verilator lint_on UNUSEDSIGNAL */
);

  // The controller's port.
  logic             cmd_valid, cmd_ready, cmd_we, wdata_ready, rdata_valid;
  logic [AddrW-1:0] cmd_addr;
  logic [3:0]       cmd_words_m1, wbe;
  logic [31:0]      wdata, rdata;
  // The cache's side of it.
  logic             cache_cmd_valid, cache_cmd_ready, cache_cmd_we, cache_rdata_valid;
  logic [AddrW-1:0] cache_cmd_addr;
  logic [3:0]       cache_cmd_words_m1;

  soc_bus_pkg::bus_req_t cache_req;
  soc_bus_pkg::bus_rsp_t cache_rsp;
  logic                  cache_rvalid;

  dcache #(.SizeBytes(DcacheBytes), .LineBytes(DcacheLineBytes), .AddrW(AddrW)) u_dcache (
    .clk_i,
    .rst_ni,
    .req_i          (cache_req),
    .rsp_o          (cache_rsp),
    .rvalid_o       (cache_rvalid),
    .hits_o,
    .misses_o,
    .cmd_valid_o    (cache_cmd_valid),
    .cmd_ready_i    (cache_cmd_ready),
    .cmd_we_o       (cache_cmd_we),
    .cmd_addr_o     (cache_cmd_addr),
    .cmd_words_m1_o (cache_cmd_words_m1),
    .wdata_o        (wdata),
    .wbe_o          (wbe),
    .wdata_ready_i  (wdata_ready),
    .rdata_i        (rdata),
    .rdata_valid_i  (cache_rdata_valid)
  );

  // The unit's region, as the bus sends it (see soc_xbar).
  localparam logic [31:0] MvuAt = soc_regs_pkg::MVU_BASE ^ soc_regs_pkg::EXT_BASE;

  // The unit's side (with Mvu; idle without).
  /* verilator lint_off UNUSEDSIGNAL */
  logic                  in_mvu, mvu_cmd_valid, mvu_cmd_ready, mvu_rdata_valid, mvu_rvalid;
  logic [AddrW-1:0]      mvu_cmd_addr;
  logic [3:0]            mvu_cmd_words_m1;
  soc_bus_pkg::bus_req_t mvu_req;
  soc_bus_pkg::bus_rsp_t mvu_rsp;
  /* verilator lint_on UNUSEDSIGNAL */

  if (Mvu) begin : g_mvu
    assign in_mvu = (req_i.addr & ~(soc_regs_pkg::MVU_SIZE - 1)) == MvuAt;
    always_comb begin
      cache_req     = req_i;
      cache_req.req = req_i.req && !in_mvu;
      mvu_req       = req_i;
      mvu_req.req   = req_i.req && in_mvu;
      mvu_req.addr  = req_i.addr & (soc_regs_pkg::MVU_SIZE - 1);
    end
    assign rsp_o    = mvu_rvalid ? mvu_rsp : cache_rsp;
    assign rvalid_o = cache_rvalid || mvu_rvalid;

    mvu #(.AddrW(AddrW)) u_mvu (
      .clk_i,
      .rst_ni,
      .req_i          (mvu_req),
      .rsp_o          (mvu_rsp),
      .rvalid_o       (mvu_rvalid),
      .cmd_valid_o    (mvu_cmd_valid),
      .cmd_ready_i    (mvu_cmd_ready),
      .cmd_addr_o     (mvu_cmd_addr),
      .cmd_words_m1_o (mvu_cmd_words_m1),
      .rdata_i        (rdata),
      .rdata_valid_i  (mvu_rdata_valid)
    );

    mem_port_arbiter #(.AddrW(AddrW)) u_arbiter (
      .clk_i,
      .rst_ni,
      .cache_cmd_valid_i    (cache_cmd_valid),
      .cache_cmd_ready_o    (cache_cmd_ready),
      .cache_cmd_we_i       (cache_cmd_we),
      .cache_cmd_addr_i     (cache_cmd_addr),
      .cache_cmd_words_m1_i (cache_cmd_words_m1),
      .cache_rdata_valid_o  (cache_rdata_valid),
      .mvu_cmd_valid_i      (mvu_cmd_valid),
      .mvu_cmd_ready_o      (mvu_cmd_ready),
      .mvu_cmd_addr_i       (mvu_cmd_addr),
      .mvu_cmd_words_m1_i   (mvu_cmd_words_m1),
      .mvu_rdata_valid_o    (mvu_rdata_valid),
      .cmd_valid_o          (cmd_valid),
      .cmd_ready_i          (cmd_ready),
      .cmd_we_o             (cmd_we),
      .cmd_addr_o           (cmd_addr),
      .cmd_words_m1_o       (cmd_words_m1),
      .rdata_valid_i        (rdata_valid)
    );
  end else begin : g_no_mvu
    assign in_mvu            = 1'b0;
    assign mvu_req           = '0;
    assign mvu_rsp           = '0;
    assign mvu_rvalid        = 1'b0;
    assign mvu_cmd_valid     = 1'b0;
    assign mvu_cmd_ready     = 1'b0;
    assign mvu_cmd_addr      = '0;
    assign mvu_cmd_words_m1  = '0;
    assign mvu_rdata_valid   = 1'b0;
    assign cache_req         = req_i;
    assign rsp_o             = cache_rsp;
    assign rvalid_o          = cache_rvalid;
    assign cmd_valid         = cache_cmd_valid;
    assign cache_cmd_ready   = cmd_ready;
    assign cmd_we            = cache_cmd_we;
    assign cmd_addr          = cache_cmd_addr;
    assign cmd_words_m1      = cache_cmd_words_m1;
    assign cache_rdata_valid = rdata_valid;
  end

  if (Litedram) begin : g_litedram
    // The unit's commands are 16 words; the cache's a line.
    litedram_port #(.AddrW(AddrW), .LineWords(Mvu ? 16 : DcacheLineBytes / 4)) u_port (
      .clk_i,
      .rst_ni,
      .cmd_valid_i    (cmd_valid),
      .cmd_ready_o    (cmd_ready),
      .cmd_we_i       (cmd_we),
      .cmd_addr_i     (cmd_addr),
      .cmd_words_m1_i (cmd_words_m1),
      .wdata_i        (wdata),
      .wbe_i          (wbe),
      .wdata_ready_o  (wdata_ready),
      .rdata_o        (rdata),
      .rdata_valid_o  (rdata_valid),
      .dram_clk_i,
      .dram_rst_ni,
      .native_o       (dram_native_o),
      .native_i       (dram_native_i)
    );

    assign sdram_o = soc_bus_pkg::SdramIdle;
  end else begin : g_sdram
    sdram_ctrl #(
      .ClkHz      (ClkHz),
      .CasLatency (SdramCasLatency),
      .RowBits    (AddrW - 10),  // 512 columns of 16 bits, 4 banks
      .ColBits    (9)
    ) u_sdram (
      .clk_i,
      .rst_ni,
      .now_i,
      .cmd_valid_i    (cmd_valid),
      .cmd_ready_o    (cmd_ready),
      .cmd_we_i       (cmd_we),
      .cmd_addr_i     (cmd_addr),
      .cmd_words_m1_i (cmd_words_m1),
      .wdata_i        (wdata),
      .wbe_i          (wbe),
      .wdata_ready_o  (wdata_ready),
      .rdata_o        (rdata),
      .rdata_valid_o  (rdata_valid),
      .sdram_o,
      .sdram_dq_i
    );
    assign dram_native_o = '0;
  end

endmodule : ext_mem
