// UART with RX/TX FIFOs, a programmable divisor, a level interrupt and
// receive flow control: rts_no goes high (stop sending) while the receive
// FIFO has room for only two more bytes, so a host that honours it (the
// simulator's line model; an adapter with RTS/CTS) loses nothing while the
// firmware is not reading. Registers: see the UART block in
// rtl/soc/regmap.toml. The bus hands over a registered request; reads are
// answered in the same cycle.
module uart #(
  parameter int unsigned FifoDepth      = 32,
  parameter logic [15:0] DivisorDefault = 16'd434
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,
  output soc_bus_pkg::bus_rsp_t rsp_o,
  input  logic                  rx_i,
  output logic                  tx_o,
  output logic                  rts_no,
  output logic                  irq_o
);

  localparam int unsigned LevelW = $clog2(FifoDepth) + 1;

  logic [15:0] divisor_q;
  logic        irq_rx_q, irq_tx_q;  // IRQ_ENABLE's RX_VALID and TX_EMPTY
  logic [15:0] wr_divisor;
  logic        overrun_q, frame_error_q;

  logic              tx_push, tx_pop, tx_empty, tx_full, tx_busy;
  logic              tx_idle /* verilator public_flat_rd */;  // the simulator idles the host on it
  logic [7:0]        tx_data;
  logic [LevelW-1:0] tx_level;
  logic              rx_push, rx_pop, rx_empty, rx_full, rx_frame_error;
  logic [7:0]        rx_byte, rx_data;
  logic [LevelW-1:0] rx_level;

  logic [11:0] offset;
  logic        wr, rd;
  logic [31:0] status;

  assign offset  = req_i.addr[11:0];
  assign wr_divisor = req_i.wdata[soc_regs_pkg::UART_DIVISOR_CYCLES_LSB +: soc_regs_pkg::UART_DIVISOR_CYCLES_WIDTH];
  assign wr      = req_i.req && req_i.we;
  assign rd      = req_i.req && !req_i.we;
  assign tx_push = wr && offset == soc_regs_pkg::UART_DATA_OFFSET;
  assign rx_pop  = rd && offset == soc_regs_pkg::UART_DATA_OFFSET;

  sync_fifo #(.Width(8), .Depth(FifoDepth)) u_tx_fifo (
    .clk_i, .rst_ni,
    .push_i  (tx_push),
    .data_i  (req_i.wdata[7:0]),
    .pop_i   (tx_pop),
    .data_o  (tx_data),
    .empty_o (tx_empty),
    .full_o  (tx_full),
    .level_o (tx_level)
  );

  uart_tx u_tx (
    .clk_i, .rst_ni,
    .divisor_i (divisor_q),
    .valid_i   (!tx_empty),
    .data_i    (tx_data),
    .ready_o   (tx_pop),
    .busy_o    (tx_busy),
    .tx_o
  );

  uart_rx u_rx (
    .clk_i, .rst_ni,
    .divisor_i     (divisor_q),
    .rx_i,
    .valid_o       (rx_push),
    .data_o        (rx_byte),
    .frame_error_o (rx_frame_error)
  );

  sync_fifo #(.Width(8), .Depth(FifoDepth)) u_rx_fifo (
    .clk_i, .rst_ni,
    .push_i  (rx_push),
    .data_i  (rx_byte),
    .pop_i   (rx_pop),
    .data_o  (rx_data),
    .empty_o (rx_empty),
    .full_o  (rx_full),
    .level_o (rx_level)
  );

  always_comb begin
    status = '0;
    status[soc_regs_pkg::UART_STATUS_TX_FULL_LSB]     = tx_full;
    status[soc_regs_pkg::UART_STATUS_TX_IDLE_LSB]     = tx_idle;
    status[soc_regs_pkg::UART_STATUS_RX_VALID_LSB]    = !rx_empty;
    status[soc_regs_pkg::UART_STATUS_RX_FULL_LSB]     = rx_full;
    status[soc_regs_pkg::UART_STATUS_RX_OVERRUN_LSB]  = overrun_q;
    status[soc_regs_pkg::UART_STATUS_FRAME_ERROR_LSB] = frame_error_q;
    status[soc_regs_pkg::UART_STATUS_RX_LEVEL_LSB +: soc_regs_pkg::UART_STATUS_RX_LEVEL_WIDTH] = 8'(rx_level);
    status[soc_regs_pkg::UART_STATUS_TX_LEVEL_LSB +: soc_regs_pkg::UART_STATUS_TX_LEVEL_WIDTH] = 8'(tx_level);
  end

  always_comb begin
    rsp_o = '0;
    if (req_i.req) begin
      unique case (offset)
        soc_regs_pkg::UART_DATA_OFFSET:
          rsp_o.rdata = rx_empty ? (32'd1 << soc_regs_pkg::UART_DATA_RX_EMPTY_LSB)
                                 : (32'(rx_data) << soc_regs_pkg::UART_DATA_BYTE_LSB);
        soc_regs_pkg::UART_STATUS_OFFSET:     rsp_o.rdata = status;
        soc_regs_pkg::UART_DIVISOR_OFFSET:    rsp_o.rdata = 32'(divisor_q) << soc_regs_pkg::UART_DIVISOR_CYCLES_LSB;
        soc_regs_pkg::UART_IRQ_ENABLE_OFFSET: rsp_o.rdata = (32'(irq_rx_q) << soc_regs_pkg::UART_IRQ_ENABLE_RX_VALID_LSB) |
                                                            (32'(irq_tx_q) << soc_regs_pkg::UART_IRQ_ENABLE_TX_EMPTY_LSB);
        default:                              rsp_o.err   = 1'b1;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      divisor_q     <= DivisorDefault;
      irq_rx_q      <= 1'b0;
      irq_tx_q      <= 1'b0;
      overrun_q     <= 1'b0;
      frame_error_q <= 1'b0;
    end else begin
      if (rx_push && rx_full) overrun_q     <= 1'b1;
      if (rx_frame_error)     frame_error_q <= 1'b1;
      if (wr) begin
        unique case (offset)
          soc_regs_pkg::UART_STATUS_OFFSET: begin
            if (req_i.wdata[soc_regs_pkg::UART_STATUS_RX_OVERRUN_LSB])  overrun_q     <= 1'b0;
            if (req_i.wdata[soc_regs_pkg::UART_STATUS_FRAME_ERROR_LSB]) frame_error_q <= 1'b0;
          end
          soc_regs_pkg::UART_DIVISOR_OFFSET:    divisor_q <= (wr_divisor < 16'd4) ? 16'd4 : wr_divisor;
          soc_regs_pkg::UART_IRQ_ENABLE_OFFSET: begin
            irq_rx_q <= req_i.wdata[soc_regs_pkg::UART_IRQ_ENABLE_RX_VALID_LSB];
            irq_tx_q <= req_i.wdata[soc_regs_pkg::UART_IRQ_ENABLE_TX_EMPTY_LSB];
          end
          default: ;
        endcase
      end
    end
  end

  assign tx_idle = tx_empty && !tx_busy;
  assign irq_o  = (irq_rx_q && !rx_empty) || (irq_tx_q && tx_empty);
  assign rts_no = (rx_level >= LevelW'(FifoDepth - 2));

endmodule : uart
