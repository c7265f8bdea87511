# RTL sources in dependency order (packages first).
RTL_PKGS := $(GEN)/soc_regs_pkg.sv rtl/bus/soc_bus_pkg.sv rtl/core/cpu_pkg.sv rtl/unicaim/ucm_pkg.sv
RTL_CORE := $(filter-out rtl/core/cpu_pkg.sv,$(wildcard rtl/core/*.sv))
RTL_UCM  := $(filter-out rtl/unicaim/ucm_pkg.sv,$(wildcard rtl/unicaim/*.sv))
RTL_SOC  := $(RTL_CORE) $(wildcard rtl/common/*.sv) $(wildcard rtl/mem/*.sv) \
            rtl/bus/soc_xbar.sv $(wildcard rtl/periph/*/*.sv) $(RTL_UCM) rtl/soc/soc_top.sv
RTL_ALL  := $(RTL_PKGS) $(RTL_SOC)
VLT_WAIVERS := rtl/lint_waivers.vlt

# Both configurations: without external memory and with the ULX3S's SDRAM.
lint: deps $(GEN)/soc_regs_pkg.sv
	verilator --lint-only -Wall $(VLT_WAIVERS) $(RTL_ALL) --top-module soc_top
	verilator --lint-only -Wall $(VLT_WAIVERS) $(RTL_ALL) --top-module soc_top -GSdramBytes=33554432
