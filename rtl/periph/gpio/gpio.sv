// GPIO: output register (LEDs) and synchronised inputs (buttons) with
// per-input rising-edge interrupts. The bus hands over a registered request;
// reads are answered in the same cycle.
module gpio #(
  parameter int unsigned Width = 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,
  output soc_bus_pkg::bus_rsp_t rsp_o,
  input  logic [Width-1:0]      gpio_i,
  output logic [Width-1:0]      gpio_o,
  output logic                  irq_o
);

  logic [Width-1:0] sync1_q, in_q, in_prev_q, irq_enable_q, irq_pending_q, rising;
  logic             wr;

  assign wr     = req_i.req && req_i.we;
  assign rising = in_q & ~in_prev_q & irq_enable_q;

  always_comb begin
    rsp_o = '0;
    if (req_i.req) begin
      unique case (req_i.addr[11:0])
        soc_regs_pkg::GPIO_OUT_OFFSET:         rsp_o.rdata = 32'(gpio_o);
        soc_regs_pkg::GPIO_IN_OFFSET: begin
          rsp_o.rdata = 32'(in_q);
          rsp_o.err   = req_i.we;  // read-only
        end
        soc_regs_pkg::GPIO_IRQ_ENABLE_OFFSET:  rsp_o.rdata = 32'(irq_enable_q);
        soc_regs_pkg::GPIO_IRQ_PENDING_OFFSET: rsp_o.rdata = 32'(irq_pending_q);
        default:                               rsp_o.err   = 1'b1;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync1_q       <= '0;
      in_q          <= '0;
      in_prev_q     <= '0;
      gpio_o        <= '0;
      irq_enable_q  <= '0;
      irq_pending_q <= '0;
    end else begin
      sync1_q       <= gpio_i;
      in_q          <= sync1_q;
      in_prev_q     <= in_q;
      irq_pending_q <= irq_pending_q | rising;
      if (wr) begin
        unique case (req_i.addr[11:0])
          soc_regs_pkg::GPIO_OUT_OFFSET:         gpio_o       <= req_i.wdata[Width-1:0];
          soc_regs_pkg::GPIO_IRQ_ENABLE_OFFSET:  irq_enable_q <= req_i.wdata[Width-1:0];
          soc_regs_pkg::GPIO_IRQ_PENDING_OFFSET:
            irq_pending_q <= (irq_pending_q | rising) & ~req_i.wdata[Width-1:0];
          default: ;
        endcase
      end
    end
  end

  assign irq_o = |irq_pending_q;

endmodule : gpio
