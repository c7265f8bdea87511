# The Arty A7's DDR3L (MT41K128M16) for arty_ddr3_top, read after arty.xdc
# (pins as Digilent's board files and LiteX's Arty platform give them; bank
# 34 at 1.35 V with its internal reference). LiteDRAM's generated XDC has
# placeholders for the pins; boards/arty/build.tcl reads its timing
# constraints (its reset synchronisers) from it.
set_property -dict {IOSTANDARD SSTL135 SLEW FAST} [get_ports {ddram_a[*] ddram_ba[*] ddram_ras_n ddram_cas_n \
  ddram_we_n ddram_cs_n ddram_dm[*] ddram_cke ddram_odt ddram_reset_n}]
set_property -dict {IOSTANDARD SSTL135 SLEW FAST IN_TERM UNTUNED_SPLIT_40} [get_ports {ddram_dq[*]}]
set_property -dict {IOSTANDARD DIFF_SSTL135 SLEW FAST} [get_ports {ddram_dqs_p[*] ddram_dqs_n[*] ddram_clk_p ddram_clk_n}]

set ddram_a_pins {R2 M6 N4 T1 N6 R7 V6 U7 R8 V7 R6 U6 T6 T8}
for {set i 0} {$i < 14} {incr i} { set_property PACKAGE_PIN [lindex $ddram_a_pins $i] [get_ports "ddram_a[$i]"] }
set ddram_ba_pins {R1 P4 P2}
for {set i 0} {$i < 3} {incr i} { set_property PACKAGE_PIN [lindex $ddram_ba_pins $i] [get_ports "ddram_ba[$i]"] }
set ddram_dq_pins {K5 L3 K3 L6 M3 M1 L4 M2 V4 T5 U4 V5 V1 T3 U3 R3}
for {set i 0} {$i < 16} {incr i} { set_property PACKAGE_PIN [lindex $ddram_dq_pins $i] [get_ports "ddram_dq[$i]"] }
set_property PACKAGE_PIN P3 [get_ports ddram_ras_n]
set_property PACKAGE_PIN M4 [get_ports ddram_cas_n]
set_property PACKAGE_PIN P5 [get_ports ddram_we_n]
set_property PACKAGE_PIN U8 [get_ports ddram_cs_n]
set_property PACKAGE_PIN L1 [get_ports {ddram_dm[0]}]
set_property PACKAGE_PIN U1 [get_ports {ddram_dm[1]}]
set_property PACKAGE_PIN N2 [get_ports {ddram_dqs_p[0]}]
set_property PACKAGE_PIN N1 [get_ports {ddram_dqs_n[0]}]
set_property PACKAGE_PIN U2 [get_ports {ddram_dqs_p[1]}]
set_property PACKAGE_PIN V2 [get_ports {ddram_dqs_n[1]}]
set_property PACKAGE_PIN U9 [get_ports ddram_clk_p]
set_property PACKAGE_PIN V9 [get_ports ddram_clk_n]
set_property PACKAGE_PIN N5 [get_ports ddram_cke]
set_property PACKAGE_PIN R5 [get_ports ddram_odt]
set_property PACKAGE_PIN K6 [get_ports ddram_reset_n]
set_property INTERNAL_VREF 0.675 [get_iobanks 34]

# The SoC's clock (arty_soc's MMCM) and the controller's are crossed only
# through cdc_handshake (litedram_port, dramctl): no timing between them.
set_clock_groups -asynchronous \
  -group [get_clocks -of_objects [get_pins u_arty/u_mmcm/CLKOUT0]] \
  -group [get_clocks -of_objects [get_pins -hierarchical -filter {NAME =~ u_dram/* && REF_PIN_NAME =~ CLKOUT*}]]
