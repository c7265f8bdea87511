# KV-cache eviction policies against dense attention (tools/llm/prune_eval.c):
# stories260K's local fidelity and the retrieval model's exact match.
PRUNE_TASKS := $(RETR_BUILD)/prune.tasks

# 10 tasks per kind at full context, a seed of their own.
$(PRUNE_TASKS): tools/retrieval/tasks.py
	@mkdir -p $(RETR_BUILD)
	$(PYTHON) tools/retrieval/tasks.py heldout $@ --len 1024 --per-kind 10 --seed 3000

.PHONY: bench-prune
bench bench-prune: $(BENCH_DIR)/prune.txt
$(BENCH_DIR)/prune.txt: $(LLM_BUILD)/prune_eval $(LLM_IMAGE) $(RETR_IMAGE) $(PRUNE_TASKS)
	@mkdir -p $(BENCH_DIR)
	$(LLM_BUILD)/prune_eval $(LLM_IMAGE) stories 16 512 256 > $(BENCH_DIR)/prune_stories.out
	$(LLM_BUILD)/prune_eval $(RETR_IMAGE) tasks $(PRUNE_TASKS) > $(BENCH_DIR)/prune_retrieval.out
	for w in stories retrieval; do grep -v '^BENCH' $(BENCH_DIR)/prune_$$w.out > $(BENCH_DIR)/prune_$$w.csv; done
	grep -h '^BENCH' $(BENCH_DIR)/prune_stories.out $(BENCH_DIR)/prune_retrieval.out > $@
	cat $@
