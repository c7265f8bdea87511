// ECP5 PLL from the ULX3S's 25 MHz oscillator to the system clock.
// Divider settings for 25 MHz in (VCO 600 MHz), CLKI_DIV / CLKFB_DIV /
// CLKOP_DIV: 30 MHz = 5/6/20, 40 MHz = 5/8/15, 50 MHz = 1/2/12.
module ulx3s_pll #(
  parameter int unsigned OutMhz = 30
) (
  input  logic clk_25mhz_i,
  output logic clk_o,
  output logic locked_o
);

  localparam int unsigned ClkiDiv  = (OutMhz == 50) ? 1 : 5;
  localparam int unsigned ClkfbDiv = (OutMhz == 50) ? 2 : (OutMhz == 40) ? 8 : 6;
  localparam int unsigned ClkopDiv = (OutMhz == 50) ? 12 : (OutMhz == 40) ? 15 : 20;

  (* FREQUENCY_PIN_CLKI = "25" *)
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
  (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA       ("DISABLED"),
    .INTFB_WAKE       ("DISABLED"),
    .STDBY_ENABLE     ("DISABLED"),
    .DPHASE_SOURCE    ("DISABLED"),
    .OUTDIVIDER_MUXA  ("DIVA"),
    .CLKOP_ENABLE     ("ENABLED"),
    .CLKI_DIV         (ClkiDiv),
    .CLKOP_DIV        (ClkopDiv),
    .CLKOP_CPHASE     (ClkopDiv / 2 - 1 + (ClkopDiv % 2)),
    .CLKOP_FPHASE     (0),
    .FEEDBK_PATH      ("CLKOP"),
    .CLKFB_DIV        (ClkfbDiv)
  ) u_pll (
    .RST       (1'b0),
    .STDBY     (1'b0),
    .CLKI      (clk_25mhz_i),
    .CLKOP     (clk_o),
    .CLKFB     (clk_o),
    .CLKINTFB  (),
    .PHASESEL0 (1'b0),
    .PHASESEL1 (1'b0),
    .PHASEDIR  (1'b1),
    .PHASESTEP (1'b1),
    .PHASELOADREG (1'b1),
    .PLLWAKESYNC  (1'b0),
    .ENCLKOP   (1'b0),
    .LOCK      (locked_o)
  );

endmodule : ulx3s_pll
