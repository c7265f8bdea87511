# The functional simulator, build/iss/unicaim-iss (sim/iss/): the firmware
# on an instruction-set model of the core with the array's golden model,
# for runs Verilator would take hours over. The simulator platform's
# memories (boards/boards.toml) and array (arrays.toml's sim).
ISS_BIN    := $(BUILD)/iss/unicaim-iss
ISS_SRCS   := $(wildcard sim/iss/*.c) firmware/lib/unicaim/ucm_model.c firmware/lib/unicaim/ucm_arith.c
ISS_HDRS   := $(wildcard sim/iss/*.h) sim/elf_image.h sim/host_port.h $(wildcard firmware/lib/unicaim/*.h) \
              $(GEN)/soc_regs.h $(GEN)/ucm_arrays.h
ISS_DEFS   := -DISS_CLK_HZ=$(SIM_CLK_HZ) -DISS_BAUD=$(SIM_BAUD) -DISS_RAM_BYTES=$(SIM_RAM) -DISS_ROM_BYTES=$(SIM_ROM) \
              -DISS_EXT_BYTES=$(SIM_SDRAM) -DISS_ARRAY=UCM_ARRAY_$(call ucm_name,$(PLATFORM_SIM_ARRAY))
ISS_INC    := -Isim -Isim/iss -Ifirmware/lib/unicaim -I$(GEN)

iss: $(ISS_BIN)
$(ISS_BIN): $(ISS_SRCS) $(ISS_HDRS) sim/iss/iss_main.cpp sim/elf_image.cpp mk/iss.mk
	@mkdir -p $(BUILD)/iss/obj
	$(call quiet,HOSTCC,$@)for f in $(ISS_SRCS); do \
	  gcc -std=c11 -O2 -g -Wall -Wextra -Werror $(ISS_INC) -c $$f -o $(BUILD)/iss/obj/$$(basename $${f%.c}).o || exit 1; \
	done
	$(Q)g++ -std=c++20 -O2 -g -Wall -Wextra -Werror $(ISS_DEFS) $(ISS_INC) sim/iss/iss_main.cpp sim/elf_image.cpp \
	  $(patsubst %.c,$(BUILD)/iss/obj/%.o,$(notdir $(ISS_SRCS))) -o $@
