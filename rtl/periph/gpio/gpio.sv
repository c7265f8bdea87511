// GPIO: output register (LEDs) and synchronised inputs (buttons) with
// per-input rising-edge interrupts.
module gpio
#(
  parameter int unsigned Width = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  soc_bus_pkg::bus_req_t         req_i,
  output soc_bus_pkg::bus_rsp_t         rsp_o,
  input  logic [Width-1:0] gpio_i,
  output logic [Width-1:0] gpio_o,
  output logic             irq_o
);

  logic [Width-1:0] sync1_q, in_q, in_prev_q, irq_enable_q, irq_pending_q;
  logic             wr;

  assign wr = req_i.req && req_i.we;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync1_q       <= '0;
      in_q          <= '0;
      in_prev_q     <= '0;
      gpio_o        <= '0;
      irq_enable_q  <= '0;
      irq_pending_q <= '0;
      rsp_o         <= '0;
    end else begin
      sync1_q   <= gpio_i;
      in_q      <= sync1_q;
      in_prev_q <= in_q;
      irq_pending_q <= irq_pending_q | (in_q & ~in_prev_q & irq_enable_q);

      rsp_o <= '0;
      if (req_i.req) begin
        unique case (req_i.addr[11:0])
          soc_regs_pkg::GPIO_OUT_OFFSET: begin
            rsp_o.rdata <= 32'(gpio_o);
            if (wr) gpio_o <= req_i.wdata[Width-1:0];
          end
          soc_regs_pkg::GPIO_IN_OFFSET: begin
            rsp_o.rdata <= 32'(in_q);
            rsp_o.err   <= wr;
          end
          soc_regs_pkg::GPIO_IRQ_ENABLE_OFFSET: begin
            rsp_o.rdata <= 32'(irq_enable_q);
            if (wr) irq_enable_q <= req_i.wdata[Width-1:0];
          end
          soc_regs_pkg::GPIO_IRQ_PENDING_OFFSET: begin
            rsp_o.rdata <= 32'(irq_pending_q);
            if (wr) irq_pending_q <= (irq_pending_q | (in_q & ~in_prev_q & irq_enable_q))
                                     & ~req_i.wdata[Width-1:0];
          end
          default: rsp_o.err <= 1'b1;
        endcase
      end
    end
  end

  assign irq_o = |irq_pending_q;

endmodule : gpio
