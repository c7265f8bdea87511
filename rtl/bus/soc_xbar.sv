// Address decoder and response router between the core's two buses and the
// devices. Instructions come from ROM or RAM (port A of each) or, through
// the instruction cache, external memory; data goes to
// ROM (read only), RAM (port B), one of the peripheral windows, the UniCAIM
// array's region or external memory. An access that hits nothing, or writes
// the ROM, is answered with an error.
// External memory gets the request as the core issues it (its cache looks
// the tag up in that cycle) and answers when it can: until ext_rvalid_i the
// core sees dbus_rvalid_o low and holds, making no request (one access at a
// time); every other device answers the next cycle. The matrix-vector
// unit's region (MVU) goes the same way, its address XORed with EXT_BASE
// like memory's (so above any memory offset): the unit sits beside the
// cache, on the memory's port.
// Peripherals get the request registered here and answer combinationally in
// the next cycle -- the same one-cycle latency as the block RAMs, which
// register their address internally -- so no peripheral logic sits behind
// the core's address adder. A request the core withdraws in its cycle (kill)
// reaches no device; the RAM's port may still read for it (ram_b_rd_o),
// which is why stores reach the RAM through ram_store_buffer.
module soc_xbar
#(
  parameter int unsigned RomBytes,
  parameter int unsigned RamBytes,
  parameter int unsigned NumPeriph = 4,
  parameter bit          HasArray  = 1'b1, // the ARRAY region answers
  parameter int unsigned ExtBytes,         // external memory at EXT_BASE (0: none)
  parameter bit          HasMvu    = 1'b0    // the MVU region answers (beside external memory, on its port)
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Core side.
  input  logic [31:0] ibus_addr_i,
  input  logic        ibus_hold_i,   // keep the last answer (the memories skip the read)
  output logic [31:0] ibus_rdata_o,
  output logic        ibus_valid_o,
  output logic        ibus_err_o,
  input  soc_bus_pkg::bus_req_t    dbus_req_i,
  input  logic        dbus_kill_i,
  output soc_bus_pkg::bus_rsp_t    dbus_rsp_o,
  output logic        dbus_rvalid_o,   // dbus_rsp_o is the answer to the access in WB

  // Memories: address in bytes within the memory, read data a cycle later.
  output logic [31:0] rom_a_addr_o,
  input  logic [31:0] rom_a_rdata_i,
  output logic [31:0] rom_b_addr_o,
  input  logic [31:0] rom_b_rdata_i,
  output logic [31:0] ram_a_addr_o,
  input  logic [31:0] ram_a_rdata_i,
  output logic        icache_fetch_o,  // the instruction cache reads at icache_addr_o
  output logic [31:0] icache_addr_o,
  input  logic [31:0] icache_rdata_i,
  input  logic        icache_hit_i,
  output soc_bus_pkg::bus_req_t    ram_b_req_o,  // req: accepted for the RAM
  output logic        ram_b_rd_o,                // a load may be under way (early)
  input  logic [31:0] ram_b_rdata_i,

  // Peripherals: window i at PERIPH_BASE + i * 4 KiB; slice i of each vector.
  output logic [NumPeriph*soc_bus_pkg::BusReqW-1:0] periph_req_o,
  input  logic [NumPeriph*soc_bus_pkg::BusRspW-1:0] periph_rsp_i,

  // The array: registered like a peripheral, addr = offset in its region;
  // array_req_next_o is what array_req_o becomes at the next edge (for a
  // simulator model of the array that answers ahead, soc_top ExternalArray).
  output soc_bus_pkg::bus_req_t    array_req_o,
  output soc_bus_pkg::bus_req_t    array_req_next_o,
  input  soc_bus_pkg::bus_rsp_t    array_rsp_i,

  // External memory: the request being issued, unregistered (req in the
  // cycle the core issues it; addr = offset in its region, also without
  // req); it answers in a later cycle with ext_rvalid_i, which must come
  // from a register.
  output soc_bus_pkg::bus_req_t    ext_req_o,
  input  soc_bus_pkg::bus_rsp_t    ext_rsp_i,
  input  logic                     ext_rvalid_i
);

  typedef enum logic [2:0] { SEL_NONE, SEL_ROM, SEL_RAM, SEL_PERIPH, SEL_ARRAY, SEL_EXT } sel_e;

  // Each region's base is aligned to a power of two at least its size, so a
  // hit is an upper-bits match and an offset bound: no subtraction.
  function automatic logic in_region(logic [31:0] addr, logic [31:0] base, int unsigned bytes);
    logic [31:0] window;  // 2^ceil(log2(bytes)) - 1
    window    = (32'(1) << $clog2(bytes)) - 32'(1);
    in_region = ((addr & ~window) == base) && ((addr & window) < bytes);
  endfunction

  localparam int unsigned PeriphIdxW = (NumPeriph > 1) ? $clog2(NumPeriph) : 1;

  // ---------------------------------------------------------------- fetch
  sel_e isel_q;
  logic ifetch_ext;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      isel_q <= SEL_NONE;
    end else if (!ibus_hold_i) begin  // held: the memories keep their word too
      if (in_region(ibus_addr_i, soc_regs_pkg::ROM_BASE, RomBytes))      isel_q <= SEL_ROM;
      else if (in_region(ibus_addr_i, soc_regs_pkg::RAM_BASE, RamBytes)) isel_q <= SEL_RAM;
      else if (ifetch_ext)                                               isel_q <= SEL_EXT;
      else                                                               isel_q <= SEL_NONE;
    end
  end
  assign ifetch_ext     = ExtBytes != 0 && in_region(ibus_addr_i, soc_regs_pkg::EXT_BASE, ExtBytes);
  // Offsets within a region: the bases are aligned, so XOR clears them.
  assign rom_a_addr_o   = ibus_addr_i ^ soc_regs_pkg::ROM_BASE;
  assign ram_a_addr_o   = ibus_addr_i ^ soc_regs_pkg::RAM_BASE;
  assign icache_addr_o  = ibus_addr_i ^ soc_regs_pkg::EXT_BASE;
  assign icache_fetch_o = ifetch_ext && !ibus_hold_i;
  always_comb begin
    unique case (isel_q)
      SEL_ROM: ibus_rdata_o = rom_a_rdata_i;
      SEL_RAM: ibus_rdata_o = ram_a_rdata_i;
      SEL_EXT: ibus_rdata_o = icache_rdata_i;
      default: ibus_rdata_o = 32'h0000_0013;  // nop; err traps
    endcase
  end
  assign ibus_valid_o = isel_q != SEL_EXT || icache_hit_i;
  assign ibus_err_o   = isel_q == SEL_NONE;

  // ---------------------------------------------------------------- data
  sel_e                  dsel, dsel_q;
  logic [PeriphIdxW-1:0] pidx, pidx_q;
  logic                  derr_q;
  logic                  periph_hit, accepted, cmo;

  assign accepted   = dbus_req_i.req && !dbus_kill_i;
  // Cache maintenance (cbo.*: a store of no bytes) acts on the data cache
  // alone; everywhere else it is done at once (ROM and RAM take no bytes,
  // no peripheral or the array sees it), unmapped it is an error.
  assign cmo        = dbus_req_i.we && dbus_req_i.be == 4'b0000;
  assign pidx       = PeriphIdxW'((dbus_req_i.addr ^ soc_regs_pkg::PERIPH_BASE) >> 12);
  assign periph_hit = in_region(dbus_req_i.addr, soc_regs_pkg::PERIPH_BASE, NumPeriph * 4096);

  always_comb begin
    if (in_region(dbus_req_i.addr, soc_regs_pkg::ROM_BASE, RomBytes) && (!dbus_req_i.we || cmo)) dsel = SEL_ROM;
    else if (in_region(dbus_req_i.addr, soc_regs_pkg::RAM_BASE, RamBytes))               dsel = SEL_RAM;
    else if (periph_hit)                                                   dsel = SEL_PERIPH;
    else if (HasArray && in_region(dbus_req_i.addr, soc_regs_pkg::ARRAY_BASE,
                                   soc_regs_pkg::ARRAY_SIZE))              dsel = SEL_ARRAY;
    else if (ExtBytes != 0 && in_region(dbus_req_i.addr, soc_regs_pkg::EXT_BASE, ExtBytes))
                                                                           dsel = SEL_EXT;
    else if (HasMvu && ExtBytes != 0 && in_region(dbus_req_i.addr, soc_regs_pkg::MVU_BASE, soc_regs_pkg::MVU_SIZE))
                                                                           dsel = SEL_EXT;
    else                                                                   dsel = SEL_NONE;
  end

  // An external access is pending until its answer; meanwhile the routing
  // of that answer stays as it was (the core makes no request).
  logic ext_pending_q, ext_wait;
  assign ext_wait      = ext_pending_q && !ext_rvalid_i;
  assign dbus_rvalid_o = !ext_wait;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dsel_q        <= SEL_NONE;
      pidx_q        <= '0;
      derr_q        <= 1'b0;
      ext_pending_q <= 1'b0;
    end else if (!ext_wait) begin
      dsel_q        <= dsel;
      pidx_q        <= pidx;
      derr_q        <= accepted && (dsel == SEL_NONE);
      ext_pending_q <= accepted && (dsel == SEL_EXT);
    end
  end

  assign rom_b_addr_o = dbus_req_i.addr ^ soc_regs_pkg::ROM_BASE;

  always_comb begin
    ram_b_req_o      = dbus_req_i;
    ram_b_req_o.req  = accepted && (dsel == SEL_RAM);
    ram_b_req_o.addr = dbus_req_i.addr ^ soc_regs_pkg::RAM_BASE;
  end
  assign ram_b_rd_o = dbus_req_i.req && !dbus_req_i.we;

  // The registered peripheral request: every peripheral sees it with its
  // window offset; only the selected one sees req.
  soc_bus_pkg::bus_req_t periph_d, periph_idle, periph_selected;
  logic                  periph_req_q, array_req_q;
  logic [15:0]           array_offset_q;
  always_comb begin
    periph_d      = dbus_req_i;
    periph_d.req  = 1'b0;
    periph_d.addr = {20'b0, dbus_req_i.addr[11:0]};
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      periph_req_q   <= 1'b0;
      periph_idle    <= '0;
      array_req_q    <= 1'b0;
      array_offset_q <= '0;
    end else begin
      periph_req_q   <= accepted && (dsel == SEL_PERIPH) && !cmo;
      periph_idle    <= periph_d;
      array_req_q    <= accepted && (dsel == SEL_ARRAY) && !cmo;
      array_offset_q <= dbus_req_i.addr[15:0];
    end
  end
  always_comb begin
    ext_req_o      = dbus_req_i;
    ext_req_o.req  = accepted && (dsel == SEL_EXT);
    ext_req_o.addr = dbus_req_i.addr ^ soc_regs_pkg::EXT_BASE;
  end
  always_comb begin
    array_req_o      = periph_idle;
    array_req_o.req  = array_req_q;
    array_req_o.addr = {16'b0, array_offset_q};
  end
  always_comb begin
    array_req_next_o      = periph_d;
    array_req_next_o.req  = accepted && (dsel == SEL_ARRAY) && !cmo;
    array_req_next_o.addr = {16'b0, dbus_req_i.addr[15:0]};
  end
  always_comb begin
    periph_selected     = periph_idle;
    periph_selected.req = 1'b1;
  end

  for (genvar i = 0; i < NumPeriph; i++) begin : g_periph
    assign periph_req_o[i*soc_bus_pkg::BusReqW +: soc_bus_pkg::BusReqW] =
        (periph_req_q && pidx_q == PeriphIdxW'(i)) ? periph_selected : periph_idle;
  end

  // The memories' words come last in the cycle (block-RAM clock-to-out and
  // the route from far block RAMs), so the devices' answer is chosen first
  // and a memory word passes a single mux.
  soc_bus_pkg::bus_rsp_t device_rsp;
  always_comb begin
    device_rsp.rdata = '0;
    device_rsp.err   = derr_q;
    unique case (dsel_q)
      SEL_PERIPH: device_rsp = periph_rsp_i[pidx_q*soc_bus_pkg::BusRspW +: soc_bus_pkg::BusRspW];
      SEL_ARRAY:  device_rsp = array_rsp_i;
      SEL_EXT:    device_rsp = ext_rsp_i;
      default: ;
    endcase
  end
  always_comb begin
    dbus_rsp_o = device_rsp;
    if (dsel_q == SEL_ROM) dbus_rsp_o.rdata = rom_b_rdata_i;
    if (dsel_q == SEL_RAM) dbus_rsp_o.rdata = ram_b_rdata_i;
  end

endmodule : soc_xbar
