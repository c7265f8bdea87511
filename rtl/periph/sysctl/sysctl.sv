// System information, simulation control and the external-interrupt
// combiner. Also watches data writes for the riscv-tests "tohost" word.
// The bus hands over a registered request; reads are answered in the same
// cycle.
module sysctl #(
  parameter int unsigned ClkHz,
  parameter int unsigned Baud,
  parameter int unsigned RamBytes,
  parameter int unsigned RomBytes,
  parameter int unsigned ExtBytes,
  parameter int unsigned DcacheLineBytes = 0,
  parameter logic [31:0] Features = 32'h0
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  soc_bus_pkg::bus_req_t req_i,
  output soc_bus_pkg::bus_rsp_t rsp_o,

  // Every data-bus request, for the tohost watch (0 disables it).
  input  soc_bus_pkg::bus_req_t snoop_i,
  input  logic [31:0]           tohost_addr_i,

  input  logic [31:0]           dcache_hits_i,
  input  logic [31:0]           dcache_misses_i,

  input  logic [2:0]            irq_sources_i,  // {ucm, gpio, uart}
  output logic                  ext_irq_o,

  output logic                  exit_valid_o,
  output logic [31:0]           exit_code_o
);

  localparam int unsigned NumIrq = 4;

  logic [NumIrq-1:0] irq_enable_q, irq_pending;
  logic              soft_irq_q;
  logic [31:0]       scratch_q;
  logic              wr, read_only;
  logic              tohost_hit_q;
  logic [31:0]       tohost_value_q;

  assign wr          = req_i.req && req_i.we;
  always_comb begin
    irq_pending = '0;
    irq_pending[soc_regs_pkg::SYSCTL_IRQ_PENDING_UART_LSB] = irq_sources_i[0];
    irq_pending[soc_regs_pkg::SYSCTL_IRQ_PENDING_GPIO_LSB] = irq_sources_i[1];
    irq_pending[soc_regs_pkg::SYSCTL_IRQ_PENDING_SOFT_LSB] = soft_irq_q;
    irq_pending[soc_regs_pkg::SYSCTL_IRQ_PENDING_UCM_LSB]  = irq_sources_i[2];
  end
  assign ext_irq_o   = |(irq_pending & irq_enable_q);

  // Writes to the read-only registers (regmap.toml) are refused with a bus error.
  assign read_only = soc_regs_pkg::SYSCTL_READ_ONLY[req_i.addr[11:2]];

  always_comb begin
    rsp_o = '0;
    if (req_i.req) begin
      unique case (req_i.addr[11:0])
        soc_regs_pkg::SYSCTL_CLK_HZ_OFFSET:      rsp_o.rdata = ClkHz;
        soc_regs_pkg::SYSCTL_RAM_SIZE_OFFSET:    rsp_o.rdata = RamBytes;
        soc_regs_pkg::SYSCTL_ROM_SIZE_OFFSET:    rsp_o.rdata = RomBytes;
        soc_regs_pkg::SYSCTL_FEATURES_OFFSET:    rsp_o.rdata = Features;
        soc_regs_pkg::SYSCTL_BAUD_OFFSET:        rsp_o.rdata = Baud;
        soc_regs_pkg::SYSCTL_EXT_SIZE_OFFSET:    rsp_o.rdata = ExtBytes;
        soc_regs_pkg::SYSCTL_DCACHE_HITS_OFFSET:   rsp_o.rdata = dcache_hits_i;
        soc_regs_pkg::SYSCTL_DCACHE_MISSES_OFFSET: rsp_o.rdata = dcache_misses_i;
        soc_regs_pkg::SYSCTL_EXIT_OFFSET:        rsp_o.err   = !req_i.we;  // write-only
        soc_regs_pkg::SYSCTL_IRQ_PENDING_OFFSET: rsp_o.rdata = 32'(irq_pending);
        soc_regs_pkg::SYSCTL_IRQ_ENABLE_OFFSET:  rsp_o.rdata = 32'(irq_enable_q);
        soc_regs_pkg::SYSCTL_SOFT_IRQ_OFFSET:    rsp_o.rdata = 32'(soft_irq_q) << soc_regs_pkg::SYSCTL_SOFT_IRQ_RAISE_LSB;
        soc_regs_pkg::SYSCTL_SCRATCH_OFFSET:     rsp_o.rdata = scratch_q;
        soc_regs_pkg::SYSCTL_DCACHE_LINE_OFFSET: rsp_o.rdata = DcacheLineBytes;
        default:                                 rsp_o.err   = 1'b1;
      endcase
      if (wr && read_only) rsp_o.err = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      irq_enable_q   <= '0;
      soft_irq_q     <= 1'b0;
      scratch_q      <= '0;
      exit_valid_o   <= 1'b0;
      exit_code_o    <= '0;
      tohost_hit_q   <= 1'b0;
      tohost_value_q <= '0;
    end else begin
      // riscv-tests "p" protocol: (case << 1) | 1, where case 0 means pass.
      // The store is registered first and judged a cycle later.
      tohost_hit_q   <= snoop_i.req && snoop_i.we && snoop_i.be != '0 && tohost_addr_i != '0 &&
                        snoop_i.addr == tohost_addr_i;
      tohost_value_q <= snoop_i.wdata;
      if (tohost_hit_q && tohost_value_q[0]) begin
        exit_valid_o <= 1'b1;
        exit_code_o  <= tohost_value_q >> 1;
      end

      if (wr) begin
        unique case (req_i.addr[11:0])
          soc_regs_pkg::SYSCTL_EXIT_OFFSET: begin
            exit_valid_o <= 1'b1;
            exit_code_o  <= req_i.wdata;
          end
          soc_regs_pkg::SYSCTL_IRQ_ENABLE_OFFSET: irq_enable_q <= req_i.wdata[NumIrq-1:0];
          soc_regs_pkg::SYSCTL_SOFT_IRQ_OFFSET:   soft_irq_q   <= req_i.wdata[soc_regs_pkg::SYSCTL_SOFT_IRQ_RAISE_LSB];
          soc_regs_pkg::SYSCTL_SCRATCH_OFFSET:    scratch_q    <= req_i.wdata;
          default: ;
        endcase
      end
    end
  end

endmodule : sysctl
