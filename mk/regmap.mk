# One register description -> C header, SystemVerilog package, Markdown table.
GEN         := $(BUILD)/gen
REGMAP      := rtl/soc/regmap.toml
REGMAP_OUT  := $(GEN)/soc_regs.h $(GEN)/soc_regs_pkg.sv $(GEN)/registers.md

# The docs' register tables (docs/soc.md and a page per unit, docs/soc/):
# make docs-regs writes them; the test docs/registers-match-regmap fails
# while one is stale.
REGMAP_DOCS := docs/soc.md $(wildcard docs/soc/*.md)
.PHONY: docs-regs
docs-regs:
	$(PYTHON) tools/regmap/gen_regmap.py $(REGMAP) --docs $(REGMAP_DOCS)

$(REGMAP_OUT) &: $(REGMAP) tools/regmap/gen_regmap.py
	@mkdir -p $(GEN)
	$(call quiet,REGMAP,$@)$(PYTHON) tools/regmap/gen_regmap.py $(REGMAP) --c $(GEN)/soc_regs.h \
	  --sv $(GEN)/soc_regs_pkg.sv --md $(GEN)/registers.md
