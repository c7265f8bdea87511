// Bus masters for testbenches. Expects clk, req (bus_req_t) and rsp
// (bus_rsp_t) in the including module.
//   bus_*: the core's side of soc_xbar -- the response comes a cycle later.
//   dev_*: a peripheral's side -- it gets a registered request and answers
//          in that same cycle; state changes take effect at the clock edge.
task automatic bus_access(input logic we, input logic [31:0] addr, input logic [31:0] wdata,
                          output logic [31:0] rdata, output logic err);
  @(negedge clk);
  req = '{req: 1'b1, we: we, be: 4'hf, addr: addr, wdata: wdata};
  @(negedge clk);
  req = '0;
  rdata = rsp.rdata;
  err   = rsp.err;
endtask

task automatic bus_write(input logic [31:0] addr, input logic [31:0] wdata, output logic err);
  logic [31:0] unused;
  bus_access(1'b1, addr, wdata, unused, err);
endtask

task automatic bus_read(input logic [31:0] addr, output logic [31:0] rdata, output logic err);
  bus_access(1'b0, addr, '0, rdata, err);
endtask

task automatic dev_access(input logic we, input logic [31:0] addr, input logic [31:0] wdata,
                          output logic [31:0] rdata, output logic err);
  @(negedge clk);
  req = '{req: 1'b1, we: we, be: 4'hf, addr: addr, wdata: wdata};
  #1;
  rdata = rsp.rdata;
  err   = rsp.err;
  @(negedge clk);
  req = '0;
endtask

task automatic dev_write(input logic [31:0] addr, input logic [31:0] wdata, output logic err);
  logic [31:0] unused;
  dev_access(1'b1, addr, wdata, unused, err);
endtask

task automatic dev_read(input logic [31:0] addr, output logic [31:0] rdata, output logic err);
  dev_access(1'b0, addr, '0, rdata, err);
endtask
