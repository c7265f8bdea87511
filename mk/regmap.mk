# One register description -> C header, SystemVerilog package, Markdown table.
GEN         := $(BUILD)/gen
REGMAP      := rtl/soc/regmap.toml
REGMAP_OUT  := $(GEN)/soc_regs.h $(GEN)/soc_regs_pkg.sv $(GEN)/registers.md

$(REGMAP_OUT) &: $(REGMAP) tools/regmap/gen_regmap.py
	@mkdir -p $(GEN)
	$(call quiet,REGMAP,$@)$(PYTHON) tools/regmap/gen_regmap.py $(REGMAP) --c $(GEN)/soc_regs.h \
	  --sv $(GEN)/soc_regs_pkg.sv --md $(GEN)/registers.md
