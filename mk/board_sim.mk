# The ULX3S board in simulation, on its pins (sim/board/board_main.cpp: the
# oscillator, the FTDI UART, the button and the SDRAM chip model), with the
# design exactly as the bitstream has it (boards.mk's ULX3S_READ: the same
# RTL, parameters, ROM and RAM images) but for one parameter: the console
# runs at BOARD_BAUD, 16 cycles a bit, so that an upload takes simulated
# milliseconds.
#  - ulx3s-rtl: ulx3s_top's RTL (wrapper, PLL and DDR-register models,
#    SoC, cache, SDRAM controller, the array) through sim/board/ulx3s_board.sv.
#  - ulx3s-gl: Yosys synth_ecp5's netlist of it, written back as Verilog and
#    run on Yosys's ECP5 cell models (sim/board/ecp5_models.v for those it
#    ships without behaviour); tools/gatelevel_pins.py splits the SDRAM's
#    data pins, left as tristate buffers, into in, out and enable. Verilator's
#    optimiser stays on (3 minutes; with -O0, as mk/unicaim.mk uses for the
#    array's generic-gate netlist, g++ needs over an hour and more memory
#    than the machine has for one unit), its model split into units of
#    moderate size.
BOARD_SIM_BUILD := $(BUILD)/board_sim
BOARD_BAUD       = $(shell echo $$(( $(strip $(ULX3S_MHZ)) * 1000000 / 16 )))
# The simulator at RTL for an array: ulx3s-rtl for the default build's,
# ulx3s-<array>-rtl for another (ulx3s-board_retr-rtl: the retrieval model's).
board_sim_rtl    = $(BOARD_SIM_BUILD)/ulx3s$(if $(filter-out board,$(1)),-$(1))-rtl
BOARD_SIM_RTL   := $(call board_sim_rtl,$(ULX3S_ARRAY))
BOARD_SIM_RETR  := $(call board_sim_rtl,board_retr)
GL_BUILD        := $(BUILD)/gatelevel
GL_NETLIST      := $(GL_BUILD)/ulx3s_gl.v
GL_SIM          := $(GL_BUILD)/ulx3s-gl
YOSYS_ECP5       = $(abspath $(dir $(shell command -v yosys))../share/yosys/ecp5)
BOARD_SIM_SRCS  := sim/board/board_main.cpp sim/sdram_model.cpp sim/uart_model.cpp
BOARD_SIM_DEPS  := $(BOARD_SIM_SRCS) sim/host_port.h sim/sdram_model.h sim/uart_model.h sim/board/ecp5_models.v
# $(1): the program's name.
BOARD_SIM_CFLAGS = -std=c++17 -DBOARD_CLK_HZ=$(strip $(ULX3S_MHZ))000000 -DBOARD_BAUD=$(BOARD_BAUD) \
                   -DBOARD_SIM_NAME='\"$(1)\"' -I$(abspath sim)

# $(1): the array.
define BOARD_SIM_RULE
$(call board_sim_rtl,$(1)): $(ULX3S_DESIGN) sim/board/ulx3s_board.sv $(BOARD_SIM_DEPS) mk/board_sim.mk mk/boards.mk | deps
	@mkdir -p $$(dir $$@)
	$$(call quiet,VERILATE,$$@)verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast --noassert \
	  -Wno-fatal -Werror-USERFATAL -Wno-lint -Wno-style --top-module ulx3s_board --prefix Vboard \
	  $$(call ulx3s_vparam,$(1),$$(BOARD_BAUD)) -CFLAGS "$$(call BOARD_SIM_CFLAGS,$$(notdir $$@))" \
	  -MAKEFLAGS "$$(SIM_OPT)" -Mdir $$@.obj -o $$(abspath $$@) \
	  $$(RTL_ALL) $$(abspath $$(wildcard boards/ulx3s/*.sv) sim/board/ulx3s_board.sv sim/board/ecp5_models.v) \
	  $$(abspath $$(BOARD_SIM_SRCS)) $$(call to_log,$$@.log)
endef
$(foreach a,$(sort $(ULX3S_ARRAY) board_retr),$(eval $(call BOARD_SIM_RULE,$(a))))

# The Arty A7-100T with its DDR3 (arty-rtl: sim/board/arty_board.sv, the
# SoC with Litedram on LiteDRAM's simulation core; boards.mk's arty-100t-ddr3
# images: arty_ddr3_top's configuration), the SoC at 50 MHz and the
# controller at 100 MHz.
ARTY_SIM_RTL   := $(BOARD_SIM_BUILD)/arty-rtl
ARTY_DDR3      := $(BUILD)/boards/arty-100t-ddr3
ARTY_SIM_MHZ   := $(PLATFORM_ARTY_100T_DDR3_CLK_MHZ)
ARTY_SIM_BAUD   = $(shell echo $$(( $(ARTY_SIM_MHZ) * 1000000 / 16 )))
ARTY_SIM_PARAMS := $(filter-out Baud=%,$(call arty_params,100t-ddr3))
$(ARTY_SIM_RTL): $(RTL_ALL) $(LITEDRAM_SIM) sim/board/arty_board.sv sim/board/litedram_model.sv $(BOARD_SIM_DEPS) $(ARTY_DDR3)/ram.hex \
                 $(ARTY_DDR3)/rom.hex $(GEN)/ucm_arrays.mk $(GEN)/soc_regs.h sim/elf_image.cpp sim/elf_image.h mk/board_sim.mk | deps
	@mkdir -p $(dir $@)
	$(call quiet,VERILATE,$@)verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast --noassert \
	  -Wno-fatal -Werror-USERFATAL -Wno-lint -Wno-style -Wno-TIMESCALEMOD --top-module arty_board --prefix Vboard \
	  $(addprefix -G,$(ARTY_SIM_PARAMS)) -GBaud=$(ARTY_SIM_BAUD) \
	  -G'RamInit="$(abspath $(ARTY_DDR3)/ram.hex)"' -G'RomInit="$(abspath $(ARTY_DDR3)/rom.hex)"' \
	  -CFLAGS "-std=c++17 -DBOARD_ARTY -DBOARD_CLK_HZ=$(ARTY_SIM_MHZ)000000 -DBOARD_BAUD=$(ARTY_SIM_BAUD) \
	  -DBOARD_SIM_NAME='\"arty-rtl\"' -I$(abspath sim) -I$(abspath $(GEN))" \
	  -MAKEFLAGS "$(SIM_OPT)" -Mdir $@.obj -o $(abspath $@) \
	  $(RTL_ALL) $(abspath $(LITEDRAM_SIM) sim/board/litedram_model.sv sim/board/arty_board.sv sim/board/board_main.cpp \
	  sim/uart_model.cpp sim/elf_image.cpp) \
	  $(call to_log,$@.log)

.PHONY: board-sim
board-sim: $(BOARD_SIM_RTL) $(ARTY_SIM_RTL)

$(GL_NETLIST): $(ULX3S_DESIGN) mk/board_sim.mk | deps
	@mkdir -p $(dir $@)
	$(call quiet,YOSYS,$@)yosys -q -l $(GL_BUILD)/yosys.log -p "$(call ULX3S_READ,$(ULX3S_ARRAY),$(BOARD_BAUD)); \
	  $(ECP5_SYNTH) -top ulx3s_top; rename -top ulx3s_top; write_verilog -noattr $@" $(call to_log,$(GL_BUILD)/yosys.out)

# Yosys's cell models without its DP16KD, which has no behaviour there
# (sim/board/ecp5_models.v models it).
GL_CELLS := $(GL_BUILD)/cells_sim.v
$(GL_CELLS): | deps
	@mkdir -p $(dir $@)
	sed '/^module DP16KD(/,/^endmodule/d' $(YOSYS_ECP5)/cells_sim.v > $@

# Its bidirectional pins split into in, out and enable for the harness.
$(GL_BUILD)/ulx3s_gl_pins.v: $(GL_NETLIST) tools/gatelevel_pins.py
	$(PYTHON) tools/gatelevel_pins.py $< -o $@

$(GL_SIM): $(GL_BUILD)/ulx3s_gl_pins.v $(GL_CELLS) $(BOARD_SIM_DEPS)
	$(call quiet,VERILATE,$@)verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint -Wno-style --output-split 30000 \
	  --top-module ulx3s_top --prefix Vboard -I$(YOSYS_ECP5) -CFLAGS "-O1 $(call BOARD_SIM_CFLAGS,ulx3s-gl)" \
	  -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0" -Mdir $(GL_BUILD)/obj -o ../ulx3s-gl \
	  $(abspath $(GL_BUILD)/ulx3s_gl_pins.v $(GL_CELLS) sim/board/ecp5_models.v $(BOARD_SIM_SRCS)) \
	  $(call to_log,$(GL_BUILD)/verilate.log)

.PHONY: gatelevel
gatelevel: $(GL_SIM)

# The checks: the board boots, takes an upload and runs the console, at RTL
# (in make test, tests/boot_tests.py) and after synthesis (make bench:
# the netlist simulates a few thousand cycles a second, so the upload alone
# takes ten minutes).
.PHONY: gatelevel-check
bench gatelevel-check: $(BENCH_DIR)/gatelevel.txt
$(BENCH_DIR)/gatelevel.txt: $(GL_SIM) $(FW_BUILD)/console.elf tools/bench/gatelevel_boot.py
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/bench/gatelevel_boot.py --sim $(GL_SIM) --app $(FW_BUILD)/console.elf > $@.tmp
	mv $@.tmp $@
	cat $@

# The boards' builds of the llm (llm_ulx3s.elf: the model, the state and
# the caches of keys and values in external memory behind the data cache)
# on their board simulators at RTL, uploaded through the bootloader:
# position 256 beside the block-RAM figure (mk/bench.mk's lm.txt), and the
# cache's hit rate. lm_ulx3s.txt: the ULX3S's SDR SDRAM at 40 MHz;
# lm_arty.txt: the Arty's DDR3 through LiteDRAM's simulation core (the SoC
# at 50 MHz, the controller at 100 MHz; a round trip across the clocks per
# cache line).
# $(1): the board, $(2): its board simulator, $(3): the longest silence
# (seconds; the Arty's simulator is about seven times slower).
define LM_BOARD_BENCH
$(BENCH_DIR)/lm_$(1).txt: $(2) $(FW_BUILD)/llm_ulx3s.elf $(BENCH_DIR)/lm.txt
	@mkdir -p $(BENCH_DIR)
	printf 'bench 256\nexit 0\n' > $$@.script
	$(PYTHON) tools/uartctl.py sim --sim $(2) --upload $(FW_BUILD)/llm_ulx3s.elf --script $$@.script \
	  --timeout $(3) 2>/dev/null | tr -d '\r' > $$@.raw
	awk '/^BENCH lm_(decode|matmul|attention|other)_cycles_pos256 / { print $$$$1, $$$$2 "_$(1)", $$$$3, $$$$4 } \
	     /^BENCH dcache_hit_pct_llm / { print $$$$1, $$$$2 "$(if $(filter-out ulx3s,$(1)),_$(1))", $$$$3, $$$$4 }' $$@.raw > $$@.tmp
	awk 'FNR == NR && $$$$2 == "lm_decode_cycles_pos256" { bram = $$$$3 } \
	     FNR != NR && $$$$2 == "lm_decode_cycles_pos256_$(1)" { printf "BENCH lm_decode_$(1)_vs_bram %.2f x\n", $$$$3 / bram }' \
	  $(BENCH_DIR)/lm.txt $$@.tmp > $$@.ratio
	cat $$@.ratio >> $$@.tmp
	rm $$@.raw $$@.ratio $$@.script && mv $$@.tmp $$@
	@cat $$@
endef
$(eval $(call LM_BOARD_BENCH,ulx3s,$(BOARD_SIM_RTL),1200))
$(eval $(call LM_BOARD_BENCH,arty,$(ARTY_SIM_RTL),7200))
bench: $(BENCH_DIR)/lm_ulx3s.txt $(BENCH_DIR)/lm_arty.txt

# SmolLM2 (mk/smollm2.mk) on the Arty A7-100T's board simulator (about an
# hour and a half): the image and the saved context of positions 0-255
# preloaded into the DDR3 model, the forward pass at position 256 and a
# story's tokens against the host's.
.PHONY: bench-smol-arty
bench bench-smol-arty: $(BENCH_DIR)/smol_arty.txt
$(BENCH_DIR)/smol_arty.txt: $(ARTY_SIM_RTL) $(FW_BUILD)/llm_smol_pos256.elf $(LLM_BUILD)/llm_host \
                            tools/llm/smol_arty_bench.py tools/llm/smol_soc_bench.py
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/llm/smol_arty_bench.py --sim $(ARTY_SIM_RTL) --elf $(FW_BUILD)/llm_smol_pos256.elf \
	  --host $(LLM_BUILD)/llm_host --image $(SMOL_IMAGE) --token256 $(SMOL_CONTEXT:.bin=.token) \
	  --fast $(BENCH_DIR)/smol_soc.txt > $@.tmp
	mv $@.tmp $@
	cat $@
