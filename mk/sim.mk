# The Verilator simulator, build/sim/unicaim-sim.
SIM_BIN      := $(BUILD)/sim/unicaim-sim
SIM_CLK_HZ   := 50000000
SIM_BAUD     := 3125000
SIM_RAM      := 4194304
SIM_ROM      := 16384
SIM_SRCS     := $(wildcard sim/*.cpp) $(wildcard sim/*.h)

# The array in the simulator: one bank per layer and KV head of stories260K
# (5 x 4), a slot for every position of its 512-token context, three 3-bit
# cells for each of a key's 8 components (firmware/lib/llm/kv_encode.c).
SIM_UCM      := -GUcmBanks=20 -GUcmSlots=512 -GUcmDim=24 -GUcmLanes=4
# The paper's array (576 tokens x 128 dims, one bank) for the block benchmarks.
SIM_UCM_PAPER := -GUcmBanks=1 -GUcmSlots=576 -GUcmDim=128 -GUcmLanes=8
# The boards' array (mk/board_array.mk).
SIM_UCM_BOARD := -GUcmBanks=$(BOARD_UCM_BANKS) $(BOARD_UCM_SHAPE_G)
# The retrieval model's array (2 layers x 2 KV heads, 1024 positions, three
# cells for each of a key's 32 components) for UniCAIM on that model on the
# SoC (make bench-agree).
SIM_UCM_RETR  := -GUcmBanks=4 -GUcmSlots=1024 -GUcmDim=96 -GUcmLanes=4

# $(1): output binary, $(2): UART baud rate, $(3): array parameters.
define SIM_RULE
$(1): $(RTL_ALL) $(SIM_SRCS) $(GEN)/soc_regs.h mk/sim.mk | deps
	@mkdir -p $(dir $(1))obj
	$(call quiet,VERILATE,$(1))verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast --noassert \
	  --trace-fst -Wno-fatal -Wno-lint -Wno-style +define+SIM_MEM_DPI \
	  -GClkHz=$(SIM_CLK_HZ) -GBaud=$(2) -GRamBytes=$(SIM_RAM) -GRomBytes=$(SIM_ROM) -GSim=1 $(3) \
	  -CFLAGS "-O2 -std=c++17 -DSIM_CLK_HZ=$(SIM_CLK_HZ) -DSIM_BAUD=$(2) -DSIM_RAM_BYTES=$(SIM_RAM) \
	    -DSIM_ROM_BYTES=$(SIM_ROM) -I$(abspath $(GEN))" \
	  --top-module soc_top -Mdir $(dir $(1))obj -o unicaim-sim \
	  $(RTL_ALL) $(abspath $(filter %.cpp,$(SIM_SRCS))) $(call to_log,$(dir $(1))verilate.log)
	$(Q)cp $(dir $(1))obj/unicaim-sim $(1)
endef

sim: $(SIM_BIN)
$(eval $(call SIM_RULE,$(SIM_BIN),$(SIM_BAUD),$(SIM_UCM)))
# A build with a board's console rate, for measuring uploads at 115200 baud.
SIM_BIN_115200 := $(BUILD)/sim115200/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_115200),115200,$(SIM_UCM)))
SIM_BIN_PAPER := $(BUILD)/sim_paper/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_PAPER),$(SIM_BAUD),$(SIM_UCM_PAPER)))
SIM_BIN_BOARD := $(BUILD)/sim_board/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_BOARD),$(SIM_BAUD),$(SIM_UCM_BOARD)))
SIM_BIN_RETR := $(BUILD)/sim_retr/unicaim-sim
$(eval $(call SIM_RULE,$(SIM_BIN_RETR),$(SIM_BAUD),$(SIM_UCM_RETR)))
