// Bus unit test: soc_xbar routes every address to the right device (or an
// error), answers every request on the next cycle, keeps the ROM read-only,
// hands the array its registered request with the region offset, routes
// fetches only to ROM and RAM, lets a withdrawn (killed) request reach
// no device, holds the answer to an external-memory access (rvalid low,
// its routing kept) until that device answers, and passes cache
// maintenance (a store of no bytes) to external memory alone.
`timescale 1ns/1ps
module tb_xbar;
  import soc_bus_pkg::*;
  import soc_regs_pkg::*;
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 60;  // a run makes 60

  localparam int unsigned RomBytes = 1024, RamBytes = 4096, NumPeriph = 4, ExtBytes = 4096;
  logic clk = 0, rst_n = 0;
  bus_req_t req = '0;
  bus_rsp_t rsp;
  logic kill = 1'b0, ram_b_rd;
  logic [31:0] iaddr = '0, irdata;
  logic ierr, ihold = 1'b0, ivalid;
  // The instruction cache: its word is 0xF, its offset; hit as set here.
  logic icache_fetch, icache_hit = 1'b1;
  logic [31:0] icache_addr, icache_addr_q = '0;
  always_ff @(posedge clk) if (icache_fetch) icache_addr_q <= icache_addr;
  logic [31:0] rom_a_addr, rom_b_addr, ram_a_addr;
  bus_req_t ram_b_req;
  bus_req_t periph_req [NumPeriph];
  bus_rsp_t periph_rsp [NumPeriph];
  logic [NumPeriph*BusReqW-1:0] periph_req_flat;
  logic [NumPeriph*BusRspW-1:0] periph_rsp_flat;
  int unsigned periph_hits [NumPeriph];
  bus_req_t array_req;
  bus_rsp_t array_rsp;
  bus_req_t ext_req;
  bus_rsp_t ext_rsp;
  logic rvalid, ext_rvalid;

  always #5 clk = ~clk;

  soc_xbar #(.RomBytes(RomBytes), .RamBytes(RamBytes), .NumPeriph(NumPeriph), .ExtBytes(ExtBytes)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .ibus_addr_i(iaddr), .ibus_hold_i(ihold), .ibus_rdata_o(irdata), .ibus_valid_o(ivalid), .ibus_err_o(ierr),
    .dbus_req_i(req), .dbus_kill_i(kill), .dbus_rsp_o(rsp), .dbus_rvalid_o(rvalid),
    .rom_a_addr_o(rom_a_addr), .rom_a_rdata_i(32'hA000_0000 | rom_a_addr_q),
    .rom_b_addr_o(rom_b_addr), .rom_b_rdata_i(32'hB000_0000 | rom_b_addr_q),
    .ram_a_addr_o(ram_a_addr), .ram_a_rdata_i(32'hC000_0000 | ram_a_addr_q),
    .icache_fetch_o(icache_fetch), .icache_addr_o(icache_addr),
    .icache_rdata_i(32'hF000_0000 | icache_addr_q), .icache_hit_i(icache_hit),
    .ram_b_req_o(ram_b_req), .ram_b_rd_o(ram_b_rd), .ram_b_rdata_i(ram_b_rdata_q),
    .periph_req_o(periph_req_flat), .periph_rsp_i(periph_rsp_flat),
    .array_req_o(array_req), .array_rsp_i(array_rsp),
    .ext_req_o(ext_req), .ext_rsp_i(ext_rsp), .ext_rvalid_i(ext_rvalid)
  );
  // External memory takes the request as it is issued and answers
  // EXT_DELAY cycles after (0: in the next cycle, like a cache hit): 0x9,
  // its offset, err for offset 0xFFC; stores are recorded.
  int unsigned ext_delay = 3, ext_hits, ext_countdown;
  logic [31:0] ext_addr_q, ext_last_write;
  function automatic bus_rsp_t ext_answer(logic [31:0] offset);
    return '{rdata: 32'h9000_0000 | offset, err: offset == 32'hFFC};
  endfunction
  always_ff @(posedge clk) begin
    ext_rvalid <= 1'b0;
    if (ext_req.req) begin
      ext_hits++;
      ext_addr_q    <= ext_req.addr;
      ext_countdown <= ext_delay;
      if (ext_req.we) ext_last_write <= ext_req.wdata;
      if (ext_delay == 0) begin
        ext_rvalid <= 1'b1;
        ext_rsp    <= ext_answer(ext_req.addr);
      end
    end else if (ext_countdown != 0) begin
      ext_countdown <= ext_countdown - 1;
      if (ext_countdown == 1) begin
        ext_rvalid <= 1'b1;
        ext_rsp    <= ext_answer(ext_addr_q);
      end
    end
  end

  // An access the way the core makes it: the request for one cycle, then
  // nothing until rvalid; returns the cycles waited.
  task automatic ext_access(input logic we, input logic [31:0] addr, input logic [31:0] wdata,
                            output logic [31:0] rdata, output logic err, output int unsigned waited);
    @(negedge clk);
    req = '{req: 1'b1, we: we, be: 4'hf, addr: addr, wdata: wdata};
    @(negedge clk);
    req = '0;
    waited = 0;
    while (!rvalid) begin
      @(negedge clk);
      waited++;
    end
    rdata = rsp.rdata;
    err   = rsp.err;
  endtask
  // The array answers like a peripheral: 0xF, its offset, err for offset 0xFFFC.
  assign array_rsp = '{rdata: 32'hF000_0000 | array_req.addr,
                       err: array_req.req && array_req.addr[15:0] == 16'hFFFC};

  // Device models: memories echo their (registered) offset, peripherals
  // answer with their index and offset; RAM writes are recorded.
  logic [31:0] rom_a_addr_q, rom_b_addr_q, ram_a_addr_q, ram_b_rdata_q, ram_last_write;
  int unsigned array_hits;
  always_ff @(posedge clk) begin
    if (array_req.req) array_hits++;
    if (!ihold) rom_a_addr_q <= rom_a_addr;  // like soc_ram's a_en_i
    rom_b_addr_q  <= rom_b_addr;
    if (!ihold) ram_a_addr_q <= ram_a_addr;
    ram_b_rdata_q <= 32'hD000_0000 | ram_b_req.addr;
    if (ram_b_req.req && ram_b_req.we) ram_last_write <= ram_b_req.wdata;
  end
  for (genvar i = 0; i < NumPeriph; i++) begin : g_periph
    assign periph_req[i] = periph_req_flat[i*BusReqW +: BusReqW];
    assign periph_rsp_flat[i*BusRspW +: BusRspW] = periph_rsp[i];
    // Like the real peripherals: answer the registered request at once.
    assign periph_rsp[i] = '{rdata: 32'hE000_0000 | (i << 16) | periph_req[i].addr, err: 1'b0};
    always_ff @(posedge clk) begin
      if (periph_req[i].req) periph_hits[i]++;
    end
  end

  `include "bus_master.svh"

  task automatic expect_read(input logic [31:0] addr, input logic [31:0] want, input string what);
    logic [31:0] d;
    logic e;
    bus_read(addr, d, e);
    tb_check(!e && d == want, $sformatf("%s: read %08x err %0d, want %08x", what, d, e, want));
  endtask

  task automatic expect_error(input logic we, input logic [31:0] addr, input string what);
    logic [31:0] d;
    logic e;
    bus_access(we, addr, 32'h1234, d, e);
    tb_check(e, what);
  endtask

  task automatic expect_fetch(input logic [31:0] addr, input logic [31:0] want, input logic want_err);
    @(negedge clk);
    iaddr = addr;
    @(negedge clk);
    tb_check(ierr == want_err && (want_err || irdata == want) && ivalid,
             $sformatf("fetch %08x: %08x err %0d valid %0d", addr, irdata, ierr, ivalid));
  endtask

  logic e;
  localparam logic [31:0] cmo_targets [3] = '{ROM_BASE + 32'h40, PERIPH_BASE + 3 * 4096 + 32'h30, ARRAY_BASE + 32'h10};
  initial begin
    tb_check($bits(bus_req_t) == BusReqW && $bits(bus_rsp_t) == BusRspW, "BusReqW/BusRspW match the types");
    repeat (2) @(posedge clk);
    rst_n = 1;

    expect_read(ROM_BASE + 32'h10, 32'hB000_0010, "ROM data read");
    expect_read(ROM_BASE + RomBytes - 4, 32'hB000_0000 | (RomBytes - 4), "last ROM word");
    expect_error(1'b0, ROM_BASE + RomBytes, "just past the ROM");
    expect_error(1'b1, ROM_BASE + 32'h10, "ROM write refused");
    expect_read(RAM_BASE, 32'hD000_0000, "RAM first word");
    expect_read(RAM_BASE + RamBytes - 4, 32'hD000_0000 | (RamBytes - 4), "RAM last word");
    expect_error(1'b0, RAM_BASE + RamBytes, "just past the RAM");
    expect_error(1'b1, RAM_BASE - 4, "just below the RAM");
    bus_write(RAM_BASE + 8, 32'hCAFE_F00D, e);
    tb_check(!e && ram_last_write == 32'hCAFE_F00D, "RAM write");
    for (int i = 0; i < NumPeriph; i++) begin
      expect_read(PERIPH_BASE + 32'(i) * 4096 + 32'h24, 32'hE000_0024 | (i << 16),
                  $sformatf("peripheral %0d", i));
      @(posedge clk);  // the hit is counted at the edge that ends the response cycle
      #1 tb_check(periph_hits[i] == 1, $sformatf("peripheral %0d selected once", i));
    end
    expect_error(1'b0, PERIPH_BASE + NumPeriph * 4096, "past the last peripheral");
    expect_error(1'b0, 32'h0, "address 0");
    expect_error(1'b1, 32'hFFFF_FFFC, "top of the address space");

    // Back-to-back requests to different devices are answered in order.
    @(negedge clk);
    req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: ROM_BASE + 4, wdata: '0};
    @(negedge clk);
    tb_check(rsp.rdata == 32'hB000_0004 && !rsp.err, "pipelined: ROM");
    req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: MVU_BASE, wdata: '0};
    @(negedge clk);
    tb_check(rsp.err, "pipelined: unmapped");
    req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: ARRAY_BASE + 32'h4008, wdata: '0};
    @(negedge clk);
    tb_check(rsp.rdata == 32'hF000_4008 && !rsp.err, "pipelined: array at its offset");
    req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: ARRAY_BASE + 32'hFFFC, wdata: '0};
    @(negedge clk);
    tb_check(rsp.err, "pipelined: the array's error passes through");
    req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: ARRAY_BASE + ARRAY_SIZE, wdata: '0};
    @(negedge clk);
    tb_check(rsp.err, "pipelined: past the array region");
    req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: PERIPH_BASE + 4096 + 8, wdata: '0};
    @(negedge clk);
    tb_check(rsp.rdata == 32'hE001_0008 && !rsp.err, "pipelined: peripheral 1");
    req = '0;

    // Killed requests: the RAM's port may read (rd), but nothing is accepted.
    begin
      int unsigned hits_before, array_before;
      hits_before  = periph_hits[2];
      array_before = array_hits;
      @(negedge clk);
      kill = 1'b1;
      req = '{req: 1'b1, we: 1'b1, be: 4'hf, addr: RAM_BASE + 32'h20, wdata: 32'h1111_2222};
      #1 tb_check(!ram_b_req.req && !ram_b_rd, "killed RAM store: not accepted, no read");
      @(negedge clk);
      req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: RAM_BASE + 32'h24, wdata: '0};
      #1 tb_check(!ram_b_req.req && ram_b_rd, "killed RAM load: the port may read, not accepted");
      @(negedge clk);
      req = '{req: 1'b1, we: 1'b1, be: 4'hf, addr: PERIPH_BASE + 2 * 4096 + 4, wdata: 32'h5};
      @(negedge clk);
      req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: ARRAY_BASE + 32'h10, wdata: '0};
      @(negedge clk);
      req = '{req: 1'b1, we: 1'b0, be: 4'hf, addr: MVU_BASE, wdata: '0};
      @(negedge clk);
      tb_check(!rsp.err, "killed unmapped access: no error");
      req = '0;
      kill = 1'b0;
      repeat (2) @(negedge clk);
      tb_check(periph_hits[2] == hits_before, "killed peripheral write reaches nobody");
      tb_check(array_hits == array_before, "killed array read reaches nobody");
    end

    // External memory: the answer waits for the device, routed to it alone.
    begin
      logic [31:0] d;
      logic err;
      int unsigned waited;
      tb_check(rvalid, "rvalid high with nothing pending");
      for (int delay = 0; delay <= 4; delay++) begin
        ext_delay = delay;
        ext_access(1'b0, EXT_BASE + 32'h40 + 32'(delay) * 4, '0, d, err, waited);
        // The device sees the request as it is issued and answers from a
        // register: DELAY cycles past the one-cycle answer.
        tb_check(!err && d == (32'h9000_0040 + 32'(delay) * 4) && waited == 32'(delay),
                 $sformatf("external read after %0d cycles: %08x err %0d waited %0d", delay, d, err, waited));
      end
      ext_access(1'b1, EXT_BASE + 32'h80, 32'h5EED_0001, d, err, waited);
      tb_check(!err && ext_last_write == 32'h5EED_0001, "external write");
      ext_access(1'b0, EXT_BASE + 32'hFFC, '0, d, err, waited);
      tb_check(err, "the device's error passes through");
      expect_error(1'b0, EXT_BASE + ExtBytes, "just past external memory");
      // Back to back: ROM right after an external answer.
      expect_read(ROM_BASE + 32'h8, 32'hB000_0008, "ROM after external memory");
      tb_check(ext_hits == 7, $sformatf("external memory asked %0d times", ext_hits));
    end

    // Cache maintenance (a store of no bytes): only external memory sees it;
    // ROM, peripherals and the array answer at once; unmapped is an error.
    begin
      int unsigned periph_before, array_before, ext_before;
      periph_before = periph_hits[3];
      array_before  = array_hits;
      ext_before    = ext_hits;
      foreach (cmo_targets[i]) begin
        @(negedge clk);
        req = '{req: 1'b1, we: 1'b1, be: 4'h0, addr: cmo_targets[i], wdata: 32'd2};
        @(negedge clk);
        req = '0;
        tb_check(rvalid && !rsp.err, $sformatf("maintenance at %08x done at once", cmo_targets[i]));
      end
      repeat (2) @(negedge clk);
      tb_check(periph_hits[3] == periph_before && array_hits == array_before && ext_hits == ext_before,
               "maintenance reaches no peripheral, the array or memory that caches nothing");
      ext_delay = 1;
      @(negedge clk);
      req = '{req: 1'b1, we: 1'b1, be: 4'h0, addr: EXT_BASE + 32'h100, wdata: 32'd1};
      @(negedge clk);
      req = '0;
      tb_check(!rvalid, "maintenance in external memory waits for it");
      @(negedge clk);
      tb_check(rvalid && ext_hits == ext_before + 1, "maintenance reaches external memory");
      @(negedge clk);
      req = '{req: 1'b1, we: 1'b1, be: 4'h0, addr: MVU_BASE, wdata: 32'd1};
      @(negedge clk);
      req = '0;
      tb_check(rsp.err, "maintenance where nothing is mapped");
    end

    expect_fetch(ROM_BASE + 32'h20, 32'hA000_0020, 1'b0);
    expect_fetch(RAM_BASE + 32'h40, 32'hC000_0040, 1'b0);
    expect_fetch(EXT_BASE + 32'h80, 32'hF000_0080, 1'b0);  // through the instruction cache
    expect_fetch(EXT_BASE + ExtBytes, 32'h0, 1'b1);
    icache_hit = 1'b0;  // a miss: the word is not valid (fetch again); other regions are
    @(negedge clk);
    iaddr = EXT_BASE + 32'h84;
    @(negedge clk);
    tb_check(!ivalid && !ierr && icache_addr_q == 32'h84, "a fetch the instruction cache misses");
    expect_fetch(ROM_BASE + 32'h24, 32'hA000_0024, 1'b0);
    icache_hit = 1'b1;
    expect_fetch(PERIPH_BASE, 32'h0, 1'b1);
    expect_fetch(32'h0, 32'h0, 1'b1);
    // Held, the fetch side keeps its last region (the memories keep their word).
    expect_fetch(ROM_BASE + 32'h20, 32'hA000_0020, 1'b0);
    ihold = 1'b1;
    expect_fetch(PERIPH_BASE, 32'hA000_0020, 1'b0);
    ihold = 1'b0;
    tb_finish(MinChecks);
  end
endmodule
