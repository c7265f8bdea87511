# The retrieval model (tools/retrieval, shipped in models/retrieval): its
# integer image, held-out tasks, the evaluation, the SoC run, and retraining.
RETR_DIR       := models/retrieval
RETR_MODEL     := $(RETR_DIR)/retrieval.bin
RETR_TOKENIZER := $(RETR_DIR)/tokenizer.bin
RETR_BUILD     := $(BUILD)/retrieval
RETR_IMAGE     := $(RETR_BUILD)/retrieval.ucm
RETR_HELDOUT   := $(RETR_BUILD)/heldout.tasks
TORCH_PACKAGES := python3-torch libopenblas0-pthread
TORCH_STAMP    := $(BUILD)/.torch-ok

$(RETR_IMAGE): $(CONVERT_SRCS) $(RETR_MODEL) $(RETR_TOKENIZER) | deps
	@mkdir -p $(RETR_BUILD)
	$(call quiet,CONVERT,$@)$(PYTHON) tools/llm/convert.py $(RETR_MODEL) $(RETR_TOKENIZER) -o $@

# 60 tasks per kind at full context, needle depths spread evenly.
$(RETR_HELDOUT): tools/retrieval/tasks.py
	@mkdir -p $(RETR_BUILD)
	$(PYTHON) tools/retrieval/tasks.py heldout $@ --len 1024 --per-kind 60 --seed 1000

# The language-model app again, linked with the retrieval model.
$(FW_BUILD)/obj/retr_blob.o: firmware/apps/llm/model_blob.S $(RETR_IMAGE)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(RV_CC) $(FW_CFLAGS) -DMODEL_IMAGE='"$(abspath $(RETR_IMAGE))"' -c $< -o $@
$(FW_BUILD)/retr.elf: $(call fw_obj,$(FW_COMMON) firmware/apps/llm/main.c) $(FW_BUILD)/obj/retr_blob.o $(FW_LDS)
	$(call quiet,LD,$@)$(RV_CC) $(FW_LDFLAGS) $(filter %.o,$^) -o $@

# The same on the ULX3S-85F: model and state in its SDRAM (mk/boards.mk).
$(eval $(call LLM_ULX3S_RULE,retr_ulx3s,$(RETR_IMAGE)))

# PyTorch from Debian (with OpenBLAS: the reference BLAS trains ~5x slower).
$(TORCH_STAMP):
	$(call deb_install,$(TORCH_PACKAGES))

.PHONY: retrieval retrieval-train deps-torch bench-retr
retrieval: $(RETR_IMAGE) $(RETR_HELDOUT) $(FW_BUILD)/retr.elf
deps-torch: $(TORCH_STAMP)

# Retrains the shipped model from scratch (about an hour here).  OpenBLAS
# threads change float sums; the shipped weights were made with two.
retrieval-train: $(TORCH_STAMP)
	OPENBLAS_NUM_THREADS=2 $(PYTHON) tools/retrieval/train.py --out $(RETR_DIR)

# Exact match of fp32 and integer inference on the held-out tasks (by needle
# depth: retr_depth.md), then one full-context passkey task on the simulated
# SoC; both into docs/retrieval.md.
bench bench-retr: $(BENCH_DIR)/retr.txt
$(BENCH_DIR)/retr.txt: $(LLM_BUILD)/llm_eval $(RETR_IMAGE) $(RETR_HELDOUT) $(SIM_BIN) $(FW_BUILD)/retr.elf \
                       tests/retrieval_soc.py
	@mkdir -p $(BENCH_DIR)
	$(LLM_BUILD)/llm_eval $(RETR_MODEL) $(RETR_IMAGE) tasks $(RETR_HELDOUT) > $@.tmp
	grep '^|' $@.tmp > $(BENCH_DIR)/retr_depth.md
	$(PYTHON) tests/retrieval_soc.py --build $(BUILD) --len 1024 --depth 0.05 >> $@.tmp
	mv $@.tmp $@
	cat $@
	$(PYTHON) tools/bench/update_docs.py $(BENCH_DIR) docs/retrieval.md
