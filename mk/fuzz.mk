# Fuzzing the console command parser on the host with libFuzzer (clang from
# Debian). `make fuzz` runs it for FUZZ_SECONDS; a crash, hang, sanitizer
# report or changed state on a refused line fails.
FUZZ_SECONDS ?= 180
FUZZ_BUILD   := $(BUILD)/fuzz
FUZZ_BIN     := $(FUZZ_BUILD)/fuzz_console
FUZZ_SRCS    := tests/fuzz/fuzz_console.c tests/fuzz/console_host.c firmware/lib/console/cmd_parse.c \
                firmware/lib/console/console.c

.PHONY: fuzz
$(FUZZ_BIN): $(FUZZ_SRCS) $(wildcard firmware/lib/console/*.h) | deps
	@mkdir -p $(FUZZ_BUILD)/corpus
	clang-14 -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -Ifirmware/lib/console -Ifirmware/hal $(FUZZ_SRCS) -o $@

fuzz: $(FUZZ_BIN)
	printf 'led 0x5a' > $(FUZZ_BUILD)/corpus/seed1; printf 'steps 512 extra' > $(FUZZ_BUILD)/corpus/seed2
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=5 -max_len=200 $(FUZZ_BUILD)/corpus
