# The Verilator simulator, build/sim/unicaim-sim.
SIM_BIN      := $(BUILD)/sim/unicaim-sim
SIM_CLK_HZ   := 50000000
SIM_BAUD     := 3125000
SIM_RAM      := 4194304
SIM_ROM      := 16384
SIM_SRCS     := $(wildcard sim/*.cpp) $(wildcard sim/*.h)
SIM_DEFINES  := -DSIM_CLK_HZ=$(SIM_CLK_HZ) -DSIM_BAUD=$(SIM_BAUD) -DSIM_RAM_BYTES=$(SIM_RAM) \
                -DSIM_ROM_BYTES=$(SIM_ROM)

sim: $(SIM_BIN)
$(SIM_BIN): $(RTL_ALL) $(SIM_SRCS) $(GEN)/soc_regs.h mk/sim.mk | deps
	@mkdir -p $(BUILD)/sim/obj
	verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast --noassert \
	  --trace-fst -Wno-fatal -Wno-lint -Wno-style +define+SIM_MEM_DPI \
	  -GClkHz=$(SIM_CLK_HZ) -GBaud=$(SIM_BAUD) -GRamBytes=$(SIM_RAM) -GRomBytes=$(SIM_ROM) -GSim=1 \
	  -CFLAGS "-O2 -std=c++17 $(SIM_DEFINES) -I$(abspath $(GEN))" \
	  --top-module soc_top -Mdir $(BUILD)/sim/obj -o unicaim-sim \
	  $(RTL_ALL) $(abspath $(filter %.cpp,$(SIM_SRCS)))
	cp $(BUILD)/sim/obj/unicaim-sim $@
