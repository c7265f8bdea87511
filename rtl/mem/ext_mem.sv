// External memory behind the bus's EXT region: the data cache in front of
// the SDR SDRAM controller, or with Litedram in front of LiteDRAM's native
// user port (the Arty's DDR3), carried to the controller's clock (the
// dram_* ports). soc_top instantiates it; the simulator can also
// evaluate it as a model of its own beside the SoC (soc_top's
// ExternalMemory), only in the cycles it can change: nothing in it moves
// without a request, a refresh falling due (against now_i) or a transfer in
// flight (docs/soc.md).
module ext_mem
#(
  parameter int unsigned ClkHz           = 50_000_000,
  parameter int unsigned SdramBytes      = 32 * 1024 * 1024,
  parameter int unsigned SdramCasLatency = 2,
  parameter int unsigned DcacheBytes     = 8192,
  parameter int unsigned DcacheLineBytes = 32,
  parameter bit          Litedram        = 1'b0,
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

  output logic                  sdram_cke_o,
  output logic                  sdram_cs_no,
  output logic                  sdram_ras_no,
  output logic                  sdram_cas_no,
  output logic                  sdram_we_no,
  output logic [1:0]            sdram_ba_o,
  output logic [12:0]           sdram_a_o,
  output logic [1:0]            sdram_dqm_o,
  output logic [15:0]           sdram_dq_o,
  output logic                  sdram_dq_oe_o,
  /* verilator lint_off UNUSEDSIGNAL */  // the SDRAM's without Litedram, the others with it
  input  logic [15:0]           sdram_dq_i,

  input  logic                  dram_clk_i,
  input  logic                  dram_rst_ni,
  output soc_bus_pkg::dram_native_req_t dram_native_o,
  input  soc_bus_pkg::dram_native_rsp_t dram_native_i
  /* verilator lint_on UNUSEDSIGNAL */
);

  logic             cmd_valid, cmd_ready, cmd_we, wdata_ready, rdata_valid;
  logic [AddrW-1:0] cmd_addr;
  logic [3:0]       cmd_words_m1, wbe;
  logic [31:0]      wdata, rdata;

  dcache #(.SizeBytes(DcacheBytes), .LineBytes(DcacheLineBytes), .AddrW(AddrW)) u_dcache (
    .clk_i,
    .rst_ni,
    .req_i,
    .rsp_o,
    .rvalid_o,
    .hits_o,
    .misses_o,
    .cmd_valid_o    (cmd_valid),
    .cmd_ready_i    (cmd_ready),
    .cmd_we_o       (cmd_we),
    .cmd_addr_o     (cmd_addr),
    .cmd_words_m1_o (cmd_words_m1),
    .wdata_o        (wdata),
    .wbe_o          (wbe),
    .wdata_ready_i  (wdata_ready),
    .rdata_i        (rdata),
    .rdata_valid_i  (rdata_valid)
  );

  if (Litedram) begin : g_litedram
    litedram_port #(.AddrW(AddrW), .LineWords(DcacheLineBytes / 4)) u_port (
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

    assign sdram_cke_o   = 1'b0;
    assign sdram_cs_no   = 1'b1;
    assign sdram_ras_no  = 1'b1;
    assign sdram_cas_no  = 1'b1;
    assign sdram_we_no   = 1'b1;
    assign sdram_ba_o    = '0;
    assign sdram_a_o     = '0;
    assign sdram_dqm_o   = '1;
    assign sdram_dq_o    = '0;
    assign sdram_dq_oe_o = 1'b0;
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
      .sdram_cke_o,
      .sdram_cs_no,
      .sdram_ras_no,
      .sdram_cas_no,
      .sdram_we_no,
      .sdram_ba_o,
      .sdram_a_o,
      .sdram_dqm_o,
      .sdram_dq_o,
      .sdram_dq_oe_o,
      .sdram_dq_i
    );
    assign dram_native_o = '0;
  end

endmodule : ext_mem
