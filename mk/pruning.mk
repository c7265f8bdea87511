# KV-cache pruning policies against the reference (tools/llm/prune_eval.c):
# stories260K's local fidelity and the retrieval model's exact match, in the
# ideal setting (the paper's: only the selection is analog) and with the
# array's hardware effects on; CSV, BENCH lines and plots under build/bench.
# Policies come from the registry (prune_eval --list): nothing here names one.
#
# Development set (make tune-prune: parameter sweeps) and test set (make
# bench-prune: every reported figure) never share a seed. The test set's
# tables, build/bench/prune_tables.md, are written into docs/pruning.md.
PRUNE_OUT    := $(BENCH_DIR)/prune
PRUNE        := $(LLM_BUILD)/prune_eval
PRUNE_DEV    := $(RETR_BUILD)/prune_dev.tasks
PRUNE_TEST   := $(RETR_BUILD)/prune_test.tasks
PRUNE_MULTI  := $(RETR_BUILD)/prune_multi.tasks
STORIES_DEV  := $(PRUNE) $(LLM_IMAGE) stories 16 512 256 --seed-base 0
STORIES_TEST := $(PRUNE) $(LLM_IMAGE) stories 64 512 256 --seed-base 1000
RETR_DEV     := $(PRUNE) $(RETR_IMAGE) tasks $(PRUNE_DEV)
RETR_TEST    := $(PRUNE) $(RETR_IMAGE) tasks $(PRUNE_TEST)
PLOT_STAMP   := $(BUILD)/.matplotlib-ok

# One prompt per task (its first question), needles spread over the context.
$(PRUNE_DEV): tools/retrieval/tasks.py
	@mkdir -p $(RETR_BUILD)
	$(PYTHON) tools/retrieval/tasks.py heldout $@ --len 1024 --per-kind 30 --seed 3000 --first-question
$(PRUNE_TEST): tools/retrieval/tasks.py
	@mkdir -p $(RETR_BUILD)
	$(PYTHON) tools/retrieval/tasks.py heldout $@ --len 1024 --per-kind 100 --seed 4000 --first-question
# Every question of a task in one sequence: later ones arrive after the
# prompt was compressed (a multi-turn setting).
$(PRUNE_MULTI): tools/retrieval/tasks.py
	@mkdir -p $(RETR_BUILD)
	$(PYTHON) tools/retrieval/tasks.py heldout $@ --len 1024 --per-kind 30 --seed 4000

$(PLOT_STAMP):
	$(call deb_install,python3-matplotlib)
	@mkdir -p $(BUILD) && touch $@

# The test set's runs, one output each (make -j2 runs two at a time).
PRUNE_RUNS := stories_ideal stories_hw stories_ablations retrieval_ideal retrieval_hw retrieval_ablations \
              retrieval_paper retrieval_multi
PRUNE_ARGS_stories_ideal       := $(STORIES_TEST) --budgets 10,20,25,50
PRUNE_ARGS_stories_hw          := $(STORIES_TEST) --budgets 25 --hw
PRUNE_ARGS_stories_ablations   := $(STORIES_TEST) --budgets 25 --hw --ablations
PRUNE_ARGS_retrieval_ideal     := $(RETR_TEST) --budgets 10,20,25,50
PRUNE_ARGS_retrieval_hw        := $(RETR_TEST) --budgets 25 --hw
PRUNE_ARGS_retrieval_ablations := $(RETR_TEST) --budgets 25 --hw --ablations
# The paper's geometry: a 576-slot bank (H = 512, M = 64) for 1024 tokens.
PRUNE_ARGS_retrieval_paper     := $(RETR_TEST) --policies array --positions 576 --set h=512 --slots 576 --hw
PRUNE_ARGS_retrieval_multi     := $(PRUNE) $(RETR_IMAGE) tasks $(PRUNE_MULTI) --budgets 25 --tag multi

$(PRUNE_RUNS:%=$(PRUNE_OUT)/%.out): $(PRUNE_OUT)/%.out: $(PRUNE) $(LLM_IMAGE) $(RETR_IMAGE) $(PRUNE_TEST) $(PRUNE_MULTI)
	@mkdir -p $(PRUNE_OUT)
	$(PRUNE_ARGS_$*) > $@.tmp
	mv $@.tmp $@

.PHONY: bench-prune tune-prune
bench bench-prune: $(BENCH_DIR)/prune.txt
$(BENCH_DIR)/prune.txt: $(PRUNE_RUNS:%=$(PRUNE_OUT)/%.out) $(BENCH_DIR)/ucm.txt tools/llm/plot_pruning.py \
                         tools/llm/results_tables.py $(PLOT_STAMP)
	for f in $(PRUNE_RUNS:%=$(PRUNE_OUT)/%.out); do grep -v '^BENCH' $$f > $${f%.out}.csv; done
	$(PYTHON) tools/llm/results_tables.py $(PRUNE_RUNS:%=$(PRUNE_OUT)/%.csv) > $(BENCH_DIR)/prune_tables.md
	$(PYTHON) tools/bench/update_docs.py $(BENCH_DIR) docs/pruning.md
	$(PYTHON) tools/llm/plot_pruning.py $(BENCH_DIR) --reference "$$($(PRUNE) --list | head -1 | cut -d' ' -f1)" \
	  $(PRUNE_RUNS:%=$(PRUNE_OUT)/%.csv) $(BENCH_DIR)/ucm_model.csv
	grep -h '^BENCH' $(PRUNE_RUNS:%=$(PRUNE_OUT)/%.out) > $@
	cat $@

# Sweeps of each policy's main parameters on the development set; the
# defaults in the policies' files are the best of these.
TUNE_SWEEPS := sinks=1,4,8 window=8,16,32,64 page=8,16,32 alpha=0,2,4,8 init=0,500,1000 k=13,25,51,102 \
               spare=8,25,50 protect=100,250,500
tune-prune: $(PRUNE) $(LLM_IMAGE) $(RETR_IMAGE) $(PRUNE_DEV)
	@mkdir -p $(PRUNE_OUT)
	for s in $(TUNE_SWEEPS); do $(RETR_DEV) --budgets 25 --sweep $$s; done > $(PRUNE_OUT)/tune_retrieval.out
	for s in $(TUNE_SWEEPS); do $(STORIES_DEV) --budgets 25 --sweep $$s; done > $(PRUNE_OUT)/tune_stories.out
	grep -h '^BENCH' $(PRUNE_OUT)/tune_*.out

# Agreement on the SoC: one 192-token passkey task of the retrieval model
# per policy at a 25% budget, on the simulated SoC and on the host: the same
# tokens, with the SoC's cycles and evictions. The policies that need the
# array run on the simulator with this model's array (arrays.toml [retr]).
.PHONY: bench-agree
bench bench-agree: $(BENCH_DIR)/agree.txt
$(BENCH_DIR)/agree.txt: $(LLM_BUILD)/llm_host $(PRUNE) $(RETR_IMAGE) $(SIM_BIN) $(SIM_BIN_RETR) $(FW_BUILD)/retr.elf \
                        tests/retrieval_soc.py
	@mkdir -p $(BENCH_DIR)
	$(PRUNE) --list | grep -v '^ ' | tail -n +2 | while read name rest; do \
	  case "$$rest" in \
	    "(array)"*) $(PYTHON) tests/retrieval_soc.py --build $(BUILD) --sim $(SIM_BIN_RETR) --slices 3 --kv unicaim \
	                  --len 192 --depth 0.1 --policy "$$name 48" || exit 1 ;; \
	    *) $(PYTHON) tests/retrieval_soc.py --build $(BUILD) --len 192 --depth 0.1 --policy "$$name 48" || exit 1 ;; \
	  esac; \
	done > $@.tmp
	mv $@.tmp $@
	cat $@

# The retrieval model on the ULX3S build with its array (ULX3S_ARRAY=
# board_retr: a slot for each of its 1024 positions, one 3-bit cell per key
# component): every key in the array, each position attending to the CAM's
# top RETR_ULX3S_TOPK keys with exact scores from the cached keys ("kv
# unicaim K digital"; K and the exact scores' source chosen on the
# development set, make tune-retr-ulx3s). The test set's exact match with its
# interval on the host (prune_eval: the same array's golden model; beside it
# the reference attending to every key in software), then one
# passkey task at 1024 tokens on the board simulator at RTL (retr_ulx3s.elf
# uploaded through the bootloader, model and state in SDRAM) against the
# host's tokens.
RETR_ULX3S_TOPK  := 128
RETR_ULX3S_HW    := --hw $(UCM_BOARD_RETR_CELL_BITS):$(UCM_BOARD_RETR_ADC_BITS):0:1 --policies none
RETR_ULX3S_TUNE  := 32 64 128 256
.PHONY: bench-retr-ulx3s tune-retr-ulx3s
bench bench-retr-ulx3s: $(BENCH_DIR)/retr_ulx3s.txt
$(BENCH_DIR)/retr_ulx3s.txt: $(PRUNE) $(LLM_BUILD)/llm_host $(RETR_IMAGE) $(PRUNE_TEST) $(BOARD_SIM_RETR) \
                             $(FW_BUILD)/retr_ulx3s.elf tests/retrieval_soc.py
	@mkdir -p $(BENCH_DIR)
	$(RETR_TEST) --policies none | grep '^BENCH' > $@.tmp
	$(RETR_TEST) $(RETR_ULX3S_HW) --exact digital --top-k $(RETR_ULX3S_TOPK) | grep '^BENCH' >> $@.tmp
	$(PYTHON) tests/retrieval_soc.py --build $(BUILD) --sim $(BOARD_SIM_RETR) --upload $(FW_BUILD)/retr_ulx3s.elf \
	  --len 1024 --depth 0.05 --kv "unicaim $(RETR_ULX3S_TOPK) digital" --slices 1 --tag _ulx3s >> $@.tmp
	mv $@.tmp $@
	cat $@
tune-retr-ulx3s: $(PRUNE) $(RETR_IMAGE) $(PRUNE_DEV)
	@mkdir -p $(PRUNE_OUT)
	for k in $(RETR_ULX3S_TUNE); do for e in adc digital; do \
	  $(RETR_DEV) $(RETR_ULX3S_HW) --exact $$e --top-k $$k; done; done > $(PRUNE_OUT)/tune_retr_ulx3s.out
	grep -h '^BENCH' $(PRUNE_OUT)/tune_retr_ulx3s.out

# ---------------------------------------------------------------- SmolLM2
# The paper's claims on a real chat model: SmolLM2-135M-Instruct on
# long-context tasks in RULER's style (tools/llm/smol_tasks.py: needles,
# variable tracking, common words, question answering; haystacks of
# Debian's fortunes), greedy answers scored by RULER's string match. Each
# prompt is read once and replayed into every policy's cache
# (tools/llm/prompt_tape.h). Development set: the even fortune files,
# seeds 5000 + length; test set: the odd ones, seeds 6000 + length. The
# test run at 2k tokens carries the issue's names (_smol); 1k and 4k are
# tagged smol1k, smol4k. Minutes a task at 2k on one core (docs/pruning.md,
# "Cost"): make -j2 runs two lengths at a time, days in all, over as many
# invocations as it takes (the journals below).
SMOL_TASK_DIR   := $(SMOL_BUILD)/tasks
SMOL_LENGTHS    := 1024 2048 4096
SMOL_TEST_TASKS := 100
SMOL_DEV_TASKS  := 10
SMOL_TAG_1024   := smol1k
SMOL_TAG_2048   := smol
SMOL_TAG_4096   := smol4k
SMOL_TASK_SRCS  := tools/llm/smol_tasks.py tools/llm/gguf_tokenizer.py

$(SMOL_TASK_DIR)/test_%.tasks: $(SMOL_TASK_SRCS) $(SMOL_GGUF) | $(SMOL_TEXT_STAMP) $(SMOL_VENV)/.stamp
	@mkdir -p $(dir $@)
	$(SMOL_PY) tools/llm/smol_tasks.py $(SMOL_GGUF) $@ --len $* --per-kind $(SMOL_TEST_TASKS) --seed $$((6000 + $*)) \
	  --split test
$(SMOL_TASK_DIR)/dev_%.tasks: $(SMOL_TASK_SRCS) $(SMOL_GGUF) | $(SMOL_TEXT_STAMP) $(SMOL_VENV)/.stamp
	@mkdir -p $(dir $@)
	$(SMOL_PY) tools/llm/smol_tasks.py $(SMOL_GGUF) $@ --len $* --per-kind $(SMOL_DEV_TASKS) --seed $$((5000 + $*)) \
	  --split dev

# Each run keeps its finished tasks in a journal (prune_eval --journal): a
# sweep stopped part way, at a session's end, say, goes on from them when
# make runs it again. The journal starts empty when the program, the model
# or the tasks change (touch it to keep it through a change that leaves
# the results alone).
.PRECIOUS: $(PRUNE_OUT)/smol_%.journal $(PRUNE_OUT)/smol_hw_%.journal $(SMOL_TASK_DIR)/%.tasks
$(PRUNE_OUT)/smol_%.journal: $(PRUNE) $(SMOL_IMAGE) $(SMOL_TASK_DIR)/test_%.tasks
	@mkdir -p $(PRUNE_OUT)
	rm -f $@ && touch $@
$(PRUNE_OUT)/smol_%.out: $(PRUNE_OUT)/smol_%.journal
	$(PRUNE) $(SMOL_IMAGE) gen $(SMOL_TASK_DIR)/test_$*.tasks --budgets 10,20,25,50 --tag $(SMOL_TAG_$*) \
	  --journal $< > $@.tmp
	mv $@.tmp $@
# The issue's claims are on the array with its hardware effects: 2k tokens
# through the golden model of the SmolLM2 build's array (BENCH
# retr_em_<policy>_b<budget>_hw_smol).
SMOL_RUNS := $(SMOL_LENGTHS:%=smol_%) smol_hw_2048
$(PRUNE_OUT)/smol_hw_%.journal: $(PRUNE) $(SMOL_IMAGE) $(SMOL_TASK_DIR)/test_%.tasks
	@mkdir -p $(PRUNE_OUT)
	rm -f $@ && touch $@
$(PRUNE_OUT)/smol_hw_%.out: $(PRUNE_OUT)/smol_hw_%.journal
	$(PRUNE) $(SMOL_IMAGE) gen $(SMOL_TASK_DIR)/test_$*.tasks --budgets 10,20,25,50 --hw --tag $(SMOL_TAG_$*) \
	  --journal $< > $@.tmp
	mv $@.tmp $@

.PHONY: bench-prune-smol tune-prune-smol
bench-prune-smol: $(BENCH_DIR)/prune_smol.txt
$(BENCH_DIR)/prune_smol.txt: $(SMOL_RUNS:%=$(PRUNE_OUT)/%.out) tools/llm/plot_pruning.py \
                             tools/llm/results_tables.py $(PLOT_STAMP)
	for f in $(SMOL_RUNS:%=$(PRUNE_OUT)/%.out); do grep -v '^BENCH' $$f > $${f%.out}.csv; done
	$(PYTHON) tools/llm/results_tables.py $(SMOL_RUNS:%=$(PRUNE_OUT)/%.csv) > $(BENCH_DIR)/prune_smol_tables.md
	$(PYTHON) tools/llm/plot_pruning.py $(BENCH_DIR) --reference "$$($(PRUNE) --list | head -1 | cut -d' ' -f1)" \
	  $(SMOL_RUNS:%=$(PRUNE_OUT)/%.csv)
	grep -h '^BENCH' $(SMOL_RUNS:%=$(PRUNE_OUT)/%.out) > $@
	cat $@

# SnapKV on the fp32 reference (tools/llm/snapkv_fp32.py, no code shared
# with the engine or the C policy) on the development set's needles at 1k
# tokens: an independent check of what prune_eval measures for it.
.PHONY: bench-snapkv-fp32
bench-snapkv-fp32: $(BENCH_DIR)/snapkv_fp32.txt
$(BENCH_DIR)/snapkv_fp32.txt: tools/llm/snapkv_fp32.py tools/llm/gguf_ref.py $(SMOL_TASK_DIR)/dev_1024.tasks $(PRUNE) \
                               $(SMOL_IMAGE)
	@mkdir -p $(BENCH_DIR)
	grep '^niah_single' $(SMOL_TASK_DIR)/dev_1024.tasks > $@.tasks
	$(SMOL_PY) tools/llm/snapkv_fp32.py $(SMOL_GGUF) $@.tasks --budgets 95,50,20 --prune-eval $(PRUNE) \
	  --image $(SMOL_IMAGE) > $@.tmp
	mv $@.tmp $@
	cat $@

# The sense line's trim and the linear ablation, and unicaim+'s protection
# (threshold, spare, span), on the development set at 1k tokens (the
# defaults in policy_unicaim*.c are chosen from these; docs/pruning.md).
SMOL_TUNE := linear=0,1 ts=100,300,1000,3000 cacc=5,10,40,160 protect=100,250,500 spare=20,51,102 span=6,10,16
tune-prune-smol: $(PRUNE) $(SMOL_IMAGE) $(SMOL_TASK_DIR)/dev_1024.tasks
	@mkdir -p $(PRUNE_OUT)
	for s in $(SMOL_TUNE); do \
	  $(PRUNE) $(SMOL_IMAGE) gen $(SMOL_TASK_DIR)/dev_1024.tasks --budgets 20 --tag smol1k_dev --sweep $$s; \
	done > $(PRUNE_OUT)/tune_smol.out
	grep -h '^BENCH' $(PRUNE_OUT)/tune_smol.out
