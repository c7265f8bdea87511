# Fuzzing on the host: the console's command parser and the bootloader's
# upload protocol with libFuzzer (clang from Debian), the model converter's
# readers with atheris (PyPI, in a venv beside Debian's numpy). `make fuzz`
# runs each for FUZZ_SECONDS; a crash, hang, sanitizer report or broken
# invariant fails.
FUZZ_SECONDS ?= 180
FUZZ_BUILD   := $(BUILD)/fuzz
FUZZ_VENV    := $(FUZZ_BUILD)/venv
FUZZ_CC      := clang-14 -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CONSOLE_SRCS := tests/fuzz/fuzz_console.c tests/fuzz/console_host.c firmware/lib/console/cmd_parse.c \
                     firmware/lib/console/console.c
FUZZ_UPLOAD_SRCS  := tests/fuzz/fuzz_upload.c firmware/boot/boot_upload.c firmware/lib/util/crc32.c
# The tokenizer (byte-level BPE with SmolLM2's image, UCM_FUZZ_IMAGE).
FUZZ_TOKENIZE_SRCS := tests/fuzz/fuzz_tokenize.c tools/llm/host_file.c firmware/lib/llm/llm_model.c \
                      firmware/lib/llm/tokenizer.c firmware/lib/llm/tokenizer_bpe.c firmware/lib/llm/bpe_pretok.c \
                      firmware/lib/llm/bpe_merge.c firmware/lib/util/crc32.c firmware/lib/kernels/fixmath.c

.PHONY: fuzz fuzz-console fuzz-upload fuzz-convert fuzz-tokenize
$(FUZZ_BUILD)/fuzz_console: $(FUZZ_CONSOLE_SRCS) $(wildcard firmware/lib/console/*.h) | deps
	@mkdir -p $(FUZZ_BUILD)/console
	$(call quiet,FUZZCC,$@)$(FUZZ_CC) -Ifirmware/lib/console -Ifirmware/hal $(FUZZ_CONSOLE_SRCS) -o $@

$(FUZZ_BUILD)/fuzz_upload: $(FUZZ_UPLOAD_SRCS) firmware/boot/boot_upload.h firmware/lib/util/crc32.h $(GEN)/soc_regs.h | deps
	@mkdir -p $(FUZZ_BUILD)/upload
	$(call quiet,FUZZCC,$@)$(FUZZ_CC) -Ifirmware/boot -Ifirmware/lib/util -I$(GEN) $(FUZZ_UPLOAD_SRCS) -o $@

$(FUZZ_BUILD)/fuzz_tokenize: $(FUZZ_TOKENIZE_SRCS) $(wildcard firmware/lib/llm/*.h) | deps
	@mkdir -p $(FUZZ_BUILD)/tokenize
	$(call quiet,FUZZCC,$@)$(FUZZ_CC) -Ifirmware/lib/llm -Ifirmware/lib/util -Ifirmware/lib/kernels -Itools/llm \
	  $(FUZZ_TOKENIZE_SRCS) -o $@

$(FUZZ_VENV)/.stamp: | deps
	/usr/bin/python3 -m venv --system-site-packages $(FUZZ_VENV)
	$(FUZZ_VENV)/bin/pip install --quiet atheris
	touch $@

fuzz-console: $(FUZZ_BUILD)/fuzz_console
	printf 'led 0x5a' > $(FUZZ_BUILD)/console/seed1; printf 'steps 512 extra' > $(FUZZ_BUILD)/console/seed2
	$< -max_total_time=$(FUZZ_SECONDS) -timeout=5 -max_len=200 $(FUZZ_BUILD)/console

fuzz-upload: $(FUZZ_BUILD)/fuzz_upload
	/usr/bin/python3 -c 'import struct, sys, zlib; img = bytes(range(8)); ram = $(SOC_RAM_BASE); \
	  sys.stdout.buffer.write(b"UCHD" + struct.pack("<4I", ram, 8, zlib.crc32(img), ram + 4) + img)' \
	  > $(FUZZ_BUILD)/upload/good
	$< -max_total_time=$(FUZZ_SECONDS) -timeout=5 -max_len=8192 $(FUZZ_BUILD)/upload

fuzz-convert: $(FUZZ_VENV)/.stamp
	@mkdir -p $(FUZZ_BUILD)/convert
	$(FUZZ_VENV)/bin/python tests/fuzz/fuzz_convert.py -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -rss_limit_mb=4096 $(FUZZ_BUILD)/convert

fuzz-tokenize: $(FUZZ_BUILD)/fuzz_tokenize $(SMOL_IMAGE)
	printf 'Hello, world! 12 <|im_start|>user\n' > $(FUZZ_BUILD)/tokenize/seed1
	UCM_FUZZ_IMAGE=$(SMOL_IMAGE) $< -max_total_time=$(FUZZ_SECONDS) -timeout=10 -max_len=4096 -rss_limit_mb=4096 \
	  $(FUZZ_BUILD)/tokenize

fuzz: fuzz-console fuzz-upload fuzz-convert fuzz-tokenize
