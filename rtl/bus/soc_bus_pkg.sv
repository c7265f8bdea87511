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

endpackage : soc_bus_pkg
