# Language model: the converter's image, host builds of the firmware's
# inference code (the same sources), and the fp32 reference.
MODELS_DIR  ?= ../shared/models
MODEL       ?= $(MODELS_DIR)/stories260K.bin
TOKENIZER   ?= $(MODELS_DIR)/tok512.bin
LLM_BUILD   := $(BUILD)/llm
LLM_IMAGE   := $(LLM_BUILD)/model.ucm
HOST_CC     := gcc
HOST_CFLAGS := -std=c11 -O3 -g -Wall -Wextra -Werror -Ifirmware/lib/llm -Ifirmware/lib/kv -Ifirmware/lib/kernels \
               -Ifirmware/lib/util -Ifirmware/lib/unicaim -I$(GEN)
# The UniCAIM KV-cache backend runs on the golden model through the driver.
LLM_LIB_SRCS := $(wildcard firmware/lib/llm/*.c firmware/lib/kv/*.c firmware/lib/kernels/*.c) \
                firmware/lib/util/crc32.c $(addprefix firmware/lib/unicaim/,ucm.c ucm_model.c ucm_arith.c ucm_energy.c)
LLM_LIB_HDRS := $(wildcard firmware/lib/llm/*.h firmware/lib/kv/*.h firmware/lib/kernels/*.h) \
                $(wildcard firmware/lib/unicaim/*.h) $(GEN)/soc_regs.h $(GEN)/ucm_arrays.h

# The converter and the image format it writes (every image depends on both).
CONVERT_SRCS := $(addprefix tools/llm/,convert.py image_format.py gguf_reader.py bpe_tables.py llama2c_reader.py)
$(LLM_IMAGE): $(CONVERT_SRCS) $(MODEL) $(TOKENIZER) | deps
	@mkdir -p $(LLM_BUILD)
	$(call quiet,CONVERT,$@)$(PYTHON) tools/llm/convert.py $(MODEL) $(TOKENIZER) -o $@

$(LLM_BUILD)/llm_host: tools/llm/llm_host.c tools/llm/host_file.c \
                       tools/llm/host_kernels.c tools/llm/host_kernels.h \
                       $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) -Itools/llm $(filter %.c,$^) -o $@

$(LLM_BUILD)/llm_eval: tools/llm/llm_eval.c tools/llm/ref_fp32.c tools/llm/host_file.c tools/llm/task_file.c tools/llm/task_file.h \
                       tools/llm/logits.c tools/llm/logits.h $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) -Itools/llm $(filter %.c,$^) -o $@ -lm

$(LLM_BUILD)/prune_eval: tools/llm/prune_eval.c tools/llm/host_file.c tools/llm/task_file.c tools/llm/task_file.h \
                         tools/llm/logits.c tools/llm/logits.h tools/llm/prompt_tape.c tools/llm/prompt_tape.h \
                         tools/llm/host_kernels.c tools/llm/host_kernels.h tools/llm/bank_scales.c \
                         tools/llm/bank_scales.h tools/llm/gen_journal.c tools/llm/gen_journal.h \
                         $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) -Itools/llm $(filter %.c,$^) -o $@ -lm

$(LLM_BUILD)/kv_soak: tools/llm/kv_soak.c $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) $(filter %.c,$^) -o $@

.PHONY: llm-host
llm-host: $(LLM_IMAGE) $(LLM_BUILD)/llm_host $(LLM_BUILD)/llm_eval $(LLM_BUILD)/prune_eval $(LLM_BUILD)/kv_soak \
          $(LLM_BUILD)/llm_context $(LLM_BUILD)/fixmath_vectors $(LLM_BUILD)/kv_trace $(LLM_BUILD)/kv_record

$(LLM_BUILD)/llm_score: tools/llm/llm_score.c tools/llm/host_file.c tools/llm/logits.c tools/llm/logits.h \
                        tools/llm/host_kernels.c tools/llm/host_kernels.h \
                        $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) -Itools/llm $(filter %.c,$^) -o $@ -lm

$(LLM_BUILD)/llm_tokenize: tools/llm/llm_tokenize.c tools/llm/host_file.c $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) -Itools/llm $(filter %.c,$^) -o $@ -lm

$(LLM_BUILD)/llm_context: tools/llm/llm_context.c tools/llm/host_file.c tools/llm/host_kernels.c tools/llm/host_kernels.h \
                          $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) -Itools/llm $(filter %.c,$^) -o $@ -lm

# The fixed-point helpers on test vectors (tests/llm_tests.py's fixmath-exact).
$(LLM_BUILD)/fixmath_vectors: tests/host/fixmath_vectors.c firmware/lib/kernels/fixmath.c firmware/lib/kernels/fixmath.h
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) $(filter %.c,$^) -o $@

# The cache under a policy on a scripted sequence (tests/policy_reference.py).
# One bank's keys and queries from a real model, as kv_trace's script.
$(LLM_BUILD)/kv_record: tools/llm/kv_record.c tools/llm/host_file.c tools/llm/logits.c tools/llm/logits.h \
                        tools/llm/prompt_tape.c tools/llm/prompt_tape.h $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) -Itools/llm $(filter %.c,$^) -o $@ -lm

$(LLM_BUILD)/kv_trace: tools/llm/kv_trace.c $(LLM_LIB_SRCS) $(LLM_LIB_HDRS)
	@mkdir -p $(LLM_BUILD)
	$(call quiet,HOSTCC,$@)$(HOST_CC) $(HOST_CFLAGS) -Itools/llm $(filter %.c,$^) -o $@ -lm
