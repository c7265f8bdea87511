# Vivado non-project flow for the Arty A7 (run by `make bitstream BOARD=arty`
# when vivado is on PATH):
#   vivado -mode batch -source boards/arty/build.tcl -tclargs PART OUTDIR TOP RAM_BYTES RAM_HEX ROM_HEX \
#     "UCM_BANKS UCM_SLOTS UCM_DIM UCM_CELL_BITS UCM_Q_BITS UCM_ADC_BITS UCM_ADC_COUNT UCM_LANES" FILES...
# TOP is arty_top (block RAM only) or arty_ddr3_top (with LiteDRAM's core,
# one of FILES: its generated XDC's timing constraints are read, its pin
# placeholders left out, arty_ddr3.xdc placing the pins).
lassign $argv part outdir top ram_bytes ram_hex rom_hex ucm_shape
lassign $ucm_shape ucm_banks ucm_slots ucm_dim ucm_cell_bits ucm_q_bits ucm_adc_bits ucm_adc_count ucm_lanes
set files [lrange $argv 7 end]
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
synth_design -top $top -part $part \
  -generic RamBytes=$ram_bytes -generic UcmBanks=$ucm_banks -generic UcmSlots=$ucm_slots \
  -generic UcmDim=$ucm_dim -generic UcmLanes=$ucm_lanes -generic UcmCellBits=$ucm_cell_bits \
  -generic UcmQBits=$ucm_q_bits -generic UcmAdcBits=$ucm_adc_bits -generic UcmAdcCount=$ucm_adc_count \
  -generic "RamInit=\"$ram_hex\"" -generic "RomInit=\"$rom_hex\""
opt_design
place_design
route_design
report_timing_summary -file $outdir/timing.rpt
report_utilization -file $outdir/utilization.rpt
write_bitstream -force $outdir/arty.bit
