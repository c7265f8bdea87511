# The regression: `make test` builds everything and runs tests/run_tests.py,
# which ends with one line "N passed, N failed".
ISA_BUILD   := $(BUILD)/tests/isa
ISA_GEN     := $(addprefix $(ISA_BUILD)/,gen_alu.S gen_muldiv.S gen_branch.S gen_mem.S)
ISA_SRCS    := $(wildcard tests/isa/*.S)
ISA_ELFS    := $(patsubst tests/isa/%.S,$(ISA_BUILD)/%.elf,$(ISA_SRCS)) $(ISA_GEN:.S=.elf)
ISA_CFLAGS  := -march=rv32im_zicsr_zifencei -mabi=ilp32 -nostdlib -nostartfiles -Itests/isa -I$(GEN) -Tlinker/isa.ld

$(ISA_GEN) &: tests/isa/gen_isa_tests.py
	$(PYTHON) $< $(ISA_BUILD)

$(ISA_BUILD)/%.elf: tests/isa/%.S tests/isa/*.h $(GEN)/soc_regs.h linker/isa.ld | deps
	@mkdir -p $(dir $@)
	$(RV_CC) $(ISA_CFLAGS) $< -o $@

$(ISA_BUILD)/%.elf: $(ISA_BUILD)/%.S tests/isa/*.h linker/isa.ld | deps
	$(RV_CC) $(ISA_CFLAGS) $< -o $@

isa-tests: $(ISA_ELFS)

TEST_DEPS := sim firmware isa-tests unit-tests
.PHONY: isa-tests unit-tests
test: deps $(GEN)/soc_regs_pkg.sv
	$(MAKE) --no-print-directory $(TEST_DEPS)
	$(PYTHON) tests/run_tests.py --build $(BUILD)
unit-tests:
