# Vivado non-project flow for the Arty A7 (run by `make bitstream BOARD=arty`
# when vivado is on PATH):
#   vivado -mode batch -source boards/arty/build.tcl -tclargs PART OUTDIR TOP RAM_HEX ROM_HEX \
#     "NAME=VALUE ..." FILES...
# with the wrapper's parameters as boards/boards.toml gives them (the
# generated PLATFORM_ARTY_<PART>_PARAMS).
# TOP is arty_top (block RAM only) or arty_ddr3_top (with LiteDRAM's core,
# one of FILES: its generated XDC's timing constraints are read, its pin
# placeholders left out, arty_ddr3.xdc placing the pins).
lassign $argv part outdir top ram_hex rom_hex params
set files [lrange $argv 6 end]
set generics {}
foreach p $params { lappend generics -generic $p }
set here [file dirname [info script]]
file mkdir $outdir
read_verilog -sv $files
read_xdc $here/arty.xdc
if {$top eq "arty_ddr3_top"} {
  read_xdc $here/arty_ddr3.xdc
  set core [lsearch -inline -glob $files *litedram_core.v]
  set in [open [file rootname $core].xdc]
  set out [open $outdir/litedram_timing.xdc w]
  foreach line [split [read $in] "\n"] {
    if {![string match "*LOC X*" $line]} { puts $out $line }
  }
  close $in
  close $out
  read_xdc $outdir/litedram_timing.xdc
}
synth_design -top $top -part $part {*}$generics \
  -generic "RamInit=\"$ram_hex\"" -generic "RomInit=\"$rom_hex\""
opt_design
place_design
route_design
report_timing_summary -file $outdir/timing.rpt
report_utilization -file $outdir/utilization.rpt
write_bitstream -force $outdir/arty.bit
