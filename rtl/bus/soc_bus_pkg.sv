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

  // $bits of the two types, for flat vectors with one slice per device
  // (Yosys 0.23 has no $bits of a type; tests/rtl/tb_xbar.sv checks these).
  localparam int unsigned BusReqW = 1 + 1 + 4 + 32 + 32;
  localparam int unsigned BusRspW = 32 + 1;

endpackage : soc_bus_pkg
