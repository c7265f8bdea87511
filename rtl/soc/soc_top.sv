// The SoC: core, bus decoder, boot ROM, RAM, peripherals, the UniCAIM
// array block (UcmArray = 0 leaves it out) and external memory: a data
// cache in front of the SDR SDRAM controller, and an instruction cache
// whose refills go through the data cache (SdramBytes = 0 leaves them out;
// the pins are then idle).
// Board wrappers (boards/) add clocking and pins; the simulator (sim/) drives
// the ports directly. With ExternalArray the array block is outside, on the
// array_* ports: the simulator evaluates it as a model of its own, only in
// the cycles it can change (docs/soc/simulator.md); boards leave those ports open.
// It gets the request the bus registers at the next edge and answers ahead;
// the SoC registers the answer at that edge, where the block inside would
// answer the registered request combinationally: the same cycle, and no
// logic of the SoC's behind an input (the simulator evaluates such logic at
// every step).
// ExternalMemory does the same with the cache and SDRAM controller (ext_mem)
// on the ext_* ports; the sdram_* pins are then idle.
// With Litedram the external memory is LiteDRAM's (the Arty's DDR3): the
// data cache reaches its native user port, and the DRAMCTL peripheral its
// control bus, on the dram_* ports in its clock domain (dram_clk_i); the
// board wrapper or simulator instantiates the generated core there.
module soc_top
#(
  // The platform's (boards/boards.toml): no defaults, so a build without
  // them fails at elaboration.
  parameter int unsigned ClkHz,
  parameter int unsigned Baud,
  parameter int unsigned RamBytes,
  parameter int unsigned RomBytes,
  parameter              RamInit  = "",  // $readmemh images (strings)
  parameter              RomInit  = "",
  parameter bit          Sim      = 1'b0,
  parameter int unsigned GpioWidth = 8,
  // The UniCAIM array: a configuration of rtl/unicaim/arrays.toml by its
  // number (ucm_arrays_pkg::UCM_ARRAY_<NAME>; 0: none).
  parameter int unsigned UcmArray,
  parameter bit          ExternalArray = 1'b0,
  // External SDR SDRAM (16-bit, 4 banks, 512 columns): 32 MB on the ULX3S.
  parameter int unsigned SdramBytes,
  parameter int unsigned SdramCasLatency = 2,
  parameter int unsigned DcacheBytes = 8192,
  parameter int unsigned DcacheLineBytes = 32,
  parameter int unsigned IcacheBytes = 4096,
  parameter bit          ExternalMemory = 1'b0,
  // The matrix-vector unit beside the data cache (rtl/mvu; with SdramBytes).
  parameter bit          Mvu         = 1'b0,
  parameter bit          Litedram    = 1'b0,
  parameter bit          LitedramModel = 1'b0  // on LiteDRAM's simulation core (DRAMCTL STATUS.PHY_MODEL)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [31:0]          boot_addr_i,   // soc_regs_pkg::ROM_BASE on boards; ELF entry in simulation
  input  logic [31:0]          tohost_addr_i, // 0 on boards
  input  logic                 uart_rx_i,
  output logic                 uart_tx_o,
  output logic                 uart_rts_no,   // high: the receive FIFO is nearly full, stop sending
  input  logic [GpioWidth-1:0] gpio_i,
  output logic [GpioWidth-1:0] gpio_o,
  output logic                 exit_valid_o,
  output logic [31:0]          exit_code_o,
  // The array block's bus port and interrupt, used with ExternalArray.
  output soc_bus_pkg::bus_req_t array_req_o,    // registered at the next edge
  /* verilator lint_off UNUSEDSIGNAL */  // read only with ExternalArray
  input  soc_bus_pkg::bus_rsp_t array_rsp_i,
  input  logic                  array_irq_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // The external memory's bus port (the request as the core issues it),
  // counters and cycle count, used with ExternalMemory. Its answer and
  // counters are registers there; these
  // inputs carry what they become at each edge, registered again here, so
  // no logic of the SoC's depends on an input (the simulator would
  // evaluate such logic at every step).
  /* verilator lint_off UNUSEDSIGNAL */  // read only with ExternalMemory
  output soc_bus_pkg::bus_req_t ext_req_o,
  output logic [15:0]           ext_now_o,
  input  soc_bus_pkg::bus_rsp_t ext_rsp_i,
  input  logic                  ext_rvalid_i,
  input  logic [31:0]           dcache_hits_i,
  input  logic [31:0]           dcache_misses_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // SDRAM pins (the board makes DQ bidirectional and feeds the chip ~clk).
  output soc_bus_pkg::sdram_pins_t sdram_o,
  /* verilator lint_off UNUSEDSIGNAL */  // read only with SdramBytes, and Litedram
  input  logic [15:0]          sdram_dq_i,
  // LiteDRAM's user port and control bus, used with Litedram.
  input  logic                 dram_clk_i,     // its user_clk
  input  logic                 dram_rst_ni,    // !user_rst
  output soc_bus_pkg::dram_native_req_t dram_native_o,
  input  soc_bus_pkg::dram_native_rsp_t dram_native_i,
  output soc_bus_pkg::dram_wb_req_t     dram_wb_o,
  input  soc_bus_pkg::dram_wb_rsp_t     dram_wb_i
  /* verilator lint_on UNUSEDSIGNAL */
);

  // Peripheral windows in address order (see regmap.toml).
  localparam int unsigned NumPeriph = 5;
  // The array's geometry, from its configuration (0 banks: none).
  localparam int unsigned UcmBanks = ucm_arrays_pkg::banks(UcmArray);

  if (UcmArray > ucm_arrays_pkg::UCM_ARRAY_COUNT) begin : g_bad_array
    $fatal(1, "soc_top: UcmArray = %0d names no configuration of arrays.toml (0..%0d)", UcmArray,
           ucm_arrays_pkg::UCM_ARRAY_COUNT);
  end

  logic [31:0] ibus_addr, ibus_rdata;
  logic        ibus_err, ibus_hold, ibus_valid;
  /* verilator lint_off UNUSEDSIGNAL */  // read only with SdramBytes
  logic        fence_i, icache_fetch;
  logic [31:0] icache_addr;
  /* verilator lint_on UNUSEDSIGNAL */
  logic        icache_hit;
  logic [31:0] icache_rdata;
  soc_bus_pkg::bus_req_t    core_ext_req;  // the core's access to external memory, before the arbiter
  logic        core_ext_rvalid;
  soc_bus_pkg::bus_req_t    dbus_req;
  soc_bus_pkg::bus_rsp_t    dbus_rsp;
  logic        dbus_kill, dbus_rvalid;
  soc_bus_pkg::bus_req_t    ext_req;
  soc_bus_pkg::bus_rsp_t    ext_rsp;
  logic        ext_rvalid;
  logic [31:0] dcache_hits, dcache_misses;
  logic [31:0] rom_a_addr, rom_a_rdata, rom_b_addr, rom_b_rdata;
  logic [31:0] ram_a_addr, ram_a_rdata, ram_b_rdata, ram_port_rdata;
  soc_bus_pkg::bus_req_t    ram_b_req;
  logic        ram_b_rd;
  soc_bus_pkg::bus_req_t uart_req, timer_req, gpio_req, sysctl_req;
  /* verilator lint_off UNUSEDSIGNAL */  // only req without Litedram
  soc_bus_pkg::bus_req_t dramctl_req;
  /* verilator lint_on UNUSEDSIGNAL */
  soc_bus_pkg::bus_rsp_t uart_rsp, timer_rsp, gpio_rsp, sysctl_rsp, dramctl_rsp;
  soc_bus_pkg::bus_req_t array_req, array_req_next;
  soc_bus_pkg::bus_rsp_t array_rsp;
  logic        timer_irq, ext_irq, uart_irq, gpio_irq, ucm_irq;
  logic [63:0] mtime;

  cpu_core u_core (
    .clk_i,
    .rst_ni,
    .boot_addr_i,
    .ibus_addr_o  (ibus_addr),
    .ibus_hold_o  (ibus_hold),
    .ibus_rdata_i (ibus_rdata),
    .ibus_valid_i (ibus_valid),
    .ibus_err_i   (ibus_err),
    .fence_i_o    (fence_i),
    .dbus_req_o   (dbus_req.req),
    .dbus_kill_o  (dbus_kill),
    .dbus_we_o    (dbus_req.we),
    .dbus_be_o    (dbus_req.be),
    .dbus_addr_o  (dbus_req.addr),
    .dbus_wdata_o (dbus_req.wdata),
    .dbus_rvalid_i (dbus_rvalid),
    .dbus_rdata_i (dbus_rsp.rdata),
    .dbus_err_i   (dbus_rsp.err),
    .timer_irq_i  (timer_irq),
    .ext_irq_i    (ext_irq),
    .time_i       (mtime)
  );

  soc_xbar #(
    .RomBytes  (RomBytes),
    .RamBytes  (RamBytes),
    .NumPeriph (NumPeriph),
    .HasArray  (UcmBanks != 0),
    .ExtBytes  (SdramBytes),
    .HasMvu    (Mvu)
  ) u_xbar (
    .clk_i,
    .rst_ni,
    .ibus_addr_i   (ibus_addr),
    .ibus_hold_i   (ibus_hold),
    .ibus_rdata_o  (ibus_rdata),
    .ibus_valid_o  (ibus_valid),
    .ibus_err_o    (ibus_err),
    .dbus_req_i    (dbus_req),
    .dbus_kill_i   (dbus_kill),
    .dbus_rsp_o    (dbus_rsp),
    .dbus_rvalid_o (dbus_rvalid),
    .rom_a_addr_o  (rom_a_addr),
    .rom_a_rdata_i (rom_a_rdata),
    .rom_b_addr_o  (rom_b_addr),
    .rom_b_rdata_i (rom_b_rdata),
    .ram_a_addr_o  (ram_a_addr),
    .ram_a_rdata_i (ram_a_rdata),
    .icache_fetch_o (icache_fetch),
    .icache_addr_o  (icache_addr),
    .icache_rdata_i (icache_rdata),
    .icache_hit_i   (icache_hit),
    .ram_b_req_o   (ram_b_req),
    .ram_b_rd_o    (ram_b_rd),
    .ram_b_rdata_i (ram_b_rdata),
    .periph_req_o  ({dramctl_req, sysctl_req, gpio_req, timer_req, uart_req}),
    .periph_rsp_i  ({dramctl_rsp, sysctl_rsp, gpio_rsp, timer_rsp, uart_rsp}),
    .array_req_o   (array_req),
    .array_req_next_o (array_req_next),
    .array_rsp_i   (array_rsp),
    .ext_req_o     (core_ext_req),
    .ext_rsp_i     (ext_rsp),
    .ext_rvalid_i  (core_ext_rvalid)
  );

  localparam int unsigned RomAw = $clog2(RomBytes / 4);
  localparam int unsigned RamAw = $clog2(RamBytes / 4);

  soc_ram #(.Bytes(RomBytes), .BaseAddr(soc_regs_pkg::ROM_BASE), .InitFile(RomInit)) u_rom (
    .clk_i,
    .a_en_i    (!ibus_hold),
    .a_addr_i  (rom_a_addr[RomAw+1:2]),
    .a_rdata_o (rom_a_rdata),
    .b_req_i   (1'b1),
    .b_we_i    (1'b0),
    .b_be_i    (4'b0),
    .b_addr_i  (rom_b_addr[RomAw+1:2]),
    .b_wdata_i ('0),
    .b_rdata_o (rom_b_rdata)
  );

  logic             ram_port_req, ram_port_we;
  logic [3:0]       ram_port_be;
  logic [RamAw-1:0] ram_port_addr;
  logic [31:0]      ram_port_wdata;

  ram_store_buffer #(.AddrW(RamAw)) u_ram_sb (
    .clk_i,
    .rst_ni,
    .req_i       (ram_b_req),
    .rd_i        (ram_b_rd),
    .rdata_o     (ram_b_rdata),
    .ram_req_o   (ram_port_req),
    .ram_we_o    (ram_port_we),
    .ram_be_o    (ram_port_be),
    .ram_addr_o  (ram_port_addr),
    .ram_wdata_o (ram_port_wdata),
    .ram_rdata_i (ram_port_rdata)
  );

  soc_ram #(.Bytes(RamBytes), .BaseAddr(soc_regs_pkg::RAM_BASE), .InitFile(RamInit)) u_ram (
    .clk_i,
    .a_en_i    (!ibus_hold),
    .a_addr_i  (ram_a_addr[RamAw+1:2]),
    .a_rdata_o (ram_a_rdata),
    .b_req_i   (ram_port_req),
    .b_we_i    (ram_port_we),
    .b_be_i    (ram_port_be),
    .b_addr_i  (ram_port_addr),
    .b_wdata_i (ram_port_wdata),
    .b_rdata_o (ram_port_rdata)
  );

  uart #(.DivisorDefault(16'(ClkHz / Baud))) u_uart (
    .clk_i,
    .rst_ni,
    .req_i (uart_req),
    .rsp_o (uart_rsp),
    .rx_i  (uart_rx_i),
    .tx_o  (uart_tx_o),
    .rts_no (uart_rts_no),
    .irq_o (uart_irq)
  );

  timer u_timer (
    .clk_i,
    .rst_ni,
    .req_i (timer_req),
    .rsp_o (timer_rsp),
    .mtime_o (mtime),
    .irq_o   (timer_irq)
  );

  gpio #(.Width(GpioWidth)) u_gpio (
    .clk_i,
    .rst_ni,
    .req_i (gpio_req),
    .rsp_o (gpio_rsp),
    .gpio_i,
    .gpio_o,
    .irq_o  (gpio_irq)
  );

  sysctl #(
    .ClkHz    (ClkHz),
    .Baud     (Baud),
    .RamBytes (RamBytes),
    .RomBytes (RomBytes),
    .ExtBytes (SdramBytes),
    .DcacheLineBytes (SdramBytes != 0 ? DcacheLineBytes : 0),
    .Features ({27'b0, SdramBytes != 0 && Mvu, SdramBytes != 0 && Litedram, SdramBytes != 0, UcmBanks != 0, Sim})
  ) u_sysctl (
    .clk_i,
    .rst_ni,
    .req_i (sysctl_req),
    .rsp_o (sysctl_rsp),
    .snoop_i       (dbus_req),
    .dcache_hits_i   (dcache_hits),
    .dcache_misses_i (dcache_misses),
    .tohost_addr_i,
    .irq_sources_i ({ucm_irq, gpio_irq, uart_irq}),
    .ext_irq_o     (ext_irq),
    .exit_valid_o,
    .exit_code_o
  );

  if (SdramBytes != 0 && Litedram && !ExternalMemory) begin : g_dramctl
    dramctl #(.PhyModel(LitedramModel)) u_dramctl (
      .clk_i,
      .rst_ni,
      .req_i (dramctl_req),
      .rsp_o (dramctl_rsp),
      .dram_clk_i,
      .dram_rst_ni,
      .dram_wb_o,
      .dram_wb_i
    );
  end else begin : g_no_dramctl
    // Every access to the window is an error.
    assign dramctl_rsp = {32'b0, dramctl_req.req};  // rdata, err
    assign dram_wb_o   = '0;
  end

  assign array_req_o = array_req_next;
  if (UcmBanks != 0 && !ExternalArray) begin : g_array
    ucm_block #(
      .Banks    (UcmBanks),
      .Slots    (ucm_arrays_pkg::slots(UcmArray)),
      .Dim      (ucm_arrays_pkg::dim(UcmArray)),
      .CellBits (ucm_arrays_pkg::cell_bits(UcmArray)),
      .QBits    (ucm_arrays_pkg::q_bits(UcmArray)),
      .AdcBits  (ucm_arrays_pkg::adc_bits(UcmArray)),
      .AdcCount (ucm_arrays_pkg::adc_count(UcmArray)),
      .Lanes    (ucm_arrays_pkg::lanes(UcmArray))
    ) u_array (
      .clk_i,
      .rst_ni,
      .req_i (array_req),
      .rsp_o (array_rsp),
      .irq_o (ucm_irq)
    );
  end else if (UcmBanks != 0) begin : g_external_array
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        array_rsp <= '0;
        ucm_irq   <= 1'b0;
      end else begin
        array_rsp <= array_rsp_i;
        ucm_irq   <= array_irq_i;
      end
    end
  end else begin : g_no_array
    assign array_rsp = '0;  // the bus decoder answers the region with errors
    assign ucm_irq   = 1'b0;
  end

  if (SdramBytes != 0) begin : g_sdram
    logic [15:0] now_q;  // the controller's time base (refreshes)
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) now_q <= '0;
      else         now_q <= now_q + 1'b1;
    end
    assign ext_now_o = now_q;

    soc_bus_pkg::bus_req_t fill_req;
    logic                  fill_gnt, fill_rvalid;
    icache #(
      .SizeBytes (IcacheBytes),
      .LineBytes (DcacheLineBytes),
      .AddrW     ($clog2(SdramBytes / 4))
    ) u_icache (
      .clk_i,
      .rst_ni,
      .fetch_i      (icache_fetch),
      .fetch_addr_i (icache_addr),
      .rdata_o      (icache_rdata),
      .hit_o        (icache_hit),
      .inval_i      (fence_i),
      .mem_req_o    (fill_req),
      .mem_gnt_i    (fill_gnt),
      .mem_rvalid_i (fill_rvalid),
      .mem_rdata_i  (ext_rsp.rdata)
    );

    ext_arbiter u_ext_arbiter (
      .clk_i,
      .rst_ni,
      .core_req_i    (core_ext_req),
      .core_rvalid_o (core_ext_rvalid),
      .fill_req_i    (fill_req),
      .fill_gnt_o    (fill_gnt),
      .fill_rvalid_o (fill_rvalid),
      .mem_req_o     (ext_req),
      .mem_rvalid_i  (ext_rvalid)
    );
  end else begin : g_no_ext
    assign ext_now_o       = '0;
    assign icache_rdata    = '0;
    assign icache_hit      = 1'b0;  // never asked: the region is unmapped
    assign ext_req         = core_ext_req;
    assign core_ext_rvalid = ext_rvalid;
  end
  assign ext_req_o    = ext_req;

  if (SdramBytes != 0 && !ExternalMemory) begin : g_sdram_mem
    ext_mem #(
      .ClkHz           (ClkHz),
      .SdramBytes      (SdramBytes),
      .SdramCasLatency (SdramCasLatency),
      .DcacheBytes     (DcacheBytes),
      .DcacheLineBytes (DcacheLineBytes),
      .Litedram        (Litedram),
      .Mvu             (Mvu)
    ) u_ext_mem (
      .clk_i,
      .rst_ni,
      .now_i         (ext_now_o),
      .req_i         (ext_req),
      .rsp_o         (ext_rsp),
      .rvalid_o      (ext_rvalid),
      .hits_o        (dcache_hits),
      .misses_o      (dcache_misses),
      .sdram_o,
      .sdram_dq_i,
      .dram_clk_i,
      .dram_rst_ni,
      .dram_native_o,
      .dram_native_i
    );
  end else begin : g_no_sdram_mem
    assign dram_native_o = '0;
    if (SdramBytes != 0) begin : g_external_memory
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          ext_rsp       <= '0;
          ext_rvalid    <= 1'b0;
          dcache_hits   <= '0;
          dcache_misses <= '0;
        end else begin
          ext_rsp       <= ext_rsp_i;
          ext_rvalid    <= ext_rvalid_i;
          dcache_hits   <= dcache_hits_i;
          dcache_misses <= dcache_misses_i;
        end
      end
    end else begin : g_no_memory
      assign ext_rsp       = '0;
      assign ext_rvalid    = 1'b0;  // never asked: the region is unmapped
      assign dcache_hits   = '0;
      assign dcache_misses = '0;
    end
    assign sdram_o = soc_bus_pkg::SdramIdle;
  end

endmodule : soc_top
