# The Verilator simulator, build/sim/unicaim-sim.
SIM_BIN      := $(BUILD)/sim/unicaim-sim
# The simulator's platform (boards/boards.toml).
SIM_CLK_HZ   := $(PLATFORM_SIM_CLK_MHZ)000000
SIM_BAUD     := $(PLATFORM_SIM_BAUD)
SIM_RAM      := $(PLATFORM_SIM_RAM_BYTES)
SIM_ROM      := $(SOC_ROM_SIZE)
# The ULX3S's SDRAM, behind its controller and the chip model (sim/sdram_model.h).
SIM_SDRAM    := $(PLATFORM_SIM_EXT_BYTES)
# The Arty's 256 MB on LiteDRAM's native port, as a functional model
# (sim/native_dram.h): SmolLM2's builds.
SIM_NATIVE   := $(PLATFORM_ARTY_100T_DDR3_EXT_BYTES)
# Its array's 90 banks: loops over them must unroll (Verilator's default stops at 64).
SIM_UNROLL   := --unroll-count 128
SIM_SRCS     := $(wildcard sim/*.cpp) $(wildcard sim/*.h)

# Verilator's makefile compiles the model with OPT_FAST (-Os by default,
# after any -CFLAGS) and the rest with OPT_SLOW / OPT_GLOBAL: the levels the
# simulator speed benchmark measured fastest (docs/soc/simulator.md).
SIM_OPT      := OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2

# $(1): output binary, $(2): UART baud rate, $(3): array parameters for the
# SoC (an arrays.toml entry's: the simulator's for stories260K, the paper's
# for the block benchmarks, the boards', the retrieval model's), $(4): the
# same for the block. With $(4) the array is a Verilated model of its own
# (Vucm, from the same RTL) beside the SoC's (ExternalArray), which the
# harness evaluates only in the cycles it can change (docs/soc/simulator.md). The
# external memory (cache and SDRAM controller) is such a model too (Vext,
# ExternalMemory), unless $(5) keeps it inside the SoC as on the boards.
# With $(6) (and $(5)) the SoC has LiteDRAM's port (Litedram) and the
# harness a functional DRAM of SIM_NATIVE bytes on it (NativeDram). With
# $(7) every model is built with --assert and the protocol checkers
# (RTL_CHECK): build/sim, which the ISA suite and the firmware tests run on.
SIM_EXT_G := -GClkHz=$(SIM_CLK_HZ) -GSdramBytes=$(SIM_SDRAM) -GMvu=1
sim_assert = $(if $(1),--assert,--noassert)
define SIM_RULE
$(1): $(RTL_ALL) $(if $(7),$(RTL_CHECK)) $(SIM_SRCS) $(GEN)/soc_regs.h $(GEN)/ucm_arrays.mk mk/sim.mk | deps
	@mkdir -p $(dir $(1))obj
	$(if $(4),$(Q)rm -rf $(dir $(1))ucm_obj && verilator --cc -O3 --x-assign fast --x-initial fast $(call sim_assert,$(7)) $(if $(6),$(SIM_UNROLL)) \
	  --trace-fst -Wno-fatal -Werror-USERFATAL -Wno-lint -Wno-style --prefix Vucm --top-module ucm_block $(4) \
	  -Mdir $(dir $(1))ucm_obj $$(RTL_PKGS) $$(UCM_RTL) $(if $(7),$$(RTL_CHECK)) $(call to_log,$(dir $(1))verilate_ucm.log))
	$(if $(5),,$(Q)rm -rf $(dir $(1))ext_obj && verilator --cc -O3 --x-assign fast --x-initial fast $(call sim_assert,$(7)) \
	  --trace-fst -Wno-fatal -Werror-USERFATAL -Wno-lint -Wno-style --prefix Vext --top-module ext_mem $(SIM_EXT_G) \
	  -Mdir $(dir $(1))ext_obj $$(RTL_PKGS) $$(EXT_MEM_RTL) $(if $(7),$$(RTL_CHECK)) $(call to_log,$(dir $(1))verilate_ext.log))
	$(call quiet,VERILATE,$(1))verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast $(call sim_assert,$(7)) $(if $(6),$(SIM_UNROLL)) \
	  --trace-fst -Wno-fatal -Werror-USERFATAL -Wno-lint -Wno-style +define+SIM_MEM_DPI \
	  -GClkHz=$(SIM_CLK_HZ) -GBaud=$(2) -GRamBytes=$(SIM_RAM) -GRomBytes=$(SIM_ROM) -GSim=1 \
	  -GSdramBytes=$(if $(6),$(SIM_NATIVE),$(SIM_SDRAM)) -GMvu=1 $(if $(6),-GLitedram=1) $(3) \
	  $(if $(4),-GExternalArray=1) $(if $(5),,-GExternalMemory=1) \
	  -CFLAGS "-std=c++17 -DSIM_CLK_HZ=$(SIM_CLK_HZ) -DSIM_BAUD=$(2) -DSIM_RAM_BYTES=$(SIM_RAM) \
	    -DSIM_ROM_BYTES=$(SIM_ROM) -DSIM_SDRAM_BYTES=$(if $(6),$(SIM_NATIVE),$(SIM_SDRAM)) $(if $(6),-DSIM_NATIVE_DRAM) \
	    -I$(abspath $(GEN)) \
	    $(if $(4),-DSIM_EXTERNAL_ARRAY -I$(abspath $(dir $(1))ucm_obj)) \
	    $(if $(5),,-DSIM_EXTERNAL_MEMORY -I$(abspath $(dir $(1))ext_obj))" -MAKEFLAGS "$(SIM_OPT)" \
	  --top-module soc_top -Mdir $(dir $(1))obj -o unicaim-sim \
	  $(RTL_ALL) $(if $(7),$(RTL_CHECK)) $(abspath $(filter %.cpp,$(SIM_SRCS))) \
	  $(if $(4),$$$$(ls $(abspath $(dir $(1)))/ucm_obj/Vucm*.cpp)) \
	  $(if $(5),,$$$$(ls $(abspath $(dir $(1)))/ext_obj/Vext*.cpp)) $(call to_log,$(dir $(1))verilate.log)
	$(Q)cp $(dir $(1))obj/unicaim-sim $(1)
endef

sim: $(SIM_BIN)
$(eval $(call SIM_RULE,$(SIM_BIN),$(SIM_BAUD),$(UCM_SIM_SOC_G),$(UCM_SIM_BLOCK_G),,,assert))

# Reading a trace back (tools/fst_dump.c) with the FST reader Verilator ships.
FST_DUMP     := $(BUILD)/sim/fst_dump
FST_LIB_DIR   = $(shell verilator --getenv VERILATOR_ROOT)/include/gtkwave
$(FST_DUMP): tools/fst_dump.c | deps
	@mkdir -p $(BUILD)/sim/fst
	$(call quiet,HOSTCC,$@)gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(FST_LIB_DIR) -c $< -o $(BUILD)/sim/fst/fst_dump.o
	$(Q)for f in fstapi lz4 fastlz; do gcc -O2 -w -DFST_CONFIG_INCLUDE='"fst_config.h"' -I$(FST_LIB_DIR) \
	  -c $(FST_LIB_DIR)/$$f.c -o $(BUILD)/sim/fst/$$f.o || exit 1; done
	$(Q)gcc $(BUILD)/sim/fst/*.o -lz -lpthread -o $@
sim: $(FST_DUMP)
# A build with a board's console rate (the ULX3S's), for measuring uploads.
BOARD_CONSOLE_BAUD := $(PLATFORM_ULX3S_85F_BAUD)
SIM_BIN_CONSOLE := $(BUILD)/sim_console/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_CONSOLE),$(BOARD_CONSOLE_BAUD),$(UCM_SIM_SOC_G),$(UCM_SIM_BLOCK_G)))
SIM_BIN_PAPER := $(BUILD)/sim_paper/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_PAPER),$(SIM_BAUD),$(UCM_PAPER_SOC_G),$(UCM_PAPER_BLOCK_G)))
SIM_BIN_BOARD := $(BUILD)/sim_board/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_BOARD),$(SIM_BAUD),$(UCM_BOARD_SOC_G),$(UCM_BOARD_BLOCK_G),inside))
# SmolLM2-135M's: its array (30 layers x 3 KV heads; no FPGA holds it) and
# 256 MB of external memory on LiteDRAM's port.
SIM_BIN_SMOL := $(BUILD)/sim_smol/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_SMOL),$(SIM_BAUD),$(UCM_SMOLLM2_SOC_G),$(UCM_SMOLLM2_BLOCK_G),inside,native))
SIM_BIN_RETR := $(BUILD)/sim_retr/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_RETR),$(SIM_BAUD),$(UCM_RETR_SOC_G),$(UCM_RETR_BLOCK_G)))
# Without the array: the simulator-speed benchmark's comparison.
SIM_BIN_NOARRAY := $(BUILD)/sim_noarray/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_NOARRAY),$(SIM_BAUD),$(UCM_NONE_SOC_G)))
