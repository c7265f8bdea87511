// Unit test of the instruction cache and the port it shares with the core
// (ext_arbiter), against a plain array behind the port that answers each
// access after a random delay. Seeded random fetches over four times the
// cache's lines (every index has four candidates), with random holds, go
// on while the core's side loads and stores data words and, now and then,
// patches a code word: the store is answered, then fence.i -- often while a
// fill is under way, whose words may predate the store. Checked: every word
// the cache calls a hit is memory's word at the address fetched (a hold
// keeps the last answer), a fetch repeated until it hits gets there within
// a bound, every load returns memory's word, and no access waits forever.
`timescale 1ns/1ps
module tb_icache;
  import soc_bus_pkg::*;
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 10_000;  // a run makes 10,023

  localparam int unsigned SizeBytes = 512, LineBytes = 32, AddrW = 12;
  localparam int unsigned CodeWords = 4 * SizeBytes / 4;  // code: words 0 .. CodeWords-1
  localparam int unsigned DataBase = 2048;                // data: words DataBase .. +63
  logic clk = 0, rst_n = 0;
  logic fetch = 1'b0, hit, inval = 1'b0;
  logic [31:0] fetch_addr = '0, rdata;
  bus_req_t core_req = '0, fill_req, mem_req;
  logic core_rvalid, fill_gnt, fill_rvalid;
  logic mem_rvalid = 1'b0;
  logic [31:0] mem_rdata = '0;
  logic [31:0] mem [1 << AddrW];

  always #5 clk = ~clk;

  icache #(.SizeBytes(SizeBytes), .LineBytes(LineBytes), .AddrW(AddrW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .fetch_i(fetch), .fetch_addr_i(fetch_addr), .rdata_o(rdata),
    .hit_o(hit), .inval_i(inval), .mem_req_o(fill_req), .mem_gnt_i(fill_gnt),
    .mem_rvalid_i(fill_rvalid), .mem_rdata_i(mem_rdata)
  );
  ext_arbiter u_arbiter (
    .clk_i(clk), .rst_ni(rst_n), .core_req_i(core_req), .core_rvalid_o(core_rvalid),
    .fill_req_i(fill_req), .fill_gnt_o(fill_gnt), .fill_rvalid_o(fill_rvalid),
    .mem_req_o(mem_req), .mem_rvalid_i(mem_rvalid)
  );

  // The memory: a request is answered 1 + 0..3 cycles later (rvalid from a
  // register); reads see the array as it is when they are answered.
  int unsigned mem_wait = 0;
  logic mem_busy = 1'b0, mem_we_q;
  logic [AddrW-1:0] mem_addr_q;
  logic [31:0] mem_wdata_q;
  always_ff @(posedge clk) begin
    mem_rvalid <= 1'b0;
    if (mem_req.req) begin
      tb_check(!mem_busy || mem_rvalid, "a request while the last is unanswered");
      mem_busy    <= 1'b1;
      mem_we_q    <= mem_req.we;
      mem_addr_q  <= mem_req.addr[AddrW+1:2];
      mem_wdata_q <= mem_req.wdata;
      mem_wait    <= $urandom_range(0, 3);
    end else if (mem_busy && !mem_rvalid) begin
      if (mem_wait == 0) begin
        mem_rvalid <= 1'b1;
        mem_busy   <= 1'b0;
        if (mem_we_q) mem[mem_addr_q] <= mem_wdata_q;
        mem_rdata  <= mem[mem_addr_q];
      end else begin
        mem_wait <= mem_wait - 1;
      end
    end
  end

  // The core's data side: one access at a time (core_lock: the two threads
  // below share it), issued at a negedge for one cycle, waited for; returns
  // the word read.
  bit core_lock = 0;
  task automatic core_access(input logic we, input logic [AddrW-1:0] word, input logic [31:0] wdata,
                             output logic [31:0] got);
    int unsigned waited = 0;
    @(negedge clk);
    while (core_lock) @(negedge clk);
    core_lock = 1;
    core_req = '{req: 1'b1, we: we, be: 4'hF, addr: 32'(word) << 2, wdata: wdata};
    @(negedge clk);
    core_req.req = 1'b0;
    while (!core_rvalid && waited < 200) begin
      @(negedge clk);
      waited++;
    end
    tb_check(waited < 200, $sformatf("core access to word %0d never answered", word));
    got = mem_rdata;
    core_lock = 0;
  endtask

  // The fetch side: addresses from the code words, held at random; a hit is
  // checked against memory, and each address is fetched until it hits.
  int unsigned hits_seen = 0, checks = 0;
  task automatic fetch_until_hit(input logic [AddrW-1:0] word);
    int unsigned tries = 0;
    do begin
      @(negedge clk);
      fetch      = 1'b1;
      fetch_addr = 32'(word) << 2;
      @(negedge clk);
      fetch = 1'b0;
      if ($urandom_range(0, 3) == 0) repeat ($urandom_range(1, 3)) @(negedge clk);  // held: the answer stays
      tries++;
    end while (!hit && tries < 100);
    tb_check(hit, $sformatf("fetch of word %0d never hit", word));
    tb_check(rdata == mem[word], $sformatf("fetch of word %0d: %08x, memory %08x", word, rdata, mem[word]));
    hits_seen++;
  endtask

  initial begin
    for (int i = 0; i < (1 << AddrW); i++) mem[i] = $urandom;
    repeat (2) @(posedge clk);
    rst_n = 1;
    fork
      // Code: runs of sequential words from random lines; now and then a
      // fetch that is not followed (a wrong path: it starts a fill), a
      // patch of a word of that line and fence.i, then the patched word.
      begin
        logic [31:0] got;
        logic [AddrW-1:0] w;
        for (int n = 0; n < 400; n++) begin
          w = AddrW'($urandom_range(0, CodeWords - 1));
          if ($urandom_range(0, 3) == 0) begin
            @(negedge clk);
            fetch      = 1'b1;
            fetch_addr = 32'(w) << 2;
            @(negedge clk);
            fetch = 1'b0;
            repeat ($urandom_range(0, 4)) @(negedge clk);
            core_access(1'b1, w, $urandom, got);
            inval = 1'b1;
            @(negedge clk);
            inval = 1'b0;
          end
          for (int k = 0; k < $urandom_range(1, 12); k++) fetch_until_hit(AddrW'((w + k) % CodeWords));
        end
      end
      // Data: loads and stores.
      begin
        logic [31:0] got;
        logic [AddrW-1:0] w;
        for (int n = 0; n < 600; n++) begin
          w = AddrW'(DataBase + $urandom_range(0, 63));
          if ($urandom_range(0, 1) == 0) begin
            core_access(1'b1, w, $urandom, got);
          end else begin
            core_access(1'b0, w, '0, got);
            tb_check(got == mem[w], $sformatf("load of word %0d: %08x, memory %08x", w, got, mem[w]));
          end
          repeat ($urandom_range(0, 6)) @(negedge clk);
        end
      end
    join
    tb_check(hits_seen > 1000, $sformatf("only %0d fetches", hits_seen));
    tb_finish(MinChecks);
  end
endmodule
