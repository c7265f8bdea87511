# LiteDRAM's standalone core for the Arty A7's DDR3L, generated at build
# time from pinned versions (a venv in build/litedram/venv) and
# boards/arty/litedram.yml: build/litedram/hw (the A7DDRPHY core for the
# Vivado flow, with the generated C headers: CSR addresses and the DDR3
# initialisation sequence) and build/litedram/sim (the same controller with
# LiteDRAM's SDRAMPHYModel in place of the PHY and the DRAM, for Verilator;
# module litedram_sim). The generator's last step, building a simulator of
# its own, needs pythondata-misc-tapcfg and is not used: it fails after the
# Verilog is written, which the recipe checks instead of its status.
# These versions write some continuous assignments to a concatenation of
# signals several times over, identical; Vivado takes each copy for another
# driver of the same nets, so the recipes keep the first of each.
LITEDRAM_DEDUP = awk '!(/^assign / && seen[$$0]++)' $(1) > $(1).tmp && mv $(1).tmp $(1)
LITEDRAM_BUILD := $(BUILD)/litedram
LITEDRAM_VENV  := $(LITEDRAM_BUILD)/venv
LITEDRAM_PKGS  := migen==0.10.0 litex==2024.12 litedram==2024.12 liteeth==2024.12 \
                  litescope==2024.12 liteiclink==2024.12 pyyaml==6.0.2
LITEDRAM_GEN   := $(LITEDRAM_VENV)/bin/litedram_gen
LITEDRAM_HW    := $(LITEDRAM_BUILD)/hw/gateware/litedram_core.v
LITEDRAM_SIM   := $(LITEDRAM_BUILD)/sim/gateware/litedram_sim.v

$(LITEDRAM_GEN): mk/litedram.mk
	/usr/bin/python3 -m venv $(LITEDRAM_VENV)
	$(LITEDRAM_VENV)/bin/pip install -q $(LITEDRAM_PKGS)
	@touch $@

$(LITEDRAM_HW): boards/arty/litedram.yml $(LITEDRAM_GEN)
	$(call quiet,LITEDRAM,$@)cd $(LITEDRAM_BUILD) && $(abspath $(LITEDRAM_GEN)) $(abspath $<) --no-compile \
	  --output-dir hw $(call to_log,$(abspath $(LITEDRAM_BUILD))/hw.log)
	$(Q)$(call LITEDRAM_DEDUP,$@)

$(LITEDRAM_SIM): boards/arty/litedram.yml $(LITEDRAM_GEN)
	@mkdir -p $(LITEDRAM_BUILD)
	$(Q)cd $(LITEDRAM_BUILD) && { $(abspath $(LITEDRAM_GEN)) $(abspath $<) --sim --name litedram_sim --no-compile \
	  --output-dir sim > sim.log 2>&1 || true; }
	$(call quiet,LITEDRAM,$@)test -s $@ || { tail -20 $(LITEDRAM_BUILD)/sim.log; exit 1; }
	$(Q)$(call LITEDRAM_DEDUP,$@)

.PHONY: litedram
litedram: $(LITEDRAM_HW) $(LITEDRAM_SIM)
