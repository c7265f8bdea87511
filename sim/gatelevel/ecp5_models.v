// Simulation models of the ECP5 cells the ULX3S netlist uses that Yosys
// ships only as blackboxes (cells_bb.v); everything else comes from its
// cells_sim.v. Only what the board build uses is modelled, and a cell set
// up otherwise stops the simulation.

// The multiplier as Yosys maps $mul onto it (dsp_map.v, which sets no
// parameters): no registers, P = A * B with each operand signed when
// SIGNEDA / SIGNEDB.
module MULT18X18D (
  input A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17,
  input B0, B1, B2, B3, B4, B5, B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17,
  input C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17,
  input SIGNEDA, SIGNEDB, SOURCEA, SOURCEB,
  input CLK0, CLK1, CLK2, CLK3,
  input CE0, CE1, CE2, CE3,
  input RST0, RST1, RST2, RST3,
  input SRIA0, SRIA1, SRIA2, SRIA3, SRIA4, SRIA5, SRIA6, SRIA7, SRIA8, SRIA9, SRIA10, SRIA11, SRIA12, SRIA13, SRIA14, SRIA15, SRIA16, SRIA17,
  input SRIB0, SRIB1, SRIB2, SRIB3, SRIB4, SRIB5, SRIB6, SRIB7, SRIB8, SRIB9, SRIB10, SRIB11, SRIB12, SRIB13, SRIB14, SRIB15, SRIB16, SRIB17,
  output SROA0, SROA1, SROA2, SROA3, SROA4, SROA5, SROA6, SROA7, SROA8, SROA9, SROA10, SROA11, SROA12, SROA13, SROA14, SROA15, SROA16, SROA17,
  output SROB0, SROB1, SROB2, SROB3, SROB4, SROB5, SROB6, SROB7, SROB8, SROB9, SROB10, SROB11, SROB12, SROB13, SROB14, SROB15, SROB16, SROB17,
  output ROA0, ROA1, ROA2, ROA3, ROA4, ROA5, ROA6, ROA7, ROA8, ROA9, ROA10, ROA11, ROA12, ROA13, ROA14, ROA15, ROA16, ROA17,
  output ROB0, ROB1, ROB2, ROB3, ROB4, ROB5, ROB6, ROB7, ROB8, ROB9, ROB10, ROB11, ROB12, ROB13, ROB14, ROB15, ROB16, ROB17,
  output ROC0, ROC1, ROC2, ROC3, ROC4, ROC5, ROC6, ROC7, ROC8, ROC9, ROC10, ROC11, ROC12, ROC13, ROC14, ROC15, ROC16, ROC17,
  output P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23, P24, P25, P26, P27, P28, P29, P30, P31, P32, P33, P34, P35,
  output SIGNEDP
);
  parameter REG_INPUTA_CLK = "NONE";
  parameter REG_INPUTB_CLK = "NONE";
  parameter REG_INPUTC_CLK = "NONE";
  parameter REG_PIPELINE_CLK = "NONE";
  parameter REG_OUTPUT_CLK = "NONE";
  initial begin
    if (REG_INPUTA_CLK != "NONE" || REG_INPUTB_CLK != "NONE" || REG_INPUTC_CLK != "NONE" || REG_PIPELINE_CLK != "NONE" || REG_OUTPUT_CLK != "NONE")
      $fatal(1, "MULT18X18D: registered modes are not modelled");
  end
  wire [17:0] a = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0};
  wire [17:0] b = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
  wire signed [35:0] product = $signed({{18{SIGNEDA & a[17]}}, a}) * $signed({{18{SIGNEDB & b[17]}}, b});
  assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} = product;
  assign SIGNEDP = SIGNEDA | SIGNEDB;
  assign {SROA17, SROA16, SROA15, SROA14, SROA13, SROA12, SROA11, SROA10, SROA9, SROA8, SROA7, SROA6, SROA5, SROA4, SROA3, SROA2, SROA1, SROA0} = 18'b0;
  assign {SROB17, SROB16, SROB15, SROB14, SROB13, SROB12, SROB11, SROB10, SROB9, SROB8, SROB7, SROB6, SROB5, SROB4, SROB3, SROB2, SROB1, SROB0} = 18'b0;
  assign {ROA17, ROA16, ROA15, ROA14, ROA13, ROA12, ROA11, ROA10, ROA9, ROA8, ROA7, ROA6, ROA5, ROA4, ROA3, ROA2, ROA1, ROA0} = 18'b0;
  assign {ROB17, ROB16, ROB15, ROB14, ROB13, ROB12, ROB11, ROB10, ROB9, ROB8, ROB7, ROB6, ROB5, ROB4, ROB3, ROB2, ROB1, ROB0} = 18'b0;
  assign {ROC17, ROC16, ROC15, ROC14, ROC13, ROC12, ROC11, ROC10, ROC9, ROC8, ROC7, ROC6, ROC5, ROC4, ROC3, ROC2, ROC1, ROC0} = 18'b0;
endmodule

// The PLL: the simulation drives the system clock on CLKI, so CLKOP follows
// it; LOCK rises after a few cycles, as the real one does after its lock time.
module EHXPLLL (
  input CLKI, CLKFB,
  input PHASESEL1, PHASESEL0, PHASEDIR, PHASESTEP, PHASELOADREG,
  input STDBY, PLLWAKESYNC,
  input RST, ENCLKOP, ENCLKOS, ENCLKOS2, ENCLKOS3,
  output CLKOP, CLKOS, CLKOS2, CLKOS3,
  output LOCK, INTLOCK,
  output REFCLK, CLKINTFB
);
  // The parameters ulx3s_pll sets (the rest only add outputs or modes).
  parameter CLKI_DIV = 1;
  parameter CLKFB_DIV = 1;
  parameter CLKOP_DIV = 8;
  parameter CLKOP_CPHASE = 0;
  parameter CLKOP_FPHASE = 0;
  parameter CLKOP_ENABLE = "ENABLED";
  parameter FEEDBK_PATH = "CLKOP";
  parameter OUTDIVIDER_MUXA = "DIVA";
  parameter STDBY_ENABLE = "DISABLED";
  parameter DPHASE_SOURCE = "DISABLED";
  parameter PLLRST_ENA = "DISABLED";
  parameter INTFB_WAKE = "DISABLED";
  reg [3:0] lock_count = 4'd0;
  always @(posedge CLKI) if (lock_count != 4'hF) lock_count <= lock_count + 4'd1;
  assign CLKOP = CLKI;
  assign {CLKOS, CLKOS2, CLKOS3, REFCLK, CLKINTFB} = 5'b0;
  assign LOCK = lock_count == 4'hF;
  assign INTLOCK = LOCK;
endmodule

// Output DDR register: D0 in the first half of each SCLK cycle, D1 in the
// second.
module ODDRX1F (input SCLK, RST, D0, D1, output Q);
  parameter GSR = "ENABLED";
  reg q0 = 1'b0, q1 = 1'b0;
  always @(posedge SCLK) begin
    q0 <= D0;
    q1 <= D1;
  end
  assign Q = SCLK ? q0 : q1;
endmodule
