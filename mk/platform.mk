# The platforms (boards/boards.toml) as make variables (PLATFORM_<NAME>_*,
# SOC_<REGION>_BASE/SIZE) and the linker's MEMORY regions (memory.ld, which
# linker/*.ld include): a clock, console rate, memory size or array changes
# in one place.
PLATFORM_TOML := boards/boards.toml
$(GEN)/platform.mk $(GEN)/memory.ld &: $(PLATFORM_TOML) $(REGMAP) $(UCM_ARRAYS) tools/platform/gen_platform.py
	@mkdir -p $(GEN)
	$(call quiet,GEN,$(GEN)/platform.mk)$(PYTHON) tools/platform/gen_platform.py $(PLATFORM_TOML) $(REGMAP) \
	  $(UCM_ARRAYS) --mk $(GEN)/platform.mk --ld $(GEN)/memory.ld
include $(GEN)/platform.mk
# A platform's make name (ulx3s-85f -> PLATFORM_ULX3S_85F).
# (Empty until platform.mk has the names: make makes it and starts again.)
platform_name = $(or $(PLATFORM_NAME_$(1)),$(if $(filter PLATFORM_NAME_%,$(.VARIABLES)),$(error no platform '$(1)' in $(PLATFORM_TOML))))
# soc_top's clock, console and memory parameters for the platform $(1)
# (its make name) as Verilator's -G.
soc_g = -GClkHz=$($(1)_CLK_MHZ)000000 -GBaud=$($(1)_BAUD) -GRamBytes=$($(1)_RAM_BYTES) -GRomBytes=$(SOC_ROM_SIZE)
