// UART unit test: transmit framing and timing, loopback receive, FIFOs,
// overrun and framing errors, divisor clamp, interrupts, bad offsets.
`timescale 1ns/1ps
module tb_uart;
  import soc_bus_pkg::*;
  import soc_regs_pkg::*;
  `include "tb_util.svh"
  localparam int unsigned MinChecks = 50;  // a run makes 52

  localparam int Div = 8;
  logic clk = 0, rst_n = 0;
  bus_req_t req = '0;
  bus_rsp_t rsp;
  logic tx, rx, irq, rts_n, loopback = 1'b1, rx_drive = 1'b1;

  always #5 clk = ~clk;
  assign rx = loopback ? tx : rx_drive;

  uart #(.FifoDepth(8), .DivisorDefault(16'(Div))) dut (
    .clk_i(clk), .rst_ni(rst_n), .req_i(req), .rsp_o(rsp), .rx_i(rx), .tx_o(tx), .rts_no(rts_n), .irq_o(irq)
  );

  `include "bus_master.svh"

  // Independent decoder of the tx line: measures each bit in its middle.
  byte unsigned sent[$];
  initial begin
    forever begin
      byte unsigned b;
      @(negedge tx);
      repeat (Div / 2) @(posedge clk);
      if (tx == 1'b0) begin
        for (int i = 0; i < 8; i++) begin
          repeat (Div) @(posedge clk);
          b[i] = tx;
        end
        repeat (Div) @(posedge clk);
        tb_check(tx, "stop bit high on tx");
        if (tx) sent.push_back(b);
      end
    end
  end

  task automatic drive_rx_byte(input byte unsigned b, input bit stop);
    rx_drive = 1'b0;
    repeat (Div) @(posedge clk);
    for (int i = 0; i < 8; i++) begin
      rx_drive = b[i];
      repeat (Div) @(posedge clk);
    end
    rx_drive = stop;
    repeat (Div) @(posedge clk);
    rx_drive = 1'b1;
    repeat (2 * Div) @(posedge clk);
  endtask

  logic [31:0] d;
  logic e;

  initial begin
    repeat (3) @(posedge clk);
    rst_n = 1;

    // Reset state.
    dev_read(UART_BASE + 32'(UART_DIVISOR_OFFSET), d, e);
    tb_check(d == Div && !e, "divisor reset value");
    dev_read(UART_BASE + 32'(UART_STATUS_OFFSET), d, e);
    tb_check(d[UART_STATUS_TX_IDLE_LSB] && !d[UART_STATUS_RX_VALID_LSB], "idle after reset");
    dev_read(UART_BASE + 32'(UART_DATA_OFFSET), d, e);
    tb_check(d == 32'(1) << UART_DATA_RX_EMPTY_LSB, "empty RX reads RX_EMPTY");

    // Send three bytes; they come back through the loopback.
    foreach (sent[i]) sent.delete(i);
    dev_write(UART_BASE + 32'(UART_DATA_OFFSET), 32'h55, e);
    dev_write(UART_BASE + 32'(UART_DATA_OFFSET), 32'hA3, e);
    dev_write(UART_BASE + 32'(UART_DATA_OFFSET), 32'h00, e);
    dev_read(UART_BASE + 32'(UART_STATUS_OFFSET), d, e);
    tb_check(!d[UART_STATUS_TX_IDLE_LSB], "busy while sending");
    repeat (40 * Div) @(posedge clk);
    tb_check(sent.size() == 3 && sent[0] == 8'h55 && sent[1] == 8'hA3 && sent[2] == 8'h00,
             "tx bytes decoded on the line");
    dev_read(UART_BASE + 32'(UART_STATUS_OFFSET), d, e);
    tb_check(d[UART_STATUS_RX_LEVEL_LSB +: 8] == 3, "three bytes received");
    dev_read(UART_BASE + 32'(UART_DATA_OFFSET), d, e);
    tb_check(d == 32'h55, "rx byte 0");
    dev_read(UART_BASE + 32'(UART_DATA_OFFSET), d, e);
    tb_check(d == 32'hA3, "rx byte 1");
    dev_read(UART_BASE + 32'(UART_DATA_OFFSET), d, e);
    tb_check(d == 32'h00, "rx byte 2");
    dev_read(UART_BASE + 32'(UART_DATA_OFFSET), d, e);
    tb_check(d[31], "rx empty again");

    // RX interrupt follows the FIFO level when enabled.
    dev_write(UART_BASE + 32'(UART_IRQ_ENABLE_OFFSET), 32'h1, e);
    tb_check(!irq, "no rx irq while empty");
    dev_write(UART_BASE + 32'(UART_DATA_OFFSET), 32'h7E, e);
    repeat (14 * Div) @(posedge clk);
    tb_check(irq, "rx irq with data");
    dev_read(UART_BASE + 32'(UART_DATA_OFFSET), d, e);
    @(posedge clk);
    tb_check(!irq && d == 32'h7E, "rx irq cleared by reading");
    dev_write(UART_BASE + 32'(UART_IRQ_ENABLE_OFFSET), 32'h2, e);
    @(posedge clk);
    tb_check(irq, "tx-empty irq");
    dev_write(UART_BASE + 32'(UART_IRQ_ENABLE_OFFSET), 32'h0, e);

    // Overrun: more bytes than the FIFO holds (8) arrive unread.
    for (int i = 0; i < 10; i++) dev_write(UART_BASE + 32'(UART_DATA_OFFSET), 32'(i), e);
    repeat (10 * 12 * Div) @(posedge clk);
    dev_read(UART_BASE + 32'(UART_STATUS_OFFSET), d, e);
    tb_check(d[UART_STATUS_RX_FULL_LSB] && d[UART_STATUS_RX_OVERRUN_LSB], "overrun flagged");
    tb_check(rts_n, "RTS off while the FIFO is full");
    for (int i = 0; i < 8; i++) begin
      dev_read(UART_BASE + 32'(UART_DATA_OFFSET), d, e);
      tb_check(d == 32'(i), "oldest bytes kept on overrun");
      @(posedge clk);
      tb_check(rts_n == (i < 2), "RTS off with room for two bytes or less, on after");
    end
    dev_write(UART_BASE + 32'(UART_STATUS_OFFSET), 32'(1 << UART_STATUS_RX_OVERRUN_LSB), e);
    dev_read(UART_BASE + 32'(UART_STATUS_OFFSET), d, e);
    tb_check(!d[UART_STATUS_RX_OVERRUN_LSB], "overrun cleared by writing 1");

    // Framing error: a byte whose stop bit is low is dropped and flagged.
    loopback = 1'b0;
    drive_rx_byte(8'h3C, 1'b0);
    dev_read(UART_BASE + 32'(UART_STATUS_OFFSET), d, e);
    tb_check(d[UART_STATUS_FRAME_ERROR_LSB] && !d[UART_STATUS_RX_VALID_LSB], "frame error flagged");
    drive_rx_byte(8'hC3, 1'b1);
    dev_read(UART_BASE + 32'(UART_DATA_OFFSET), d, e);
    tb_check(d == 32'hC3, "receives again after a frame error");

    // Divisor: below 4 is clamped; a new rate is used.
    dev_write(UART_BASE + 32'(UART_DIVISOR_OFFSET), 32'd1, e);
    dev_read(UART_BASE + 32'(UART_DIVISOR_OFFSET), d, e);
    tb_check(d == 4, "divisor clamped to 4");
    dev_write(UART_BASE + 32'(UART_DIVISOR_OFFSET), 32'(Div), e);

    // Unknown offsets answer with an error and change nothing.
    dev_read(UART_BASE + 32'h40, d, e);
    tb_check(e, "unknown offset read errors");
    dev_write(UART_BASE + 32'h44, 32'hffff_ffff, e);
    tb_check(e, "unknown offset write errors");
    dev_read(UART_BASE + 32'(UART_DIVISOR_OFFSET), d, e);
    tb_check(d == Div && !e, "state unchanged by bad access");

    tb_finish(MinChecks);
  end

  initial begin
    #10ms;
    $display("TB FAIL timeout");
    $finish;
  end
endmodule
