// Unit test of ram_store_buffer in front of soc_ram: a seeded random stream
// of loads, stores (every byte mask the core makes), withdrawn accesses and
// idle cycles, checked against a plain array after every load -- loads right
// behind the stores they read included -- and, at the end, the RAM itself is
// compared word by word after the buffer has drained.
`timescale 1ns/1ps
module tb_store_buffer;
  import soc_bus_pkg::*;
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 7_500;  // a run makes 7,981

  localparam int unsigned Words = 16, AddrW = 4;  // few words: many address matches
  logic clk = 0, rst_n = 0;
  bus_req_t req = '0;
  logic rd = 1'b0;
  logic [31:0] rdata, ram_rdata, ram_wdata;
  logic ram_req, ram_we;
  logic [3:0] ram_be;
  logic [AddrW-1:0] ram_addr;
  logic [31:0] model [Words];

  always #5 clk = ~clk;

  ram_store_buffer #(.AddrW(AddrW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .req_i(req), .rd_i(rd), .rdata_o(rdata),
    .ram_req_o(ram_req), .ram_we_o(ram_we), .ram_be_o(ram_be), .ram_addr_o(ram_addr),
    .ram_wdata_o(ram_wdata), .ram_rdata_i(ram_rdata)
  );
  soc_ram #(.Bytes(Words * 4)) u_ram (
    .clk_i(clk), .a_en_i(1'b0), .a_addr_i('0), .a_rdata_o(),
    .b_req_i(ram_req), .b_we_i(ram_we), .b_be_i(ram_be), .b_addr_i(ram_addr),
    .b_wdata_i(ram_wdata), .b_rdata_o(ram_rdata)
  );

  int unsigned loads = 0, forwarded = 0;
  initial begin
    logic [31:0] expected;
    int unsigned word, kind;
    for (int i = 0; i < Words; i++) begin
      u_ram.mem_q[i] = 32'h0101_0101 * i;
      model[i] = 32'h0101_0101 * i;
    end
    repeat (2) @(posedge clk);
    rst_n = 1;
    for (int n = 0; n < 20000; n++) begin
      @(negedge clk);
      word = $urandom_range(Words - 1);
      kind = $urandom_range(9);
      req = '0;
      rd  = 1'b0;
      req.addr = 32'(word * 4);
      if (kind < 4) begin  // store: word, halfword or byte, like the core
        logic [3:0] be;
        logic [31:0] data;
        be   = (kind == 0) ? 4'hf : (kind == 1) ? 4'b0011 << (2 * $urandom_range(1)) :
                                                  4'b0001 << $urandom_range(3);
        data = $urandom;
        req.req = 1'b1; req.we = 1'b1; req.be = be; req.wdata = data;
        for (int b = 0; b < 4; b++) if (be[b]) model[word][8*b +: 8] = data[8*b +: 8];
      end else if (kind < 8) begin  // load, answered next cycle
        req.req = 1'b1; rd = 1'b1;
        expected = model[word];
        if (dut.buf_valid_q && dut.buf_addr_q == AddrW'(word)) forwarded++;
        @(negedge clk);
        req = '0; rd = 1'b0;
        loads++;
        tb_check(rdata == expected, $sformatf("load %0d word %0d: %08x, want %08x", n, word, rdata, expected));
      end else if (kind == 8) begin  // withdrawn store: the bus never accepts it
        req.we = 1'b1; req.be = 4'hf; req.wdata = $urandom;
      end else begin  // withdrawn or foreign load: the port reads, nothing accepted
        rd = 1'b1;
      end
    end
    @(negedge clk);
    req = '0; rd = 1'b0;
    repeat (2) @(negedge clk);
    tb_check(!dut.buf_valid_q, "the buffer drains in a cycle without a load");
    for (int i = 0; i < Words; i++)
      tb_check(u_ram.mem_q[i] == model[i], $sformatf("RAM word %0d: %08x, want %08x", i, u_ram.mem_q[i], model[i]));
    tb_check(loads > 5000 && forwarded > 100, $sformatf("coverage: %0d loads, %0d from the buffer", loads, forwarded));
    tb_finish(MinChecks);
  end
endmodule
