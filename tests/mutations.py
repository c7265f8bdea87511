"""One-line mutations for `make mutate` (tools/mutate.py): each is applied
to a scratch copy of the tree, the targets are rebuilt and the test groups
run; a mutation is caught when a test fails (or the build does). Add one
whenever a bug turns up that no test caught.

Mutation(name, file, find, replace, tests, targets): FIND must occur
exactly once in FILE; TESTS are run_tests.py -k filters; TARGETS are make
targets that rebuild what the tests use."""
from collections import namedtuple

Mutation = namedtuple("Mutation", "name file find replace tests targets")

HOST = ("llm-host", "build/llm/fixmath_vectors", "build/llm/llm_score", "build/llm/llm_tokenize")
SOC = ("firmware", "sim")
ARRAY = ("ucm-tests",)
CORE = ("sim", "isa-tests", "firmware")

MUTATIONS = [
    # ---------------------------------------------------------------- LM kernels and tokenizer
    Mutation("fixmath-mul-shift-truncates", "firmware/lib/llm/fixmath.h",
             "return (int32_t)((p + ((int64_t)1 << (shift - 1))) >> shift);", "return (int32_t)(p >> shift);",
             ("fixmath-exact", "pinned-greedy"), HOST),
    Mutation("fixmath-round-shift-truncates", "firmware/lib/llm/fixmath.h",
             "int64_t sum = hi + (lo >> 32) + ((int64_t)1 << (shift - 33));", "int64_t sum = hi + (lo >> 32);",
             ("fixmath-exact", "pinned-greedy"), HOST),
    Mutation("rope-rotates-the-wrong-way", "firmware/lib/llm/transformer.c",
             "v[i] = (int32_t)(((int64_t)a * cos_row[j] - (int64_t)b * sin_row[j]) >> LLM_Q_ROPE);",
             "v[i] = (int32_t)(((int64_t)a * cos_row[j] + (int64_t)b * sin_row[j]) >> LLM_Q_ROPE);",
             ("pinned-greedy", "int8-agreement"), HOST),
    Mutation("quantize8-spans-126", "firmware/lib/llm/transformer.c",
             "return quantize(q, 1, x, n, 127, shift);", "return quantize(q, 1, x, n, 126, shift);",
             ("pinned-greedy", "int8-agreement", "int-vs-fp32-short"), HOST),
    Mutation("bpe-merge-tie-order", "firmware/lib/llm/bpe_merge.c",
             "return g->prio[a] > g->prio[b] || (g->prio[a] == g->prio[b] && a < b);",
             "return g->prio[a] > g->prio[b] || (g->prio[a] == g->prio[b] && a > b);",
             ("tokenizer-matches", "encoder-matches"), HOST),
    Mutation("bpe-pretok-numbers-run-on", "firmware/lib/llm/bpe_pretok.c",
             "while (q < p->end && class_at(p, q, p->end, &len) != LLM_CLASS_NUMBER) q += (size_t)len;",
             "while (q < p->end && class_at(p, q, p->end, &len) == LLM_CLASS_NUMBER) q += (size_t)len;",
             ("tokenizer-matches", "tokenizer-fuzz"), HOST),
    Mutation("attention-max-is-a-min", "firmware/lib/llm/attention.c",
             "if (da > max_a) max_a = da;", "if (da < max_a) max_a = da;",
             ("soc-matches-host-greedy",), HOST + SOC),
    # ---------------------------------------------------------------- policies
    Mutation("h2o-window-one-short", "firmware/lib/kv/policy_h2o.c",
             "return kv->slot_pos[kv_slots_of(kv, h) + (size_t)slot] >= pos - kv->policy.v[WINDOW];",
             "return kv->slot_pos[kv_slots_of(kv, h) + (size_t)slot] > pos - kv->policy.v[WINDOW];",
             ("policy",), HOST + SOC),
    Mutation("streamingllm-three-sinks", "firmware/lib/kv/policy_streamingllm.c",
             "p->v[SINKS] = p->budget > 8 ? 4 : 1;", "p->v[SINKS] = p->budget > 8 ? 3 : 1;",
             ("policy",), HOST + SOC),  # missed until policy-reference ran StreamingLLM at its default
    Mutation("lowest-score-ties-evict-newer", "firmware/lib/kv/kv_slots.c",
             ": score[s] < score[best] || (score[s] == score[best] && at[s] < at[best])))",
             ": score[s] < score[best] || (score[s] == score[best] && at[s] > at[best])))",
             ("policy",), HOST + SOC),
    Mutation("tova-ties-evict-newer", "firmware/lib/kv/policy_tova.c",
             "if (best < 0 || score[s] < score[best] || (score[s] == score[best] && at[s] < at[best])) best = s;",
             "if (best < 0 || score[s] < score[best] || (score[s] == score[best] && at[s] > at[best])) best = s;",
             ("policy",), HOST + SOC),
    Mutation("snapkv-pools-the-minimum", "firmware/lib/kv/policy_snapkv.c",
             "if (t >= 0 && t < candidates && score[t] > m) m = score[t];",
             "if (t >= 0 && t < candidates && score[t] < m) m = score[t];",
             ("policy",), HOST + SOC),
    Mutation("quest-bound-swaps-min-max", "firmware/lib/kv/policy_quest.c",
             "b += q[i] >= 0 ? (int64_t)q[i] * hi[i] : (int64_t)q[i] * lo[i];",
             "b += q[i] >= 0 ? (int64_t)q[i] * lo[i] : (int64_t)q[i] * hi[i];",
             ("policy",), HOST + SOC),
    Mutation("unicaim-plus-span-one-short", "firmware/lib/kv/policy_unicaim_plus.c",
             "for (int u = t; u <= t + p->v[UC_SPAN] && u < recent_lo; u++) protect_position(kv, b, u);",
             "for (int u = t; u < t + p->v[UC_SPAN] && u < recent_lo; u++) protect_position(kv, b, u);",
             ("policy-reference",), HOST),
    Mutation("unicaim-plus-recent-keeps-leaving", "firmware/lib/kv/policy_unicaim_plus.c",
             "if (leaving >= 0 && !(kv->slot_flags[kv_slots_of(kv, h) + (size_t)leaving] & KV_SLOT_CRITICAL))",
             "if (leaving >= 0 && (kv->slot_flags[kv_slots_of(kv, h) + (size_t)leaving] & KV_SLOT_CRITICAL))",
             ("policy-reference",), HOST),
    # ---------------------------------------------------------------- the array: golden model and RTL
    Mutation("charge-share-shift-off-by-one", "firmware/lib/unicaim/ucm_arith.c",
             "return (uint32_t)((int64_t)acc + (diff >> alpha));", "return (uint32_t)((int64_t)acc + (diff >> (alpha + 1)));",
             ("cosim",), ARRAY),
    Mutation("golden-victim-ties-newest", "firmware/lib/unicaim/ucm_model.c",
             "m->acc[i] < m->acc[b] || (m->acc[i] == m->acc[b] && m->pos[i] < m->pos[b])",
             "m->acc[i] < m->acc[b] || (m->acc[i] == m->acc[b] && m->pos[i] > m->pos[b])",
             ("cosim",), ARRAY),
    Mutation("rtl-victim-takes-equal", "rtl/unicaim/ucm_select.sv",
             "(!victim_found_o || acc < victim_acc ||", "(!victim_found_o || acc <= victim_acc ||",
             ("cosim",), ARRAY),
    Mutation("rtl-greater-than-takes-equal", "rtl/unicaim/ucm_select.sv",
             "ucm_pkg::ST_GT:    if (scanning && cand && biased > bound_q)",
             "ucm_pkg::ST_GT:    if (scanning && cand && biased >= bound_q)",
             ("cosim",), ARRAY),
    Mutation("read-noise-doubled", "firmware/lib/unicaim/ucm_arith.c",
             "return (gauss * (int32_t)sigma * 7 + 4096) >> 13;", "return (gauss * (int32_t)sigma * 7 + 4096) >> 12;",
             ("cosim",), ARRAY),
    Mutation("sense-exp-table-truncates", "firmware/lib/unicaim/ucm_arith.c",
             "table[i] = (uint32_t)((e + (1u << 13)) >> 14);", "table[i] = (uint32_t)(e >> 14);",
             ("cosim",), ARRAY),
    Mutation("sense-mismatch-not-clamped", "firmware/lib/unicaim/ucm_arith.c",
             "if (mismatch < 0) mismatch = 0;", "if (mismatch < -100000) mismatch = 0;",
             ("cosim",), ARRAY),
    Mutation("rtl-sense-fraction-bits-shifted", "rtl/unicaim/ucm_lane.sv",
             "exp_q         <= exp2_rom[decay_q[23:16]];", "exp_q         <= exp2_rom[decay_q[22:15]];",
             ("cosim",), ARRAY),
    Mutation("rtl-share-weight-from-c-acc", "rtl/unicaim/ucm_regs.sv",
             "assign weight_product = 33'(csl) * 33'(recip_sum_q);", "assign weight_product = 33'(cacc) * 33'(recip_sum_q);",
             ("cosim",), ARRAY),
    Mutation("sense-energy-a-quarter-more", "firmware/lib/unicaim/ucm_energy.c",
             "const uint64_t sense_row_aj = t.csl_ff * vpre2 / 1000;", "const uint64_t sense_row_aj = t.csl_ff * vpre2 / 800;",
             ("energy", "cost"), ARRAY + HOST),
    # ---------------------------------------------------------------- the core
    Mutation("sra-takes-bit-30", "rtl/core/cpu_alu.sv",
             "assign shift_arith = (op_i == cpu_pkg::ALU_SRA) && a_i[31];",
             "assign shift_arith = (op_i == cpu_pkg::ALU_SRA) && a_i[30];",
             ("isa/",), CORE),
    Mutation("slt-ignores-signs", "rtl/core/cpu_alu.sv",
             "assign lt_o     = (a_i[31] != b_i[31]) ? a_i[31] : sum[31];", "assign lt_o     = sum[31];",
             ("isa/",), CORE),
    Mutation("sltu-without-borrow", "rtl/core/cpu_alu.sv",
             "assign ltu_o    = !sum[32];", "assign ltu_o    = sum[32];",
             ("isa/",), CORE),
]
MUTATIONS += [
    Mutation("divide-skips-3d", "rtl/core/cpu_divider.sv",
             "quotient_d  = {quotient_q[29:0], 2'd3};", "quotient_d  = {quotient_q[29:0], 2'd2};",
             ("isa/",), CORE),
    Mutation("divide-abs-ignores-sign", "rtl/core/cpu_divider.sv",
             "assign b_abs = (is_signed && b_i[31]) ? -b_i : b_i;", "assign b_abs = b_i;",
             ("isa/",), CORE),
    Mutation("lb-zero-extends", "rtl/core/cpu_core.sv",
             "3'b000:  wb_load_data = {{24{shifted[7]}}, shifted[7:0]};",
             "3'b000:  wb_load_data = {24'b0, shifted[7:0]};",
             ("isa/",), CORE),
]
