# UniCAIM SoC: top-level build.  `make demo` and `make test` are the entry points.
SHELL  := /bin/bash
BUILD  := build
PYTHON := /usr/bin/python3

.PHONY: all deps sim firmware lint test demo demo-console bench synth clean help
all: sim firmware

help:
	@echo "make demo      build everything and run stories260K on the simulated SoC"
	@echo "make test      the whole regression (lint, ISA suite, unit benches, firmware)"
	@echo "make sim       build $(BUILD)/sim/unicaim-sim"
	@echo "make firmware  build the firmware apps into $(BUILD)/fw"
	@echo "make bench     benchmarks (BENCH lines into $(BUILD)/bench)"
	@echo "make synth     Yosys resource counts (ECP5 and Xilinx 7)"
	@echo "make deps      install missing Debian packages"

include mk/deps.mk
include mk/regmap.mk
include mk/rtl.mk
include mk/board_array.mk
include mk/sim.mk
include mk/llm.mk
include mk/firmware.mk
include mk/bench.mk
include mk/fuzz.mk
include mk/boards.mk
include mk/unicaim.mk
include mk/retrieval.mk
include mk/pruning.mk
include mk/tests.mk  # last: its prerequisites come from the others

# The language model on the simulated SoC; `make demo-console` runs the
# plain console session instead.
demo: deps sim firmware
	$(PYTHON) tools/uartctl.py sim --elf $(BUILD)/fw/llm.elf --script tests/fw/llm_demo.txt

demo-console: deps sim firmware
	$(PYTHON) tools/uartctl.py sim --elf $(BUILD)/fw/console.elf --script tests/fw/console_demo.txt

clean:
	rm -rf $(BUILD)
