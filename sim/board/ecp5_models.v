// Simulation models of the ECP5 cells the ULX3S design uses that Yosys
// ships without behaviour (cells_bb.v, and DP16KD in cells_sim.v): the PLL
// and the SDRAM clock's DDR register, which ulx3s_top instantiates (both
// board simulators), and the multiplier and block RAM synth_ecp5 maps onto
// (the netlist's; everything else comes from Yosys's cells_sim.v). Only
// what the board build uses is modelled, and a cell set up otherwise stops
// the simulation.

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

// Block RAM, as brams_map.v uses it (Yosys's cells_sim.v declares DP16KD
// without behaviour; the make rule leaves that declaration out): no output
// register, chip selects unused, true dual port 1, 2, 4, 9 or 18 bits wide,
// or 36 bits with port A writing (DIA low half, DIB high) and port B
// reading (DOA low half, DOB high). The memory is 2048 9-bit units in
// INITVAL's order: 18-bit row r (INITVAL_<r/16>, from bit 20*(r%16)) holds
// units 2r and 2r+1. A word of 18 or 36 bits is 2 or 4 units, each written
// when its address bit 0..3 is set (the byte enables); a narrower word lies
// in the 8 low bits of unit AD[13:3], placed by AD[2:0]. A write leaves the
// port's output alone (NORMAL) or shows the old word (READBEFOREWRITE); RST
// clears the output at the clock edge.
module DP16KD (
  input DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
  input ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input CEA, OCEA, CLKA, WEA, RSTA, CSA2, CSA1, CSA0,
  output DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
  input ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input CEB, OCEB, CLKB, WEB, RSTB, CSB2, CSB1, CSB0,
  output DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
  parameter integer DATA_WIDTH_A = 18;
  parameter integer DATA_WIDTH_B = 18;
  parameter REGMODE_A = "NOREG";
  parameter REGMODE_B = "NOREG";
  parameter RESETMODE = "SYNC";
  parameter ASYNC_RESET_RELEASE = "SYNC";
  parameter CSDECODE_A = "0b000";
  parameter CSDECODE_B = "0b000";
  parameter WRITEMODE_A = "NORMAL";
  parameter WRITEMODE_B = "NORMAL";
  parameter CLKAMUX = "CLKA";
  parameter CLKBMUX = "CLKB";
  parameter GSR = "ENABLED";
  parameter [319:0] INITVAL_00 = 320'h0;
  parameter [319:0] INITVAL_01 = 320'h0;
  parameter [319:0] INITVAL_02 = 320'h0;
  parameter [319:0] INITVAL_03 = 320'h0;
  parameter [319:0] INITVAL_04 = 320'h0;
  parameter [319:0] INITVAL_05 = 320'h0;
  parameter [319:0] INITVAL_06 = 320'h0;
  parameter [319:0] INITVAL_07 = 320'h0;
  parameter [319:0] INITVAL_08 = 320'h0;
  parameter [319:0] INITVAL_09 = 320'h0;
  parameter [319:0] INITVAL_0A = 320'h0;
  parameter [319:0] INITVAL_0B = 320'h0;
  parameter [319:0] INITVAL_0C = 320'h0;
  parameter [319:0] INITVAL_0D = 320'h0;
  parameter [319:0] INITVAL_0E = 320'h0;
  parameter [319:0] INITVAL_0F = 320'h0;
  parameter [319:0] INITVAL_10 = 320'h0;
  parameter [319:0] INITVAL_11 = 320'h0;
  parameter [319:0] INITVAL_12 = 320'h0;
  parameter [319:0] INITVAL_13 = 320'h0;
  parameter [319:0] INITVAL_14 = 320'h0;
  parameter [319:0] INITVAL_15 = 320'h0;
  parameter [319:0] INITVAL_16 = 320'h0;
  parameter [319:0] INITVAL_17 = 320'h0;
  parameter [319:0] INITVAL_18 = 320'h0;
  parameter [319:0] INITVAL_19 = 320'h0;
  parameter [319:0] INITVAL_1A = 320'h0;
  parameter [319:0] INITVAL_1B = 320'h0;
  parameter [319:0] INITVAL_1C = 320'h0;
  parameter [319:0] INITVAL_1D = 320'h0;
  parameter [319:0] INITVAL_1E = 320'h0;
  parameter [319:0] INITVAL_1F = 320'h0;
  parameter [319:0] INITVAL_20 = 320'h0;
  parameter [319:0] INITVAL_21 = 320'h0;
  parameter [319:0] INITVAL_22 = 320'h0;
  parameter [319:0] INITVAL_23 = 320'h0;
  parameter [319:0] INITVAL_24 = 320'h0;
  parameter [319:0] INITVAL_25 = 320'h0;
  parameter [319:0] INITVAL_26 = 320'h0;
  parameter [319:0] INITVAL_27 = 320'h0;
  parameter [319:0] INITVAL_28 = 320'h0;
  parameter [319:0] INITVAL_29 = 320'h0;
  parameter [319:0] INITVAL_2A = 320'h0;
  parameter [319:0] INITVAL_2B = 320'h0;
  parameter [319:0] INITVAL_2C = 320'h0;
  parameter [319:0] INITVAL_2D = 320'h0;
  parameter [319:0] INITVAL_2E = 320'h0;
  parameter [319:0] INITVAL_2F = 320'h0;
  parameter [319:0] INITVAL_30 = 320'h0;
  parameter [319:0] INITVAL_31 = 320'h0;
  parameter [319:0] INITVAL_32 = 320'h0;
  parameter [319:0] INITVAL_33 = 320'h0;
  parameter [319:0] INITVAL_34 = 320'h0;
  parameter [319:0] INITVAL_35 = 320'h0;
  parameter [319:0] INITVAL_36 = 320'h0;
  parameter [319:0] INITVAL_37 = 320'h0;
  parameter [319:0] INITVAL_38 = 320'h0;
  parameter [319:0] INITVAL_39 = 320'h0;
  parameter [319:0] INITVAL_3A = 320'h0;
  parameter [319:0] INITVAL_3B = 320'h0;
  parameter [319:0] INITVAL_3C = 320'h0;
  parameter [319:0] INITVAL_3D = 320'h0;
  parameter [319:0] INITVAL_3E = 320'h0;
  parameter [319:0] INITVAL_3F = 320'h0;

  localparam [64*320-1:0] InitVal = {
    INITVAL_3F, INITVAL_3E, INITVAL_3D, INITVAL_3C, INITVAL_3B, INITVAL_3A, INITVAL_39, INITVAL_38,
    INITVAL_37, INITVAL_36, INITVAL_35, INITVAL_34, INITVAL_33, INITVAL_32, INITVAL_31, INITVAL_30,
    INITVAL_2F, INITVAL_2E, INITVAL_2D, INITVAL_2C, INITVAL_2B, INITVAL_2A, INITVAL_29, INITVAL_28,
    INITVAL_27, INITVAL_26, INITVAL_25, INITVAL_24, INITVAL_23, INITVAL_22, INITVAL_21, INITVAL_20,
    INITVAL_1F, INITVAL_1E, INITVAL_1D, INITVAL_1C, INITVAL_1B, INITVAL_1A, INITVAL_19, INITVAL_18,
    INITVAL_17, INITVAL_16, INITVAL_15, INITVAL_14, INITVAL_13, INITVAL_12, INITVAL_11, INITVAL_10,
    INITVAL_0F, INITVAL_0E, INITVAL_0D, INITVAL_0C, INITVAL_0B, INITVAL_0A, INITVAL_09, INITVAL_08,
    INITVAL_07, INITVAL_06, INITVAL_05, INITVAL_04, INITVAL_03, INITVAL_02, INITVAL_01, INITVAL_00};

  initial begin
    if (REGMODE_A != "NOREG" || REGMODE_B != "NOREG" || CSDECODE_A != "0b000" || CSDECODE_B != "0b000"
        || CLKAMUX != "CLKA" || CLKBMUX != "CLKB" || WRITEMODE_A == "WRITETHROUGH" || WRITEMODE_B == "WRITETHROUGH")
      $fatal(1, "DP16KD: output registers, chip selects, inverted clocks and write-through are not modelled");
    if ((DATA_WIDTH_A == 36) != (DATA_WIDTH_B == 36))
      $fatal(1, "DP16KD: a 36-bit RAM needs both ports at 36");
  end

  reg [8:0] mem [0:2047];
  integer row;
  initial
    for (row = 0; row < 1024; row = row + 1) begin
      mem[2 * row]     = InitVal[320 * (row / 16) + 20 * (row % 16) +: 9];
      mem[2 * row + 1] = InitVal[320 * (row / 16) + 20 * (row % 16) + 9 +: 9];
    end

  // The first unit of a word.
  function automatic [10:0] unit_of(input integer width, input [13:0] ad);
    case (width)
      36: unit_of = {ad[13:5], 2'b00};
      18: unit_of = {ad[13:4], 1'b0};
      default: unit_of = ad[13:3];
    endcase
  endfunction

  // The bits of unit k (0..3) a word covers.
  function automatic [8:0] mask_of(input integer width, input [13:0] ad, input integer k);
    case (width)
      36: mask_of = ad[k] ? 9'h1ff : 9'h0;
      18: mask_of = k < 2 && ad[k] ? 9'h1ff : 9'h0;
      9: mask_of = k == 0 ? 9'h1ff : 9'h0;
      4: mask_of = k == 0 ? 9'hf << (4 * ad[2]) : 9'h0;
      2: mask_of = k == 0 ? 9'h3 << (2 * ad[2:1]) : 9'h0;
      default: mask_of = k == 0 ? 9'h1 << ad[2:0] : 9'h0;
    endcase
  endfunction

  // A word's data spread over its units, as mask_of places it.
  function automatic [35:0] spread(input integer width, input [13:0] ad, input [35:0] data);
    case (width)
      36, 18, 9: spread = data;
      4: spread = {32'b0, data[3:0]} << (4 * ad[2]);
      2: spread = {34'b0, data[1:0]} << (2 * ad[2:1]);
      default: spread = {35'b0, data[0]} << ad[2:0];
    endcase
  endfunction

  function automatic [35:0] read_word(input integer width, input [13:0] ad);
    reg [10:0] u;
    begin
      u = unit_of(width, ad);
      case (width)
        36: read_word = {mem[u + 3], mem[u + 2], mem[u + 1], mem[u]};
        18: read_word = {18'b0, mem[u + 1], mem[u]};
        9: read_word = {27'b0, mem[u]};
        4: read_word = {32'b0, mem[u][4 * ad[2] +: 4]};
        2: read_word = {34'b0, mem[u][2 * ad[2:1] +: 2]};
        default: read_word = {35'b0, mem[u][ad[2:0]]};
      endcase
    end
  endfunction

  wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0};
  wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0};
  wire [35:0] wdata_a = DATA_WIDTH_A == 36 ? {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0, DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0}
                                           : {18'b0, DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
  wire [35:0] wdata_b = {18'b0, DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
  reg [17:0] doa = 18'b0, dob = 18'b0;
  assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = doa;
  assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob;

  wire [35:0] spread_a = spread(DATA_WIDTH_A, ada, wdata_a);
  wire [35:0] spread_b = spread(DATA_WIDTH_B, adb, wdata_b);
  wire [35:0] read_a = read_word(DATA_WIDTH_A, ada);
  wire [35:0] read_b = read_word(DATA_WIDTH_B, adb);
  integer ka, kb;
  always @(posedge CLKA)
    if (CEA && WEA) begin
      for (ka = 0; ka < 4; ka = ka + 1)
        if (mask_of(DATA_WIDTH_A, ada, ka) != 9'h0)
          mem[unit_of(DATA_WIDTH_A, ada) + ka] <= mem[unit_of(DATA_WIDTH_A, ada) + ka] & ~mask_of(DATA_WIDTH_A, ada, ka)
              | spread_a[9 * ka +: 9] & mask_of(DATA_WIDTH_A, ada, ka);
    end
  always @(posedge CLKB)
    if (CEB && WEB) begin
      for (kb = 0; kb < 4; kb = kb + 1)
        if (mask_of(DATA_WIDTH_B, adb, kb) != 9'h0)
          mem[unit_of(DATA_WIDTH_B, adb) + kb] <= mem[unit_of(DATA_WIDTH_B, adb) + kb] & ~mask_of(DATA_WIDTH_B, adb, kb)
              | spread_b[9 * kb +: 9] & mask_of(DATA_WIDTH_B, adb, kb);
    end

  generate
    if (DATA_WIDTH_B == 36) begin : g_wide
      always @(posedge CLKB)
        if (RSTB) {dob, doa} <= 36'b0;
        else if (CEB) {dob, doa} <= read_b;
    end else begin : g_dual
      always @(posedge CLKA)
        if (RSTA) doa <= 18'b0;
        else if (CEA && !(WEA && WRITEMODE_A == "NORMAL")) doa <= read_a[17:0];
      always @(posedge CLKB)
        if (RSTB) dob <= 18'b0;
        else if (CEB && !(WEB && WRITEMODE_B == "NORMAL")) dob <= read_b[17:0];
    end
  endgenerate
endmodule
