# The regression: `make test` builds everything and runs tests/run_tests.py,
# which ends with one line "N passed, N failed".
ISA_BUILD   := $(BUILD)/tests/isa
ISA_GEN     := $(patsubst %,$(ISA_BUILD)/%.S,$(shell $(PYTHON) tests/isa/gen_isa_tests.py --list))
ISA_SRCS    := $(wildcard tests/isa/*.S)
ISA_ELFS    := $(patsubst tests/isa/%.S,$(ISA_BUILD)/%.elf,$(ISA_SRCS)) $(ISA_GEN:.S=.elf)
ISA_CFLAGS  := -march=rv32im_zicsr_zifencei -mabi=ilp32 -nostdlib -nostartfiles -Itests/isa -I$(GEN) -Tlinker/isa.ld
# The same programs again with code and data in external memory
# (build/tests/isa/ext/): fetched through the instruction cache.
ISA_EXT_ELFS := $(patsubst $(ISA_BUILD)/%,$(ISA_BUILD)/ext/%,$(ISA_ELFS))
ISA_RAM_LD   := -Wl,--defsym=ISA_BASE=$(SOC_RAM_BASE)
ISA_EXT_LD   := -Wl,--defsym=ISA_BASE=$(SOC_EXT_BASE)

$(ISA_GEN) &: tests/isa/gen_isa_tests.py
	$(PYTHON) $< $(ISA_BUILD)

$(ISA_BUILD)/ext/%.elf: tests/isa/%.S tests/isa/*.h $(GEN)/soc_regs.h linker/isa.ld | deps
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(RV_CC) $(ISA_CFLAGS) $(ISA_EXT_LD) $< -o $@

$(ISA_BUILD)/ext/%.elf: $(ISA_BUILD)/%.S tests/isa/*.h $(GEN)/soc_regs.h linker/isa.ld | deps
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(RV_CC) $(ISA_CFLAGS) $(ISA_EXT_LD) $< -o $@

$(ISA_BUILD)/%.elf: tests/isa/%.S tests/isa/*.h $(GEN)/soc_regs.h linker/isa.ld | deps
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(RV_CC) $(ISA_CFLAGS) $(ISA_RAM_LD) $< -o $@

$(ISA_BUILD)/%.elf: $(ISA_BUILD)/%.S tests/isa/*.h $(GEN)/soc_regs.h linker/isa.ld | deps
	$(call quiet,LD,$@)$(RV_CC) $(ISA_CFLAGS) $(ISA_RAM_LD) $< -o $@

isa-tests: $(ISA_ELFS) $(ISA_EXT_ELFS)

# Random programs that trace every instruction's result, for comparing the
# functional simulator with the RTL (tests/iss/gen_random_programs.py).
ISS_RANDOM_DIR  := $(BUILD)/tests/iss
ISS_RANDOM_S    := $(patsubst %,$(ISS_RANDOM_DIR)/%.S,$(shell $(PYTHON) tests/iss/gen_random_programs.py --list))
ISS_RANDOM_ELFS := $(ISS_RANDOM_S:.S=.elf)
$(ISS_RANDOM_S) &: tests/iss/gen_random_programs.py
	$(PYTHON) $< $(ISS_RANDOM_DIR)
$(ISS_RANDOM_DIR)/%.elf: $(ISS_RANDOM_DIR)/%.S $(GEN)/soc_regs.h linker/isa.ld | deps
	$(call quiet,LD,$@)$(RV_CC) $(ISA_CFLAGS) $(ISA_RAM_LD) $< -o $@
iss-tests: $(ISS_BIN) $(ISS_BIN_RETR) $(ISS_RANDOM_ELFS)

# The bootloader's test program with code in external memory.
BOOT_EXT_ELF := $(BUILD)/tests/boot/ext_code.elf
$(BOOT_EXT_ELF): tests/boot/ext_code.S $(GEN)/soc_regs.h linker/isa.ld | deps
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(RV_CC) $(ISA_CFLAGS) $(ISA_EXT_LD) $< -o $@

# Unit testbenches: SystemVerilog, built with Verilator --binary --timing,
# with assertions and the protocol checkers bound (rtl/check).
TB_BUILD   := $(BUILD)/tests/rtl
TB_uart    := rtl/common/sync_fifo.sv $(wildcard rtl/periph/uart/*.sv)
TB_timer   := rtl/periph/timer/timer.sv
TB_xbar    := rtl/bus/soc_xbar.sv
TB_dcache  := rtl/common/lut_ram.sv rtl/common/sdp_ram.sv rtl/mem/dcache.sv
TB_icache  := rtl/common/sdp_ram.sv rtl/mem/icache.sv rtl/bus/ext_arbiter.sv
# The Arty's memory path: the data cache and DRAMCTL on LiteDRAM's generated
# controller and DRAM model (mk/litedram.mk).
TB_litedram := $(EXT_MEM_RTL) rtl/periph/dramctl/dramctl.sv $(LITEDRAM_SIM) sim/board/litedram_model.sv
TB_store_buffer := rtl/mem/ram_store_buffer.sv rtl/mem/soc_ram.sv
# The gate-level block RAM model against RTL: the memories and their
# synth_ecp5 netlist (mk/board_sim.mk has the cell models). The memories'
# initial contents are files (the netlist has them built in).
ECP5_RAMS_HEX  := $(foreach m,rom ram bits,$(abspath $(TB_BUILD))/ecp5_rams_$(m).hex)
ECP5_RAMS_INIT := RomInit=$(word 1,$(ECP5_RAMS_HEX)) RamInit=$(word 2,$(ECP5_RAMS_HEX)) BitsInit=$(word 3,$(ECP5_RAMS_HEX))
TB_ecp5_bram := tests/rtl/ecp5_rams.sv $(TB_BUILD)/ecp5_rams_net.v $(GL_CELLS) sim/board/ecp5_models.v
TB_FLAGS_ecp5_bram := -I$(YOSYS_ECP5) $(foreach p,$(ECP5_RAMS_INIT),-G$(subst =,='",$(p))"')
$(ECP5_RAMS_HEX) &: tests/rtl/ecp5_rams_init.py
	$(PYTHON) $< $(TB_BUILD)
$(TB_BUILD)/tb_ecp5_bram: $(ECP5_RAMS_HEX)
$(TB_BUILD)/ecp5_rams_net.v: tests/rtl/ecp5_rams.sv $(ECP5_RAMS_HEX) | deps
	@mkdir -p $(dir $@)
	$(call quiet,YOSYS,$@)yosys -q -l $(TB_BUILD)/ecp5_rams_net.log -p "read_verilog -sv $<; \
	  chparam $(foreach p,$(ECP5_RAMS_INIT),-set $(subst =, \",$(p))\") ecp5_rams; \
	  $(ECP5_SYNTH) -top ecp5_rams; rename ecp5_rams ecp5_rams_net; write_verilog -noattr $@"
UNIT_TBS   := $(patsubst tests/rtl/tb_%.sv,%,$(wildcard tests/rtl/tb_*.sv))
UNIT_BINS  := $(UNIT_TBS:%=$(TB_BUILD)/tb_%)

define UNIT_TB_RULE
$(TB_BUILD)/tb_$(1): tests/rtl/tb_$(1).sv $(TB_$(1)) $(RTL_PKGS) $(RTL_CHECK) tests/rtl/*.svh | deps
	@mkdir -p $(TB_BUILD)
	$(call quiet,VERILATE,$$@)verilator --binary --timing --assert -Wno-fatal -Wno-lint -Wno-style -Itests/rtl $(TB_FLAGS_$(1)) \
	  --top-module tb_$(1) -Mdir $(TB_BUILD)/obj_$(1) -o tb_$(1) $(RTL_PKGS) $(TB_$(1)) $(RTL_CHECK) tests/rtl/tb_$(1).sv \
	  $(call to_log,$(TB_BUILD)/obj_$(1).log)
	$(Q)cp $(TB_BUILD)/obj_$(1)/tb_$(1) $$@
endef
$(foreach tb,$(UNIT_TBS),$(eval $(call UNIT_TB_RULE,$(tb))))
# The simulator's own models, tested on the host (tests/sim/NAME_test.cpp
# against sim/NAME.cpp).
SIM_TEST_BUILD := $(BUILD)/tests/sim
SIM_TESTS      := $(patsubst tests/sim/%.cpp,$(SIM_TEST_BUILD)/%,$(wildcard tests/sim/*_test.cpp))
$(SIM_TEST_BUILD)/%_test: tests/sim/%_test.cpp sim/%.cpp sim/%.h | deps
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCXX,$@)g++ -std=c++17 -O1 -g -Wall -Wextra -Werror -Isim $(filter %.cpp,$^) -o $@

unit-tests: $(UNIT_BINS) $(SIM_TESTS)

# Built TEST_JOBS at a time. The ULX3S bitstream (synthesis, then place and
# route: the longest chain) is built by its test (fw/ulx3s-85f-bitstream),
# which the runner starts first, so that the other tests run beside it.
TEST_DEPS := sim iss-tests $(BOOT_EXT_ELF) $(SIM_BIN_BOARD) $(BOARD_SIM_RTL) $(BOARD_SIM_RETR) $(ARTY_SIM_RTL) firmware isa-tests unit-tests llm-host smollm2 ucm-tests retrieval $(TORCH_STAMP) $(FUZZ_BUILD)/fuzz_console $(FUZZ_BUILD)/fuzz_upload $(FUZZ_BUILD)/fuzz_tokenize $(FUZZ_VENV)/.stamp
TEST_JOBS ?= 2
.PHONY: isa-tests iss-tests unit-tests
test: deps $(GEN)/soc_regs_pkg.sv
	$(MAKE) -j$(TEST_JOBS) --no-print-directory $(TEST_DEPS)
	$(PYTHON) tests/run_tests.py --build $(BUILD)

# Mutation testing (tests/mutations.py, tools/mutate.py): each one-line
# mutation in a scratch copy of the tree, its targets rebuilt and its test
# groups run; a table of caught and missed (mutate.md) and
# mutation_caught_pct. Hours: the array's and the core's mutations rebuild
# their simulators. MUTATIONS=name,... runs some.
.PHONY: mutate
bench mutate: $(BENCH_DIR)/mutate.txt
$(BENCH_DIR)/mutate.txt: tests/mutations.py tools/mutate.py
	$(MAKE) -j$(TEST_JOBS) --no-print-directory $(TEST_DEPS)
	$(PYTHON) tools/mutate.py $(if $(MUTATIONS),--only $(MUTATIONS)) --out $(BENCH_DIR)
