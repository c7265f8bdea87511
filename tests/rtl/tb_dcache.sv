// Unit test of the data cache against a plain array: a seeded random mix of
// loads, stores (every byte mask) and streams word by word (which start the
// prefetcher), over a few lines more than the cache holds at the same
// indices, so victims are clean and dirty, stores land at the index a
// prefetch is filling, and misses wait for prefetches. The memory behind it
// takes commands and words when it pleases and answers reads after a random
// delay with random gaps. Cache maintenance (cbo.inval/clean/flush) comes
// in between: memory must then hold what was written (clean, flush), or
// stay as it was and the line read what it holds (inval). Every load is checked, and every word
// read back at the end; a load hit must be answered in the next cycle.
`timescale 1ns/1ps
module tb_dcache;
  import soc_bus_pkg::*;
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 1_000_000;  // a run makes 1,052,651

  localparam int unsigned SizeBytes = 1024, LineBytes = 32, AddrW = 16;
  localparam int unsigned LineWords = LineBytes / 4, Lines = SizeBytes / LineBytes;
  // The addresses used: four memory regions the size of the cache, so each
  // index has four candidate lines.
  localparam int unsigned SpanWords = 4 * SizeBytes / 4;
  logic clk = 0, rst_n = 0;
  bus_req_t req = '0;
  bus_rsp_t rsp;
  logic rvalid;
  logic [31:0] hits, misses;
  logic cmd_valid, cmd_ready = 1'b0, cmd_we, wdata_ready = 1'b0, rdata_valid = 1'b0;
  logic [AddrW-1:0] cmd_addr;
  logic [3:0] cmd_words_m1, wbe;
  logic [31:0] wdata, rdata = '0;

  always #5 clk = ~clk;

  dcache #(.SizeBytes(SizeBytes), .LineBytes(LineBytes), .AddrW(AddrW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .req_i(req), .rsp_o(rsp), .rvalid_o(rvalid),
    .hits_o(hits), .misses_o(misses),
    .cmd_valid_o(cmd_valid), .cmd_ready_i(cmd_ready), .cmd_we_o(cmd_we), .cmd_addr_o(cmd_addr),
    .cmd_words_m1_o(cmd_words_m1), .wdata_o(wdata), .wbe_o(wbe), .wdata_ready_i(wdata_ready),
    .rdata_i(rdata), .rdata_valid_i(rdata_valid)
  );

  // Memory contents start as a function of the address.
  logic [31:0] memory [SpanWords];
  logic [31:0] model [SpanWords];
  function automatic logic [31:0] initial_word(int unsigned w);
    return 32'h9E37_79B9 * (w + 1);
  endfunction

  // The memory port: a command when ready (random), then write words taken
  // on random cycles, or read words after 2..7 cycles with gaps of 0..2.
  int unsigned commands = 0;
  initial begin
    forever begin
      @(negedge clk);
      cmd_ready = ($urandom % 3) == 0;
      #1;
      if (cmd_valid && cmd_ready) begin  // taken at the next edge
        automatic logic we = cmd_we;
        automatic int unsigned addr = int'(cmd_addr), words = int'(cmd_words_m1) + 1;
        commands++;
        @(negedge clk);
        cmd_ready = 1'b0;
        if (we) begin
          for (int i = 0; i < words;) begin
            wdata_ready = ($urandom % 2) == 0;
            #1;
            if (wdata_ready) begin
              tb_check(wbe == 4'hF, "write-back of whole words");
              memory[(addr + i) % SpanWords] = wdata;
              i++;
            end
            @(negedge clk);
          end
          wdata_ready = 1'b0;
        end else begin
          repeat (1 + $urandom % 6) @(negedge clk);
          for (int i = 0; i < words; i++) begin
            repeat ($urandom % 3) @(negedge clk);
            rdata_valid = 1'b1;
            rdata = memory[(addr + i) % SpanWords];
            @(negedge clk);
            rdata_valid = 1'b0;
          end
        end
      end
    end
  end

  // An access the way the core makes it: the request for one cycle (then the
  // bus shows some other address), then nothing until rvalid. Returns the
  // cycles waited.
  task automatic access(input logic we, input int unsigned word, input logic [3:0] be,
                        input logic [31:0] data, output logic [31:0] rdata_o, output int unsigned waited);
    req = '{req: 1'b1, we: we, be: be, addr: 32'(word * 4), wdata: data};
    @(negedge clk);
    req = '{req: 1'b0, we: 1'b0, be: 4'h0, addr: $urandom, wdata: '0};
    waited = 0;
    while (!rvalid) begin
      @(negedge clk);
      waited++;
    end
    rdata_o = rsp.rdata;
  endtask

  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] new_data, logic [3:0] be);
    for (int i = 0; i < 4; i++) merge[8*i +: 8] = be[i] ? new_data[8*i +: 8] : old[8*i +: 8];
  endfunction

  int unsigned loads = 0, stores = 0, fast_loads = 0, maintenance = 0;
  task automatic load_check(input int unsigned word);
    logic [31:0] got;
    int unsigned waited;
    access(1'b0, word, 4'hF, '0, got, waited);
    loads++;
    tb_check(got == model[word], $sformatf("load of word 0x%0x: got %08x want %08x", word, got, model[word]));
    // A hit costs nothing: answered in the cycle after the request.
    if (waited == 0) fast_loads++;
  endtask
  task automatic store(input int unsigned word);
    logic [31:0] unused, data;
    logic [3:0] be;
    int unsigned waited;
    data = $urandom;
    be   = 4'($urandom % 15 + 1);
    access(1'b1, word, be, data, unused, waited);
    model[word] = merge(model[word], data, be);
    stores++;
  endtask

  // Cache maintenance (cbo.*, a store of no bytes with the operation as
  // data) on the line holding WORD: after clean or flush memory holds what
  // the core wrote; after inval the line reads what memory holds.
  task automatic cbo(input int unsigned word, input logic [1:0] op);
    logic [31:0] unused, old_words [LineWords];
    int unsigned waited, first;
    first = word & ~(LineWords - 1);
    for (int i = 0; i < LineWords; i++) old_words[i] = memory[first + i];
    access(1'b1, word, 4'h0, 32'(op), unused, waited);
    maintenance++;
    for (int i = 0; i < LineWords; i++) begin
      if (op == 2'd0) begin
        tb_check(memory[first + i] == old_words[i], $sformatf("cbo.inval of word 0x%0x wrote memory", first + i));
        model[first + i] = memory[first + i];
      end
      else tb_check(memory[first + i] == model[first + i],
                    $sformatf("cbo %0d of word 0x%0x: memory %08x want %08x", op, first + i, memory[first + i],
                              model[first + i]));
    end
  endtask

  initial begin
    int unsigned word, kind;
    for (int w = 0; w < SpanWords; w++) begin
      memory[w] = initial_word(w);
      model[w]  = initial_word(w);
    end
    void'($urandom(12345));
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    for (int op = 0; op < 60000; op++) begin
      kind = $urandom % 16;
      word = $urandom % SpanWords;
      if (kind < 6) begin
        load_check(word);
      end else if (kind < 10) begin
        store(word);
      end else if (kind < 15) begin
        // A stream of 8..40 words from a line start, a store now and then
        // (often at the next lines' indices in another region).
        automatic int unsigned start = word & ~(LineWords - 1), n = 8 + $urandom % 33;
        for (int i = 0; i < n; i++) begin
          load_check((start + i) % SpanWords);
          if ($urandom % 8 == 0) store((start + i + LineWords + SizeBytes / 4 * ($urandom % 4)) % SpanWords);
        end
      end else if ($urandom % 2) begin
        cbo(word, 2'($urandom % 3));
      end else begin
        repeat ($urandom % 40) @(negedge clk);  // idle: prefetches finish
      end
    end
    // Everything, once more through the cache.
    for (int w = 0; w < SpanWords; w++) load_check(w);
    @(negedge clk);  // the last access counted
    $display("tb_dcache: %0d loads (%0d answered at once), %0d stores, %0d cbo, %0d hits, %0d misses, %0d memory commands",
             loads, fast_loads, stores, maintenance, hits, misses, commands);
    tb_check(fast_loads > loads / 2, "most loads answered in the next cycle");
    tb_check(hits + misses == loads + stores, "every access counted once");
    tb_finish(MinChecks);
  end

  // A store or a miss is never answered in the cycle after its request
  // (the next access reads the RAMs after the write).
  always @(posedge clk) begin
    if (rst_n && dut.req_q && dut.we_q) tb_check(!rvalid, "a store answered in the next cycle");
  end

endmodule : tb_dcache
