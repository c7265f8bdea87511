# UniCAIM block: randomized co-simulation of the RTL against the golden
# model, one Verilator build per parameter set.
UCM_RTL    := rtl/common/sdp_ram.sv rtl/common/lut_ram.sv $(RTL_UCM)
UCM_LIB    := firmware/lib/unicaim/ucm_model.c firmware/lib/unicaim/ucm_arith.c
UCM_BUILD  := $(BUILD)/unicaim
UCM_CFGS   := tiny sign mid board paper
UCM_COSIMS := $(UCM_CFGS:%=$(UCM_BUILD)/cosim_%)

# The golden model is C: compiled by the host C compiler, linked into each build.
UCM_LIB_OBJS := $(UCM_LIB:firmware/lib/unicaim/%.c=$(UCM_BUILD)/lib/%.o)
$(UCM_BUILD)/lib/%.o: firmware/lib/unicaim/%.c $(wildcard firmware/lib/unicaim/*.h) $(GEN)/soc_regs.h
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)$(HOST_CC) -std=c11 -O2 -g -Wall -Wextra -Werror -I$(GEN) -c $< -o $@

ucm_gparams = $(UCM_$(call ucm_name,$(1))_BLOCK_G)

define UCM_COSIM_RULE
$(UCM_BUILD)/cosim_$(1): tests/unicaim/ucm_cosim.cpp $(UCM_RTL) $(UCM_LIB_OBJS) $(RTL_PKGS) mk/unicaim.mk $(GEN)/ucm_arrays.mk | deps
	@mkdir -p $(UCM_BUILD)
	rm -f $$@  # Verilator's make does not see the model's objects change
	$(call quiet,VERILATE,$$@)verilator --cc --exe --build -O3 -j 2 --assert -Wno-fatal -Werror-USERFATAL --top-module ucm_block $(call ucm_gparams,$(1)) \
	  -CFLAGS "-O2 -I$(abspath $(GEN)) -I$(abspath firmware/lib/unicaim)" \
	  -Mdir $(UCM_BUILD)/obj_$(1) -o ../cosim_$(1) $(RTL_PKGS) $(UCM_RTL) \
	  $(abspath tests/unicaim/ucm_cosim.cpp) $(abspath $(UCM_LIB_OBJS)) $(call to_log,$(UCM_BUILD)/obj_$(1).log)
endef
$(foreach c,$(UCM_CFGS),$(eval $(call UCM_COSIM_RULE,$(c))))


# The modeled energy/latency report (host; the golden model through the driver).
UCM_REPORT := $(UCM_BUILD)/ucm_report
UCM_HOST_SRCS := $(UCM_LIB) $(addprefix firmware/lib/unicaim/,ucm.c ucm_energy.c ucm_baselines.c)
$(UCM_REPORT): tools/unicaim/ucm_report.c $(UCM_HOST_SRCS) $(wildcard firmware/lib/unicaim/*.h) $(GEN)/soc_regs.h \
               $(GEN)/ucm_arrays.h
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)$(HOST_CC) -std=c11 -O2 -g -Wall -Wextra -Werror -I$(GEN) -Ifirmware/lib/unicaim \
	  tools/unicaim/ucm_report.c $(UCM_HOST_SRCS) -o $@

# Benchmarks: the block's emulation cost and attention speedup on the paper-
# sized array (one run of firmware/apps/ucmbench), the model report (the
# paper's comparison, tools/unicaim/ucm_report.c, with its CSV), and
# Yosys counts for the board configuration (20 x 128 x 8, the stories260K
# cache of 128 tokens). The paper's 576 x 128 array takes 22 minutes:
# make build/synth/ucm_paper_ecp5.json (counts in docs/unicaim.md).
$(BENCH_DIR)/ucm.txt $(BENCH_DIR)/ucm_model.csv &: $(SIM_BIN_PAPER) $(FW_BUILD)/ucmbench.elf $(UCM_REPORT)
	@mkdir -p $(BENCH_DIR)
	$(SIM_BIN_PAPER) --elf $(FW_BUILD)/ucmbench.elf --max-cycles 100000000 | grep '^BENCH' > $(BENCH_DIR)/ucm.txt.tmp
	$(UCM_REPORT) $(BENCH_DIR)/ucm_model.csv >> $(BENCH_DIR)/ucm.txt.tmp
	mv $(BENCH_DIR)/ucm.txt.tmp $(BENCH_DIR)/ucm.txt

# The cost model's coefficients without a primary source, each across its
# range at n = 2048 (docs/unicaim.md's sensitivity table; the BENCH ranges
# and the combinations that give the paper's 16.7x latency).
$(BENCH_DIR)/ucm_sensitivity.txt $(BENCH_DIR)/ucm_sensitivity.md &: $(UCM_REPORT)
	@mkdir -p $(BENCH_DIR)
	$(UCM_REPORT) --sensitivity > $(BENCH_DIR)/ucm_sensitivity.txt
	{ grep '^|' $(BENCH_DIR)/ucm_sensitivity.txt; echo; \
	  sed -n 's/^PAPER /- /p' $(BENCH_DIR)/ucm_sensitivity.txt; } > $(BENCH_DIR)/ucm_sensitivity.md

# The array's attention speedup at each k in one table: the paper's
# geometry (ucm.txt) beside stories260K's attention phase at its last
# position, dense and through the array (the llm console, ~6 minutes).
$(BENCH_DIR)/attn_speedup.txt $(BENCH_DIR)/attn_speedup.md &: $(BENCH_DIR)/ucm.txt $(SIM_BIN) $(FW_BUILD)/llm.elf \
                                                            tests/fw/llm_kv_speed.txt tools/bench/attn_speedup.py
	$(PYTHON) tools/uartctl.py sim --elf $(FW_BUILD)/llm.elf --script tests/fw/llm_kv_speed.txt \
	  --timeout 1200 > $(BENCH_DIR)/llm_kv_speed.raw
	tr -d '\r' < $(BENCH_DIR)/llm_kv_speed.raw > $(BENCH_DIR)/llm_kv_speed.log
	$(PYTHON) tools/bench/attn_speedup.py $(BENCH_DIR)/ucm.txt $(BENCH_DIR)/llm_kv_speed.log \
	  $(BENCH_DIR)/attn_speedup.txt $(BENCH_DIR)/attn_speedup.md

UCM_SYNTH_board := chparam $(UCM_BOARD_BLOCK_CH) ucm_block; $(ECP5_SYNTH) -top ucm_block
# The paper's array: synthesis skips the SAT-based resource sharing, which
# had not finished after an hour (22 minutes and ~12 GB without it).
UCM_SYNTH_paper := chparam $(UCM_PAPER_BLOCK_CH) ucm_block; \
                   synth_ecp5 -top ucm_block -run begin:coarse; script tools/synth/ecp5_coarse_noshare.ys; \
                   synth_ecp5 -top ucm_block -run map_ram:
$(SYNTH_DIR)/ucm_%_ecp5.json: $(RTL_PKGS) $(UCM_RTL) mk/unicaim.mk $(GEN)/ucm_arrays.mk tools/synth/ecp5_coarse_noshare.ys | deps
	@mkdir -p $(SYNTH_DIR)
	yosys -q -l $(SYNTH_DIR)/ucm_$*.log -p "read_verilog -sv $(RTL_PKGS) $(UCM_RTL); \
	  $(UCM_SYNTH_$*); tee -q -o $@ stat -json"

$(BENCH_DIR)/ucm_synth.txt: $(SYNTH_DIR)/ucm_board_ecp5.json
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/synth/yosys_stat.py $< --prefix ucm_board --arch ecp5 > $@

.PHONY: bench-ucm
bench-ucm: $(BENCH_DIR)/ucm.txt $(BENCH_DIR)/attn_speedup.txt $(BENCH_DIR)/ucm_synth.txt $(BENCH_DIR)/ucm_sensitivity.txt
	@cat $^
bench: bench-ucm

.PHONY: ucm-tests
ucm-tests: $(UCM_COSIMS) $(UCM_BUILD)/cosim_gatelevel $(UCM_REPORT)

# The same co-simulation against Yosys's synthesized netlist of the tiny
# configuration (synth -flatten, written back as Verilog): the hardware Yosys
# builds agrees with the golden model too. Verilator -O0: its optimiser
# mis-simulates large gate netlists (0x80000005 for 5 + 0 * 0x9E3779B9).
# Its 20 MB of C++ at g++ -O1, the run-once initialisation at -O0 (Verilator's
# default, -Os, took twice the CPU time to compile; the run is as fast).
UCM_GL := $(UCM_BUILD)/gatelevel
$(UCM_GL)/ucm_block_gl.v: $(RTL_PKGS) $(UCM_RTL) $(GEN)/ucm_arrays.mk | deps
	@mkdir -p $(dir $@)
	yosys -q -l $(UCM_GL)/yosys.log -p "read_verilog -sv $(RTL_PKGS) $(UCM_RTL); \
	  chparam $(UCM_GATELEVEL_BLOCK_CH) ucm_block; \
	  synth -flatten -top ucm_block; rename -top ucm_block; write_verilog -noattr $@"

$(UCM_BUILD)/cosim_gatelevel: $(UCM_GL)/ucm_block_gl.v tests/unicaim/ucm_cosim.cpp $(UCM_LIB_OBJS)
	rm -f $@
	$(call quiet,VERILATE,$@)verilator --cc --exe --build -O0 -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module ucm_block \
	  -CFLAGS "-I$(abspath $(GEN)) -I$(abspath firmware/lib/unicaim)" -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0" -Mdir $(UCM_GL)/obj \
	  -o ../../cosim_gatelevel $(abspath $<) $(abspath tests/unicaim/ucm_cosim.cpp) $(abspath $(UCM_LIB_OBJS)) \
	  $(call to_log,$(UCM_GL)/verilate.log)
