# The UniCAIM array configurations (rtl/unicaim/arrays.toml) as make
# variables (UCM_<NAME>_<FIELD>, _BLOCK_G, _BLOCK_CH, _SOC_G, _SOC_PARAMS), a
# C header (UCM_ARRAY_<NAME>) and the SystemVerilog package soc_top reads its
# array's geometry from (ucm_arrays_pkg): the simulators, co-simulations,
# board builds, Yosys counts and host tools all take their geometry from here.
UCM_ARRAYS := rtl/unicaim/arrays.toml
$(GEN)/ucm_arrays.mk $(GEN)/ucm_arrays.h $(GEN)/ucm_arrays_pkg.sv &: $(UCM_ARRAYS) tools/unicaim/gen_arrays.py
	@mkdir -p $(GEN)
	$(call quiet,GEN,$(GEN)/ucm_arrays.mk)$(PYTHON) tools/unicaim/gen_arrays.py $(UCM_ARRAYS) \
	  --mk $(GEN)/ucm_arrays.mk --c $(GEN)/ucm_arrays.h --sv $(GEN)/ucm_arrays_pkg.sv
include $(GEN)/ucm_arrays.mk
# make's name for a configuration (tiny -> TINY).
# (Empty until ucm_arrays.mk has the names: make makes it and starts again.)
ucm_name = $(or $(UCM_NAME_$(1)),$(if $(filter UCM_NAME_%,$(.VARIABLES)),$(error no array configuration '$(1)' in $(UCM_ARRAYS))))
