# Benchmarks and synthesis counts. Every figure is a line
# "BENCH <name> <value> <unit>", collected in $(BENCH_DIR)/*.txt.
BENCH_DIR   := $(BUILD)/bench
SYNTH_DIR   := $(BUILD)/synth
# ECP5 synthesis (counts, the array's and the ULX3S bitstream): -abc9
# -nowidelut maps this design to the fewest LUT4s (ABC's LUT5+ packing
# roughly doubles them); the default options are reported too, as
# core_*_ecp5default, for comparison with other cores' published figures.
ECP5_SYNTH  := synth_ecp5 -abc9 -nowidelut
ECP5DEF_SYNTH := synth_ecp5
XC7_SYNTH   := synth_xilinx -family xc7 -flatten
# The SoC as counted: the Arty A7-35T's clock, console and 64 KiB RAM, the
# 16 KiB ROM (block RAM either way), without the array (counted on its own:
# bench-ucm).
SYNTH_SOC_PARAMS = chparam $(patsubst -G%,-set %,$(subst =, ,$(call soc_g,PLATFORM_ARTY_35T) $(UCM_NONE_SOC_G))) soc_top;

.PHONY: synth bench bench-sim bench-cpu
synth: $(BENCH_DIR)/synth.txt
	@cat $<

$(SYNTH_DIR)/%.json: $(RTL_ALL) mk/bench.mk | deps
	@mkdir -p $(SYNTH_DIR)
	$(eval parts := $(subst _, ,$*))
	$(eval top := $(if $(filter core,$(word 1,$(parts))),cpu_core,soc_top))
	$(eval flow := $(if $(filter ecp5,$(word 2,$(parts))),$(ECP5_SYNTH),$(if $(filter ecp5default,$(word 2,$(parts))),$(ECP5DEF_SYNTH),$(XC7_SYNTH))))
	yosys -q -l $(SYNTH_DIR)/$*.log -p "read_verilog -sv $(RTL_ALL); \
	  $(if $(filter soc,$(word 1,$(parts))),$(SYNTH_SOC_PARAMS)) $(flow) -top $(top); \
	  tee -q -o $@ stat -json"

# The core without its packed dot products: the extension's cost.
$(SYNTH_DIR)/core_nodot_ecp5.json: $(RTL_ALL) mk/bench.mk | deps
	@mkdir -p $(SYNTH_DIR)
	yosys -q -l $(SYNTH_DIR)/core_nodot_ecp5.log -p "read_verilog -sv $(RTL_ALL); \
	  chparam -set DotProducts 0 cpu_core; $(ECP5_SYNTH) -top cpu_core; tee -q -o $@ stat -json"

$(BENCH_DIR)/synth.txt: $(foreach d,core soc,$(foreach a,ecp5 ecp5default xc7,$(SYNTH_DIR)/$(d)_$(a).json)) \
                        $(SYNTH_DIR)/core_nodot_ecp5.json
	@mkdir -p $(BENCH_DIR)
	@for d in core soc; do for a in ecp5 xc7; do \
	  $(PYTHON) tools/synth/yosys_stat.py $(SYNTH_DIR)/$${d}_$$a.json --prefix $$d --arch $$a; \
	done; \
	$(PYTHON) tools/synth/yosys_stat.py $(SYNTH_DIR)/$${d}_ecp5default.json --prefix $$d --arch ecp5 \
	  | sed 's/_ecp5 /_ecp5default /'; done > $@
	$(PYTHON) tools/synth/yosys_stat.py $(SYNTH_DIR)/core_nodot_ecp5.json --prefix core_nodot --arch ecp5 >> $@

# Simulated-CPU figures: cpubench's own BENCH lines, with code in RAM and
# (cpubench_ext_*) in external memory behind the instruction cache.
$(BENCH_DIR)/cpu.txt: $(SIM_BIN) $(FW_BUILD)/cpubench.elf $(FW_BUILD)/cpubench_ext.elf
	@mkdir -p $(BENCH_DIR)
	$(SIM_BIN) --elf $(FW_BUILD)/cpubench.elf | tee $(BENCH_DIR)/cpubench.out
	$(SIM_BIN) --elf $(FW_BUILD)/cpubench_ext.elf | tee $(BENCH_DIR)/cpubench_ext.out
	@{ grep '^BENCH' $(BENCH_DIR)/cpubench.out; \
	   grep '^BENCH' $(BENCH_DIR)/cpubench_ext.out | sed 's/^BENCH cpubench_/BENCH cpubench_ext_/'; } > $@

# The simulator's speed in CPU time (tools/bench/sim_speed.py): the llm
# console's `bench 16` (the array idle, as in most runs) three times on this
# tree's simulator, on the same without the array, and on the simulator of
# SIM_SPEED_BASE (the commit before the speed work) built beside it.
SIM_SPEED_BASE ?= ded06484b3b344c4ab0aa3efa030d9003fbc8603
SIM_BASE_DIR   := $(BUILD)/sim_base
$(SIM_BASE_DIR)/unicaim-sim:
	rm -rf $(SIM_BASE_DIR)/src && mkdir -p $(SIM_BASE_DIR)/src
	git archive $(SIM_SPEED_BASE) | tar -x -C $(SIM_BASE_DIR)/src
	$(MAKE) -C $(SIM_BASE_DIR)/src build/sim/unicaim-sim
	cp $(SIM_BASE_DIR)/src/build/sim/unicaim-sim $@
# The program they all run: the llm console with the dot products in C (the
# base commit's core has none), built by a make of its own.
SIM_SPEED_ELF  := $(BUILD)/nodot/fw/llm.elf
$(SIM_SPEED_ELF): FORCE
	$(MAKE) BUILD=$(BUILD)/nodot UCX_DOT=0 $@
.PHONY: FORCE
FORCE:
$(BENCH_DIR)/sim_speed.txt: $(SIM_BIN) $(SIM_BIN_NOARRAY) $(SIM_BASE_DIR)/unicaim-sim $(SIM_SPEED_ELF) \
                            tools/bench/sim_speed.py
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/bench/sim_speed.py --elf $(SIM_SPEED_ELF) --input 'bench 16\nexit 0\n' --rounds 3 \
	  sim=$(SIM_BIN) sim_noarray=$(SIM_BIN_NOARRAY) sim_base=$(SIM_BASE_DIR)/unicaim-sim > $@.tmp
	mv $@.tmp $@
	@cat $@
bench: $(BENCH_DIR)/sim_speed.txt

# The functional simulator's speed on the same console command, with the
# dot products (issue target: 50 M instructions a CPU-second).
$(BENCH_DIR)/iss_speed.txt: $(ISS_BIN) $(FW_BUILD)/llm.elf tools/bench/sim_speed.py
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/bench/sim_speed.py --elf $(FW_BUILD)/llm.elf --input 'bench 64\nexit 0\n' --rounds 3 \
	  iss=$(ISS_BIN) > $@.tmp
	mv $@.tmp $@
	@cat $@
bench: $(BENCH_DIR)/iss_speed.txt

# Last, the measured figures go into the docs' bench blocks.
bench: $(BENCH_DIR)/cpu.txt $(BENCH_DIR)/synth.txt
	@cat $(filter %.txt,$^)
	$(PYTHON) tools/bench/update_docs.py $(BENCH_DIR) README.md $(wildcard docs/*.md docs/soc/*.md)

# Language model: integer vs fp32 agreement on the host (the test set, seeds
# 17-80: 64 sequences of 512 tokens, with a bootstrap interval); fp32
# against itself with int8 queries/keys/values and with 12-bit keys (where the integer path's disagreement comes from); forward-pass
# cycles on the simulated SoC over a whole story (the llm console's `bench`:
# 512 positions, about five minutes of simulation): positions 16, 256 and
# 500 by phase, the mean over the decoded positions and tokens/s from it at
# the ULX3S's clock and at 50 MHz (the Arty's), and every 16th position in
# lm_curve.csv.
$(BENCH_DIR)/lm.txt $(BENCH_DIR)/lm_curve.csv &: $(LLM_BUILD)/llm_eval $(LLM_IMAGE) $(SIM_BIN) $(FW_BUILD)/llm.elf \
                                                tests/fw/llm_bench.txt
	@mkdir -p $(BENCH_DIR)
	$(LLM_BUILD)/llm_eval $(MODEL) $(LLM_IMAGE) agree 64 512 17 > $(BENCH_DIR)/lm.txt.tmp
	for bits in "8 8 8" "0 8 0" "8 12 8"; do \
	  $(LLM_BUILD)/llm_eval $(MODEL) $(LLM_IMAGE) rounded 16 512 $$bits >> $(BENCH_DIR)/lm.txt.tmp || exit 1; done
	$(PYTHON) tools/uartctl.py sim --elf $(FW_BUILD)/llm.elf --script tests/fw/llm_bench.txt \
	  --timeout 1200 > $(BENCH_DIR)/lm_story.raw
	tr -d '\r' < $(BENCH_DIR)/lm_story.raw > $(BENCH_DIR)/lm_story.log
	grep '^BENCH' $(BENCH_DIR)/lm_story.log >> $(BENCH_DIR)/lm.txt.tmp
	awk '$$2 ~ /^lm_decode_cycles_mean_/ { \
	  printf "BENCH lm_tok_per_s_mean_at_%dmhz %.2f tok_per_s\n", $(strip $(ULX3S_MHZ)), $(strip $(ULX3S_MHZ)) * 1e6 / $$3; \
	  printf "BENCH lm_tok_per_s_mean_at_50mhz %.2f tok_per_s\n", 50e6 / $$3 }' \
	  $(BENCH_DIR)/lm_story.log >> $(BENCH_DIR)/lm.txt.tmp
	(echo "pos,cycles,matmul,attention,other"; \
	 awk '$$1 == "CURVE" { print $$3 "," $$5 "," $$7 "," $$9 "," $$11 }' $(BENCH_DIR)/lm_story.log) \
	  > $(BENCH_DIR)/lm_curve.csv
	mv $(BENCH_DIR)/lm.txt.tmp $(BENCH_DIR)/lm.txt

bench: $(BENCH_DIR)/lm.txt

# docs/llm.md's console session, as the simulated SoC answers it now.
$(BENCH_DIR)/llm_session.md: $(SIM_BIN) $(FW_BUILD)/llm.elf tests/fw/llm_session.txt
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/uartctl.py sim --elf $(FW_BUILD)/llm.elf --script tests/fw/llm_session.txt \
	  --timeout 600 > $@.raw
	(echo '```text'; tr -d '\r' < $@.raw | grep -v '^SIM \|^$$'; echo '```') > $@.tmp
	rm $@.raw && mv $@.tmp $@
bench: $(BENCH_DIR)/llm_session.md

# Bootloader upload speed, from the bootloader's own count of cycles for the
# data phase: at the simulator's 3.125 Mbaud and, with a second simulator
# build, at a board console's rate (BOARD_CONSOLE_BAUD).
$(BENCH_DIR)/boot.txt: $(SIM_BIN) $(SIM_BIN_CONSOLE) $(FW_BUILD)/bootrom.elf $(FW_BUILD)/console.elf \
                       tools/bench/boot_upload.py
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/bench/boot_upload.py --sim $(SIM_BIN) --boot $(FW_BUILD)/bootrom.elf \
	  --app $(FW_BUILD)/console.elf --name boot_upload_kbps_fast > $@.tmp
	$(PYTHON) tools/bench/boot_upload.py --sim $(SIM_BIN_CONSOLE) --boot $(FW_BUILD)/bootrom.elf \
	  --app $(FW_BUILD)/console.elf --name boot_upload_kbps_$(BOARD_CONSOLE_BAUD) >> $@.tmp
	mv $@.tmp $@

bench: $(BENCH_DIR)/boot.txt
