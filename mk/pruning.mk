# KV-cache pruning policies against dense attention (tools/llm/prune_eval.c):
# stories260K's local fidelity and the retrieval model's exact match, in the
# ideal setting (the paper's: only the selection is analog) and with the
# array's hardware effects on; CSV, BENCH lines and plots under build/bench.
PRUNE_TASKS := $(RETR_BUILD)/prune.tasks
PRUNE_TASKS_MULTI := $(RETR_BUILD)/prune_multi.tasks
PRUNE_OUT   := $(BENCH_DIR)/prune
PLOT_STAMP  := $(BUILD)/.matplotlib-ok
STORIES_RUN := $(LLM_BUILD)/prune_eval $(LLM_IMAGE) stories 16 512 256
RETR_RUN    := $(LLM_BUILD)/prune_eval $(RETR_IMAGE) tasks $(PRUNE_TASKS)
MULTI_RUN   := $(LLM_BUILD)/prune_eval $(RETR_IMAGE) tasks $(PRUNE_TASKS_MULTI) --tag multi

# 10 tasks per kind at full context, a seed of their own. The recall tasks'
# several questions: one prompt each over the same context (LongBench's
# setting, the question in the prompt), and in a second file one after
# another in one sequence (later questions arrive after the prompt pruning).
$(PRUNE_TASKS): tools/retrieval/tasks.py
	@mkdir -p $(RETR_BUILD)
	$(PYTHON) tools/retrieval/tasks.py heldout $@ --len 1024 --per-kind 10 --seed 3000 --one-question
$(PRUNE_TASKS_MULTI): tools/retrieval/tasks.py
	@mkdir -p $(RETR_BUILD)
	$(PYTHON) tools/retrieval/tasks.py heldout $@ --len 1024 --per-kind 10 --seed 3000

$(PLOT_STAMP):
	$(call deb_install,python3-matplotlib)
	@mkdir -p $(BUILD) && touch $@

.PHONY: bench-prune
bench bench-prune: $(BENCH_DIR)/prune.txt
$(BENCH_DIR)/prune.txt: $(LLM_BUILD)/prune_eval $(LLM_IMAGE) $(RETR_IMAGE) $(PRUNE_TASKS) $(PRUNE_TASKS_MULTI) \
                        tools/llm/plot_pruning.py \
                        $(PLOT_STAMP)
	@mkdir -p $(PRUNE_OUT)
	$(STORIES_RUN) > $(PRUNE_OUT)/stories_ideal.out
	$(STORIES_RUN) --budgets 25,100 --policies streamingllm,h2o,unicaim --hw 3:10:0 > $(PRUNE_OUT)/stories_hw3.out
	$(STORIES_RUN) --budgets 20,25,100 --policies streamingllm,h2o,quest,unicaim --hw 3:10:0:3 \
	  > $(PRUNE_OUT)/stories_hw3x3.out
	$(STORIES_RUN) --budgets 25 --policies unicaim --hw 1:10:0 > $(PRUNE_OUT)/stories_hw1.out
	$(STORIES_RUN) --budgets 25 --policies unicaim --hw 1:10:0 --exact digital > $(PRUNE_OUT)/stories_hw1_select.out
	$(STORIES_RUN) --budgets 25 --policies unicaim --hw 3:10:0 --exact digital --set binary=0x1e \
	  > $(PRUNE_OUT)/stories_binary.out
	for s in 0 16 32 64; do $(STORIES_RUN) --budgets 25 --policies unicaim --hw 3:10:$$s --exact digital; done \
	  > $(PRUNE_OUT)/stories_sigma.out
	$(RETR_RUN) > $(PRUNE_OUT)/retrieval_ideal.out
	$(RETR_RUN) --budgets 20,25 --policies streamingllm,unicaim --hw 3:10:0 > $(PRUNE_OUT)/retrieval_hw3.out
	$(RETR_RUN) --budgets 20,25 --policies streamingllm,unicaim --hw 3:10:0:3 > $(PRUNE_OUT)/retrieval_hw3x3.out
	$(RETR_RUN) --budgets 25 --policies unicaim --hw 1:10:0 > $(PRUNE_OUT)/retrieval_hw1.out
	$(RETR_RUN) --budgets 25 --policies unicaim --hw 1:10:0 --exact digital > $(PRUNE_OUT)/retrieval_hw1_select.out
	$(MULTI_RUN) > $(PRUNE_OUT)/retrieval_multi_ideal.out
	$(MULTI_RUN) --budgets 25 --policies streamingllm,unicaim --hw 3:10:0 > $(PRUNE_OUT)/retrieval_multi_hw3.out
	for s in 16 32 64; do $(RETR_RUN) --budgets 25 --policies unicaim --hw 3:10:$$s --exact digital; done \
	  > $(PRUNE_OUT)/retrieval_sigma.out
	for f in $(PRUNE_OUT)/*.out; do grep -v '^BENCH' $$f > $${f%.out}.csv; done
	$(PYTHON) tools/llm/plot_pruning.py $(PRUNE_OUT) $(PRUNE_OUT)/*.csv
	grep -h '^BENCH' $(PRUNE_OUT)/*.out > $@
	cat $@

# Agreement on the SoC: one 192-token passkey task of the retrieval model
# per policy at a 25% budget, on the simulated SoC and on the host: the same
# tokens, with the SoC's cycles and evictions. UniCAIM runs on a simulator
# whose array has this model's geometry (8 banks x 1024 slots x 96 cells).
AGREE_POLICIES := streamingllm h2o tova snapkv quest
.PHONY: bench-agree
bench bench-agree: $(BENCH_DIR)/agree.txt
$(BENCH_DIR)/agree.txt: $(LLM_BUILD)/llm_host $(RETR_IMAGE) $(SIM_BIN) $(SIM_BIN_RETR) $(FW_BUILD)/retr.elf \
                        tests/retrieval_soc.py
	@mkdir -p $(BENCH_DIR)
	for p in $(AGREE_POLICIES); do \
	  $(PYTHON) tests/retrieval_soc.py --build $(BUILD) --len 192 --depth 0.1 --policy "$$p 48" || exit 1; \
	done > $@.tmp
	$(PYTHON) tests/retrieval_soc.py --build $(BUILD) --sim $(SIM_BIN_RETR) --slices 3 --len 192 --depth 0.1 \
	  --policy "unicaim 48" >> $@.tmp
	mv $@.tmp $@
	cat $@
