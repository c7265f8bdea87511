# Firmware: every directory under firmware/apps/ is one program,
# build/fw/<app>.elf, linked with the start-up code, HAL and libraries.
FW_BUILD   := $(BUILD)/fw
RV_PREFIX  := riscv64-unknown-elf-
RV_CC      := $(RV_PREFIX)gcc
RV_OBJDUMP := $(RV_PREFIX)objdump
# Compile for rv32im_zicsr; link as rv32im, the picolibc multilib it matches.
FW_ARCH    := -march=rv32im_zicsr -mabi=ilp32
FW_CFLAGS  := $(FW_ARCH) --specs=picolibc.specs -std=c11 -O2 -g -Wall -Wextra -Werror \
              -ffunction-sections -fdata-sections -I$(GEN) -Ifirmware/hal -Ifirmware/hal/litedram -Ifirmware/lib \
              $(addprefix -I,$(wildcard firmware/lib/*/))
# UCX_DOT=0: the packed dot products in C (ucx_dot.h), for a core without
# them; make clean first, objects do not track it.
UCX_DOT    ?= 1
ifeq ($(UCX_DOT),0)
FW_CFLAGS  += -DUCX_NO_DOT
endif
# The linker scripts of a program in RAM (ext_code.ld: code in external
# memory), with the memory map's regions (memory.ld) and the simulator's
# sizes; a program for a board links with its platform's (fw_limits, after
# these: the last definition counts).
FW_LDS     := linker/ram.ld linker/sections.ld $(GEN)/memory.ld
fw_limits   = -Wl,--defsym=RAM_LIMIT=$($(1)_RAM_BYTES) -Wl,--defsym=EXT_LIMIT=$($(1)_EXT_BYTES)
FW_LDFLAGS := -march=rv32im -mabi=ilp32 --specs=picolibc.specs -nostartfiles -L$(GEN) \
              -Tlinker/ram.ld -Wl,--gc-sections -Wl,--no-warn-rwx-segments $(call fw_limits,PLATFORM_SIM)
FW_APPS    := $(notdir $(wildcard firmware/apps/*))
FW_TESTS   := $(notdir $(wildcard tests/firmware/*))
FW_COMMON  := $(wildcard firmware/crt/*.S firmware/hal/*.c firmware/lib/*.c firmware/lib/*/*.c) \
              firmware/hal/litedram/read_leveling.c
FW_ELFS    := $(FW_APPS:%=$(FW_BUILD)/%.elf) $(FW_TESTS:%=$(FW_BUILD)/test_%.elf)

fw_obj = $(patsubst %,$(FW_BUILD)/obj/%.o,$(basename $(1)))

firmware: $(FW_ELFS)

$(FW_BUILD)/obj/%.o: %.c $(GEN)/soc_regs.h | deps
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

# The language model's hot loops (matrix rows, attention once per cached
# position and head): unrolled, the scheduler hides the load-use cycle and
# fewer taken branches cost a bubble (-8% of cycles per token); twice at
# most, as more grows the code past the 128 KiB builds and saves nothing.
# Their small copy loops (a block's sums into registers) stay loops: GCC
# would make them memcpy calls, which keep the sums in memory (SmolLM2's
# attention: 10 M cycles a token in memcpy).
FW_UNROLLED := firmware/lib/kernels/attention.c firmware/lib/kv/kv_attend.c firmware/lib/kv/backend_dense.c
$(call fw_obj,$(FW_UNROLLED)): FW_CFLAGS += -funroll-loops --param max-unroll-times=2 -fno-tree-loop-distribute-patterns
# Code that runs once a prompt, a command or a model (the image's checks,
# the tokenizer, the console, policy parsing, the cost model) compiled for
# size: the 128 KiB builds (llm_smol, retr_ulx3s, llm_ulx3s) fill their RAM.
FW_COLD := $(addprefix firmware/lib/llm/,llm_model.c llm_context.c tokenizer.c tokenizer_bpe.c bpe_pretok.c \
             bpe_merge.c chat.c) $(wildcard firmware/lib/console/*.c) firmware/lib/kv/kv_policy.c \
           $(addprefix firmware/lib/unicaim/,ucm_energy.c ucm_check.c)
$(call fw_obj,$(FW_COLD)): FW_CFLAGS += -Os
# The transformer's loops (matrix tiles, quantisation, norms) unrolled four
# times at most: the llm_512k build must still fit its 512 KiB.
$(call fw_obj,firmware/lib/llm/transformer.c): FW_CFLAGS += -funroll-loops --param max-unroll-times=4

# The language-model app links the converted model image.
$(FW_BUILD)/obj/firmware/apps/llm/model_blob.o: firmware/apps/llm/model_blob.S $(LLM_IMAGE)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) -DMODEL_IMAGE='"$(abspath $(LLM_IMAGE))"' -c $< -o $@

# A build that starts `bench` after a saved context (firmware/lib/llm/
# llm_context.h, written by tools/llm/llm_context.c): stories260K's first 16
# positions, for the test that restoring them equals running them.
# $(1): the ELF, $(2): the context file, $(3): the context's section.
LLM_APP_OBJS := $(call fw_obj,$(FW_COMMON) $(filter-out %/context_blob.S,$(wildcard firmware/apps/llm/*.c firmware/apps/llm/*.S)))
define LLM_CONTEXT_OBJ
$(FW_BUILD)/obj/$(1)_context.o: firmware/apps/llm/context_blob.S $(2) | deps
	@mkdir -p $$(dir $$@)
	$$(call quiet,CC,$$@)$(RV_CC) $(FW_CFLAGS) -DCONTEXT_SECTION=$(3) -DCONTEXT_IMAGE='"$(abspath $(2))"' -c $$< -o $$@
endef
$(LLM_BUILD)/context16.bin: $(LLM_IMAGE) $(LLM_BUILD)/llm_context
	$(call quiet,CONTEXT,$@)$(LLM_BUILD)/llm_context $(LLM_IMAGE) 16 $@ > /dev/null
$(eval $(call LLM_CONTEXT_OBJ,llm_ctx16,$(LLM_BUILD)/context16.bin,.rodata.context))
$(FW_BUILD)/llm_ctx16.elf: $(LLM_APP_OBJS) $(FW_BUILD)/obj/llm_ctx16_context.o $(FW_LDS)
	$(call quiet,LD,$@)$(RV_CC) $(FW_LDFLAGS) $(filter %.o,$^) -o $@
firmware: $(FW_BUILD)/llm_ctx16.elf

$(FW_BUILD)/obj/%.o: %.S $(GEN)/soc_regs.h | deps
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

# $(1): ELF name, $(2): source directory.
define FW_APP_RULE
$(FW_BUILD)/$(1).elf: $(call fw_obj,$(FW_COMMON) $(wildcard $(2)/*.c $(2)/*.S)) $(FW_LDS)
	$(call quiet,LD,$$@)$(RV_CC) $(FW_LDFLAGS) $$(filter %.o,$$^) -o $$@
	$(Q)$(RV_OBJDUMP) -d $$@ > $$(@:.elf=.lst)
endef
$(foreach app,$(FW_APPS),$(eval $(call FW_APP_RULE,$(app),firmware/apps/$(app))))
$(foreach t,$(FW_TESTS),$(eval $(call FW_APP_RULE,test_$(t),tests/firmware/$(t))))
# cpubench with its code in external memory: the instruction cache's figures.
$(FW_BUILD)/cpubench_ext.elf: $(call fw_obj,$(FW_COMMON) $(wildcard firmware/apps/cpubench/*.c)) \
                              linker/ext_code.ld linker/sections.ld $(GEN)/memory.ld
	$(call quiet,LD,$@)$(RV_CC) $(subst -Tlinker/ram.ld,-Tlinker/ext_code.ld,$(FW_LDFLAGS)) $(filter %.o,$^) -o $@
firmware: $(FW_BUILD)/cpubench_ext.elf

-include $(shell find $(FW_BUILD)/obj -name '*.d' 2>/dev/null)

# The boot ROM program (UART bootloader), linked into ROM: bootrom.elf, and
# bootrom_ddr3.elf for a SoC with LiteDRAM (the Arty's DDR3 build), which
# also runs LiteDRAM's generated DDR3 initialisation
# (firmware/hal/litedram/litedram_init.c, compiled against the board's core
# and against its simulation core: mk/litedram.mk).
BOOT_SRCS := firmware/boot/start.S firmware/boot/bootloader.c firmware/boot/boot_upload.c firmware/hal/dramctl.c \
             firmware/hal/timer.c firmware/lib/util/crc32.c
BOOT_LD    = $(call quiet,LD,$@)$(RV_CC) -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -L$(GEN) -Tlinker/rom.ld \
             -Wl,--gc-sections -Wl,--no-warn-rwx-segments $(filter %.o,$^) -lgcc -o $@
$(FW_BUILD)/bootrom.elf: $(call fw_obj,$(BOOT_SRCS) firmware/boot/ddr3_absent.c) linker/rom.ld $(GEN)/memory.ld
	$(BOOT_LD)
	$(Q)$(RV_OBJDUMP) -d $@ > $(@:.elf=.lst)
firmware: $(FW_BUILD)/bootrom.elf

LITEDRAM_INIT_SRC := firmware/hal/litedram/litedram_init.c
# $(1): board or model, $(2): the core's generated Verilog, $(3): its build directory.
define LITEDRAM_INIT_RULE
$(FW_BUILD)/obj/litedram_init_$(1).o: $(LITEDRAM_INIT_SRC) $(2) $(GEN)/soc_regs.h | deps
	@mkdir -p $$(dir $$@)
	$$(call quiet,CC,$$@)$(RV_CC) $(FW_CFLAGS) -Ifirmware/hal/litedram/include \
	  -I$(3)/software/include -DLITEDRAM_INIT=litedram_init_$(1) -c $$< -o $$@
endef
$(eval $(call LITEDRAM_INIT_RULE,board,$(LITEDRAM_HW),$(LITEDRAM_BUILD)/hw))
$(eval $(call LITEDRAM_INIT_RULE,model,$(LITEDRAM_SIM),$(LITEDRAM_BUILD)/sim))
$(FW_BUILD)/bootrom_ddr3.elf: $(call fw_obj,$(BOOT_SRCS) firmware/boot/ddr3_litedram.c firmware/hal/dcache.c \
                                firmware/hal/sysctl.c firmware/hal/litedram/read_leveling.c) \
                              $(FW_BUILD)/obj/litedram_init_board.o $(FW_BUILD)/obj/litedram_init_model.o linker/rom.ld \
                              $(GEN)/memory.ld
	$(BOOT_LD)
	$(Q)$(RV_OBJDUMP) -d $@ > $(@:.elf=.lst)
