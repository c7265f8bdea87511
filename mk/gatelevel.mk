# The ULX3S design after synthesis, simulated: Yosys synth_ecp5 as for the
# bitstream (the same RTL, parameters, ROM and RAM images), written back as
# Verilog and run with Yosys's ECP5 cell models (cells_sim.v, and
# sim/gatelevel/ecp5_models.v for the cells it ships only as blackboxes) on
# the board's pins (sim/gatelevel/gl_main.cpp; tools/gatelevel_pins.py
# splits the SDRAM's data pins, which synth_ecp5 leaves as tristate
# buffers, into in, out and enable). One parameter differs: the
# console runs at GL_BAUD, 16 cycles a bit, so that an upload takes
# simulated milliseconds. Verilator's optimiser stays on (3 minutes; with
# -O0, as mk/unicaim.mk uses for the array's generic-gate netlist, g++
# needs over an hour and more memory than the machine has for one unit),
# its model split into units of moderate size.
GL_BUILD   := $(BUILD)/gatelevel
GL_BAUD    := $(shell echo $$(( $(strip $(ULX3S_MHZ)) * 1000000 / 16 )))
GL_NETLIST := $(GL_BUILD)/ulx3s_gl.v
GL_SIM     := $(GL_BUILD)/ulx3s-gl
YOSYS_ECP5  = $(abspath $(dir $(shell command -v yosys))../share/yosys/ecp5)

$(GL_NETLIST): $(RTL_ALL) $(GEN)/ucm_arrays.mk $(wildcard boards/ulx3s/*.sv) $(ULX3S_BUILD)/rom.hex \
               $(ULX3S_BUILD)/ram.hex mk/gatelevel.mk | deps
	@mkdir -p $(dir $@)
	$(call quiet,YOSYS,$@)yosys -q -l $(GL_BUILD)/yosys.log -p "$(call ULX3S_READ,-set Baud $(GL_BAUD)); \
	  $(ECP5_SYNTH) -top ulx3s_top; rename -top ulx3s_top; write_verilog -noattr $@" $(call to_log,$(GL_BUILD)/yosys.out)

# Its bidirectional pins split into in, out and enable for the harness.
$(GL_BUILD)/ulx3s_gl_pins.v: $(GL_NETLIST) tools/gatelevel_pins.py
	$(PYTHON) tools/gatelevel_pins.py $< -o $@

$(GL_SIM): $(GL_BUILD)/ulx3s_gl_pins.v sim/gatelevel/ecp5_models.v sim/gatelevel/gl_main.cpp sim/host_port.h sim/sdram_model.cpp \
           sim/sdram_model.h sim/uart_model.cpp sim/uart_model.h
	$(call quiet,VERILATE,$@)verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint -Wno-style --output-split 30000 \
	  --top-module ulx3s_top -I$(YOSYS_ECP5) -CFLAGS "-O1 -std=c++17 -DGL_CLK_HZ=$(strip $(ULX3S_MHZ))000000 -DGL_BAUD=$(GL_BAUD) \
	  -I$(abspath sim)" -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0" -Mdir $(GL_BUILD)/obj -o ../ulx3s-gl \
	  $(abspath $(GL_BUILD)/ulx3s_gl_pins.v) $(YOSYS_ECP5)/cells_sim.v $(abspath sim/gatelevel/ecp5_models.v) \
	  $(abspath sim/gatelevel/gl_main.cpp sim/sdram_model.cpp sim/uart_model.cpp) $(call to_log,$(GL_BUILD)/verilate.log)

.PHONY: gatelevel
gatelevel: $(GL_SIM)

# The check: the netlist boots, takes an upload and runs the console. Not
# in make bench yet: the netlist does not print the boot ROM's banner in
# this simulation (docs/boards.md).
.PHONY: gatelevel-check
gatelevel-check: $(GL_SIM) $(FW_BUILD)/console.elf
	$(PYTHON) tools/bench/gatelevel_boot.py --sim $(GL_SIM) --app $(FW_BUILD)/console.elf
