# The functional simulator, build/iss/unicaim-iss (sim/iss/): the firmware
# on an instruction-set model of the core with the array's golden model,
# for runs Verilator would take hours over. The simulator platform's
# memories (boards/boards.toml) and array (arrays.toml's sim); iss_smol's
# for SmolLM2 as sim_smol has them: its array and 256 MB of external memory;
# iss_retr the retrieval model's array, as sim_retr.
ISS_BIN      := $(BUILD)/iss/unicaim-iss
ISS_BIN_SMOL := $(BUILD)/iss_smol/unicaim-iss
ISS_BIN_RETR := $(BUILD)/iss_retr/unicaim-iss
ISS_C_SRCS   := $(wildcard sim/iss/*.c) firmware/lib/unicaim/ucm_model.c firmware/lib/unicaim/ucm_arith.c \
                firmware/lib/kernels/fixmath.c
ISS_HDRS     := $(wildcard sim/iss/*.h) sim/elf_image.h sim/host_port.h sim/pc_profile.h sim/sim_cli.h \
                $(wildcard firmware/lib/unicaim/*.h) firmware/lib/kernels/fixmath.h $(GEN)/soc_regs.h $(GEN)/ucm_arrays.h
ISS_INC      := -Isim -Isim/iss -Ifirmware/lib/unicaim -Ifirmware/lib/kernels -I$(GEN)

# $(1): the binary, $(2): arrays.toml's configuration, $(3): external memory bytes.
define ISS_RULE
$(1): $(ISS_C_SRCS) $(ISS_HDRS) sim/iss/iss_main.cpp sim/elf_image.cpp sim/pc_profile.cpp mk/iss.mk
	@mkdir -p $(dir $(1))obj
	$$(call quiet,HOSTCC,$$@)for f in $(ISS_C_SRCS); do \
	  gcc -std=c11 -O2 -g -Wall -Wextra -Werror $(ISS_INC) -c $$$$f -o $(dir $(1))obj/$$$$(basename $$$${f%.c}).o || exit 1; \
	done
	$(Q)g++ -std=c++20 -O2 -g -Wall -Wextra -Werror -DISS_CLK_HZ=$(SIM_CLK_HZ) -DISS_BAUD=$(SIM_BAUD) \
	  -DISS_RAM_BYTES=$(SIM_RAM) -DISS_ROM_BYTES=$(SIM_ROM) -DISS_EXT_BYTES=$(3) \
	  -DISS_ARRAY=UCM_ARRAY_$$(call ucm_name,$(2)) $(ISS_INC) sim/iss/iss_main.cpp sim/elf_image.cpp sim/pc_profile.cpp \
	  $(patsubst %.c,$(dir $(1))obj/%.o,$(notdir $(ISS_C_SRCS))) -o $$@
endef
$(eval $(call ISS_RULE,$(ISS_BIN),$(PLATFORM_SIM_ARRAY),$(SIM_SDRAM)))
$(eval $(call ISS_RULE,$(ISS_BIN_SMOL),smollm2,$(SIM_NATIVE)))
$(eval $(call ISS_RULE,$(ISS_BIN_RETR),retr,$(SIM_SDRAM)))

iss: $(ISS_BIN)
