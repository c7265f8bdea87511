# RTL sources in dependency order (packages first).
RTL_PKGS := $(GEN)/soc_regs_pkg.sv $(GEN)/ucm_arrays_pkg.sv $(GEN)/cpu_exp2_pkg.sv rtl/bus/soc_bus_pkg.sv rtl/core/cpu_pkg.sv \
            rtl/unicaim/ucm_pkg.sv
RTL_CORE := $(filter-out rtl/core/cpu_pkg.sv,$(wildcard rtl/core/*.sv))
RTL_UCM  := $(filter-out rtl/unicaim/ucm_pkg.sv,$(wildcard rtl/unicaim/*.sv))
RTL_SOC  := $(RTL_CORE) $(wildcard rtl/common/*.sv) $(wildcard rtl/mem/*.sv) \
            rtl/bus/soc_xbar.sv rtl/bus/ext_arbiter.sv $(wildcard rtl/periph/*/*.sv) $(RTL_UCM) $(wildcard rtl/mvu/*.sv) \
            rtl/soc/soc_top.sv
RTL_ALL  := $(RTL_PKGS) $(RTL_SOC)
# The external memory on its own (the simulator's Vext model).
EXT_MEM_RTL := rtl/common/sdp_ram.sv rtl/common/lut_ram.sv rtl/common/sync_fifo.sv rtl/common/cdc_handshake.sv rtl/mem/dcache.sv \
               rtl/mem/sdram_ctrl.sv rtl/mem/litedram_port.sv rtl/mem/mem_port_arbiter.sv $(wildcard rtl/mvu/*.sv) \
               rtl/mem/ext_mem.sv
VLT_WAIVERS := rtl/lint_waivers.vlt
# Protocol checkers bound to the interfaces (simulation only: build/sim and
# the memory testbenches run with --assert).
RTL_CHECK := $(wildcard rtl/check/check_*.sv) rtl/check/soc_checks.sv

# ucx.exp2's table, printed from the firmware's (cpu_exp2).
$(GEN)/cpu_exp2_pkg.sv: tools/core/gen_exp2_pkg.c firmware/lib/kernels/fixmath.c firmware/lib/kernels/fixmath.h
	@mkdir -p $(GEN)/obj
	$(call quiet,HOSTCC,$@)$(HOST_CC) -std=c11 -O2 -Wall -Wextra -Werror -Ifirmware/lib/kernels \
	  $(filter %.c,$^) -o $(GEN)/obj/gen_exp2_pkg
	$(Q)$(GEN)/obj/gen_exp2_pkg > $@.tmp && mv $@.tmp $@

# The configurations: without external memory, with the ULX3S's SDRAM, and
# with it outside (the simulator's), and with the Arty's DDR3 (LiteDRAM's).
# The simulator's platform and array (boards.toml, arrays.toml).
LINT_G = $(call soc_g,PLATFORM_SIM) $(UCM_SIM_SOC_G)
lint: deps $(filter $(GEN)/%,$(RTL_PKGS))
	verilator --lint-only -Wall $(VLT_WAIVERS) $(RTL_ALL) --top-module soc_top $(LINT_G) -GSdramBytes=0
	verilator --lint-only -Wall $(VLT_WAIVERS) $(RTL_ALL) --top-module soc_top $(LINT_G) -GSdramBytes=$(PLATFORM_SIM_EXT_BYTES)
	verilator --lint-only -Wall $(VLT_WAIVERS) $(RTL_ALL) --top-module soc_top $(LINT_G) -GSdramBytes=$(PLATFORM_SIM_EXT_BYTES) -GExternalMemory="1'b1"
	verilator --lint-only -Wall $(VLT_WAIVERS) $(RTL_ALL) --top-module soc_top $(LINT_G) -GSdramBytes=$(PLATFORM_SIM_EXT_BYTES) -GMvu="1'b1"
	verilator --lint-only -Wall $(VLT_WAIVERS) $(RTL_ALL) --top-module soc_top $(LINT_G) -GSdramBytes=$(PLATFORM_ARTY_100T_DDR3_EXT_BYTES) -GLitedram="1'b1"
	verilator --lint-only -Wall $(VLT_WAIVERS) $(RTL_ALL) --top-module soc_top $(LINT_G) -GSdramBytes=$(PLATFORM_ARTY_100T_DDR3_EXT_BYTES) -GLitedram="1'b1" -GMvu="1'b1"
	verilator --lint-only -Wall --assert $(VLT_WAIVERS) $(RTL_ALL) $(RTL_CHECK) --top-module soc_top $(LINT_G) -GSdramBytes=$(PLATFORM_SIM_EXT_BYTES) -GMvu="1'b1"
	verilator --lint-only -Wall --assert $(VLT_WAIVERS) $(RTL_ALL) $(RTL_CHECK) --top-module soc_top $(LINT_G) -GSdramBytes=$(PLATFORM_ARTY_100T_DDR3_EXT_BYTES) -GLitedram="1'b1" -GMvu="1'b1"
