// The SoC's internal bus: a master drives a request for one cycle and the
// selected device answers on the next cycle with read data and an error flag.
// Every device accepts every request, so the bus never waits and never hangs.
package soc_bus_pkg;

  typedef struct packed {
    logic        req;
    logic        we;
    logic [3:0]  be;
    logic [31:0] addr;
    logic [31:0] wdata;
  } bus_req_t;

  typedef struct packed {
    logic [31:0] rdata;
    logic        err;
  } bus_rsp_t;

  // LiteDRAM's ports (the Arty's DDR3, mk/litedram.mk), in its clock
  // domain: the native user port (16-byte words, up to 256 MB) and the
  // control bus (Wishbone, word addresses) with its initialisation flags.
  localparam int unsigned DramAddrW = 24;

  typedef struct packed {
    logic                 cmd_valid;
    logic                 cmd_we;
    logic [DramAddrW-1:0] cmd_addr;
    logic                 wdata_valid;
    logic [127:0]         wdata;
    logic [15:0]          wdata_we;
    logic                 rdata_ready;
  } dram_native_req_t;

  typedef struct packed {
    logic         cmd_ready;
    logic         wdata_ready;
    logic         rdata_valid;
    logic [127:0] rdata;
  } dram_native_rsp_t;

  typedef struct packed {
    logic        cyc;
    logic        stb;
    logic        we;
    logic [29:0] adr;
    logic [31:0] dat;
  } dram_wb_req_t;

  typedef struct packed {
    logic        ack;
    logic        err;
    logic [31:0] dat;
    logic        init_done;
    logic        init_error;
  } dram_wb_rsp_t;

  // The SDR SDRAM's pins as its controller drives them (the ULX3S's chip: 16
  // data lines, 4 banks, 13 address lines; the board makes DQ bidirectional
  // and feeds the chip ~clk). DQ's input is a port of its own.
  typedef struct packed {
    logic        cke;
    logic        cs_n;
    logic        ras_n;
    logic        cas_n;
    logic        we_n;
    logic [1:0]  ba;
    logic [12:0] a;
    logic [1:0]  dqm;
    logic [15:0] dq;     // driven when dq_oe
    logic        dq_oe;
  } sdram_pins_t;

  // A SoC without the SDRAM: clock disabled, deselected, DQ released.
  localparam sdram_pins_t SdramIdle = {1'b0, 4'b1111, 2'b00, 13'b0, 2'b11, 16'b0, 1'b0};

  // $bits of the two types, for flat vectors with one slice per device
  // (Yosys 0.23 has no $bits of a type; tests/rtl/tb_xbar.sv checks these).
  localparam int unsigned BusReqW = 1 + 1 + 4 + 32 + 32;
  localparam int unsigned BusRspW = 32 + 1;

endpackage : soc_bus_pkg
