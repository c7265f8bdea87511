/* Attention over the cache: dense in software, through the block (CAM top-k
   then exact scores), Quest's page selection on either backend, and the
   UniCAIM policy's hybrid step (adaptive k, accumulation, protection). */
#include "attention.h"
#include "fixmath.h"
#include "kv_internal.h"
#include "llm_model.h"

/* Exact scores come in eighths of a cell level: times the key step / 8 back
   to the int8 keys' units, then to the cached keys' (12-bit). A binary
   bank's top level stands for a typical |int8 key| of 40: times 40 / 3 / 8. */
static void scale_exact(int32_t *a, int n, int binary) {
  for (int i = 0; i < n; i++)
    a[i] = binary ? a[i] * (5 << KV_KEY_INT8_SHIFT) / 3 : a[i] * (KV_UCM_KEY_STEP / 8 << KV_KEY_INT8_SHIFT);
}

/* Q as the drive of the bank's columns (kv_encode.c), into the block. */
static void load_query(kv_cache_t *kv, int layer, const int8_t *q) {
  int8_t columns[KV_SLICES_MAX * LLM_MAX_HEAD_SIZE];
  kv_encode_query(kv, kv_binary_layer(kv, layer), q, columns);
  ucm_load_query(kv->ucm, columns);
}

/* Exact scores of the N slots in kv->selected into kv->att, in int8 units:
   from the block (after ucm_search when SEARCHED, else for the list) or
   from the keys in RAM. Returns 0 or a driver error. */
static int exact_scores(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n, int searched) {
  const int h = kv_head_of(kv, layer, kvh), hs = kv->head_size;
  if (kv->exact == KV_EXACT_DIGITAL) {
    const size_t stride = (size_t)(kv->n_kv_heads * hs);
    attn_dots_rows(kv->att, q, kv->keys + kv_row_of(kv, layer, 0) * stride + (size_t)(kvh * hs), stride,
                   kv->selected, n, hs);
    return 0;
  }
  int ideal = kv->exact == KV_EXACT_CELLS;
  int err = searched ? ucm_exact_selected(kv->ucm, (unsigned)h, (unsigned)n, ideal, kv->att)
                     : ucm_exact(kv->ucm, (unsigned)h, kv->selected, (unsigned)n, ideal, kv->att);
  if (!err) scale_exact(kv->att, n, kv_binary_layer(kv, layer));
  return err;
}

/* Scores a[i] (dot products scaled by the key's own scale) -> probabilities
   times the value scale, Q16 per int8 value unit. rows[i] names a's slot
   (NULL: slot i). SCORE (per slot) gathers the probabilities for the
   policy, PROB (per i) receives them; either may be NULL. Most positions of
   a sharp head get a weight of exactly 0 (stories260K: two thirds), so only
   the others go on: returns their count M, their weights in a[0..M) and
   their slots in kept[0..M). Runs once per cached position and head, so the
   products that fit use one high-word multiply (the results are those of
   the plain 64-bit formulas), and it is inlined twice: with ROWS, SCORE and
   PROB all NULL (dense attention) and in general. */
static inline __attribute__((always_inline)) int softmax_body(const kv_cache_t *kv, int layer, int kvh, int32_t *a,
                                                              const uint16_t *rows, int n, int32_t head_factor,
                                                              int32_t *score, int32_t *prob, uint16_t *kept) {
  const size_t nkv = (size_t)kv->n_kv_heads;
  const int32_t *kscale = kv->key_scale + kv_row_of(kv, layer, 0) * nkv + (size_t)kvh;
  const int32_t *vscale = kv->value_scale + kv_row_of(kv, layer, 0) * nkv + (size_t)kvh;
  int32_t max = INT32_MIN;
  for (int i = 0; i < n; i++) {
    size_t t = rows ? rows[i] : (size_t)i;
    int32_t s = (int32_t)(((int64_t)a[i] * kscale[t * nkv]) >> 16); /* Q8, before the head factor */
    a[i] = s;
    if (s > max) max = s;
  }
  /* exp(-(d * head_factor >> 16)) = 2^-(d * factor >> 16) with log2(e) in
     the factor; below 2^-17 it rounds to 0 in Q16, beyond d = 17 * 2^32 /
     factor: those positions are dropped with a compare. */
  const int64_t wide = ((int64_t)head_factor * FX_LOG2E) >> 16;
  const int32_t factor = wide > INT32_MAX ? INT32_MAX : (int32_t)wide;
  const uint64_t far = factor > 0 ? 17 * ((uint64_t)fx_recip32((uint32_t)factor) + 1) : UINT32_MAX;
  const uint32_t cutoff = far > UINT32_MAX ? UINT32_MAX : (uint32_t)far;
  uint32_t sum = 0; /* <= 65535 positions of at most 1.0 */
  int m = 0;
  for (int i = 0; i < n; i++) {
    uint32_t d = (uint32_t)max - (uint32_t)a[i];
    if (d > cutoff) continue;
    int32_t e = fx_exp2_neg(-(int32_t)(((int64_t)d * factor) >> 16)); /* the largest is 1.0 */
    if (!e) continue;
    a[m] = e;
    kept[m++] = (uint16_t)i;
    sum += (uint32_t)e;
  }
  if (prob)
    for (int i = 0; i < n; i++) prob[i] = 0;
  /* inv < 2^16 as sum >= 1.0, so e * inv < 2^32; scales are >= 0. */
  const uint32_t inv = fx_recip32(sum), inv_hi = inv << 16; /* Q16 */
  for (int j = 0; j < m; j++) {
    const int i = kept[j];
    const size_t t = rows ? rows[i] : (size_t)i;
    const uint32_t e = (uint32_t)a[j];
    if (score || prob) {
      int32_t p = (int32_t)((e * inv) >> 16);
      if (score) score[t] = score[t] > INT32_MAX - p ? INT32_MAX : score[t] + p; /* saturating */
      if (prob) prob[i] = p;
    }
    uint32_t scale = fx_mulhu((uint32_t)vscale[t * nkv], inv_hi); /* (vscale * inv) >> 16, Q24 */
    a[j] = (int32_t)fx_mulhu(e << 8, scale);                      /* (e * scale) >> 24 */
    kept[j] = (uint16_t)t;
  }
  return m;
}

static int softmax_weights(const kv_cache_t *kv, int layer, int kvh, int32_t *a, const uint16_t *rows, int n,
                           int32_t head_factor, int32_t *score, int32_t *prob, uint16_t *kept) {
  if (!rows && !score && !prob) return softmax_body(kv, layer, kvh, a, 0, n, head_factor, 0, 0, kept);
  return softmax_body(kv, layer, kvh, a, rows, n, head_factor, score, prob, kept);
}

/* The policy's score row of pair H for this step, NULL when the policy
   keeps none: H2O always, TOVA's restarted at each new step, SnapKV's from
   the prompt's last WINDOW queries. */
static int32_t *policy_scores(kv_cache_t *kv, int h, int pos) {
  int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  switch (kv->policy.kind) {
  case KV_H2O:
    return score;
  case KV_TOVA:
    if (kv->scored_pos[h] != pos) { /* TOVA leaves no holes: the used slots come first */
      for (int s = 0; s < kv->used[h]; s++) score[s] = 0;
      kv->scored_pos[h] = pos;
    }
    return score;
  case KV_SNAPKV:
    return kv_in_prefill(kv, pos) && pos >= kv->prompt_len - kv->policy.window ? score : 0;
  default:
    return 0;
  }
}

static void attend_dense(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                         const int32_t *head_factor, int32_t *const *out) {
  const int hs = kv->head_size, h = kv_head_of(kv, layer, kvh), n = kv->used[h];
  const size_t stride = (size_t)(kv->n_kv_heads * hs);
  const size_t base = kv_row_of(kv, layer, 0) * stride + (size_t)(kvh * hs);
  int32_t *att[2] = {kv->att, kv->att + kv->seq_len};
  int32_t *score = policy_scores(kv, h, pos);
  if (count == 2)
    attn_dots2(att[0], att[1], q[0], q[1], kv->keys + base, stride, n, hs);
  else
    attn_dots(att[0], q[0], kv->keys + base, stride, n, hs);
  for (int j = 0; j < count; j++) {
    uint16_t *kept = kv->kept + (size_t)j * (size_t)kv->seq_len;
    int m = softmax_weights(kv, layer, kvh, att[j], 0, n, head_factor[j], score, 0, kept);
    attn_values_rows(out[j], att[j], kv->values + base, stride, kept, m, hs);
  }
}

static void zero(int32_t *out, int n) {
  for (int i = 0; i < n; i++) out[i] = 0;
}

/* Through the block under the software policies: the top-k slots by CAM
   search, their exact scores, softmax and the selected values. */
static void attend_block(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                         const int32_t *head_factor, int32_t *const *out) {
  const int hs = kv->head_size, h = kv_head_of(kv, layer, kvh);
  const size_t stride = (size_t)(kv->n_kv_heads * hs);
  const size_t base = kv_row_of(kv, layer, 0) * stride + (size_t)(kvh * hs);
  const unsigned bank = (unsigned)h, used = (unsigned)kv->used[h];
  unsigned k = kv->top_k && kv->top_k < used ? kv->top_k : used;
  int32_t *score = policy_scores(kv, h, pos);
  for (int j = 0; j < count; j++) {
    load_query(kv, layer, q[j]);
    int n = ucm_search(kv->ucm, bank, k, 0, 0, kv->selected, 0);
    int err = n < 0 ? n : exact_scores(kv, layer, kvh, q[j], n, 1);
    if (err) {
      kv_note_error(kv, err);
      zero(out[j], hs);
      continue;
    }
    int m = softmax_weights(kv, layer, kvh, kv->att, kv->selected, n, head_factor[j], score, 0, kv->kept);
    attn_values_rows(out[j], kv->att, kv->values + base, stride, kv->kept, m, hs);
  }
}

/* Quest: the pages whose key bounds give the query the highest possible
   score (sum over components of max(q*min, q*max)), BUDGET / PAGE of them,
   the newest page always among them. Writes their slots (= positions) to
   kv->selected in order and returns how many. */
static int quest_pages(kv_cache_t *kv, int h, int pos, const int8_t *q) {
  const int hs = kv->head_size, page = kv->policy.page, pages = pos / page + 1;
  int32_t *bound = kv->sims;
  for (int g = 0; g < pages; g++) {
    const int16_t *lo = kv->page_min + kv_page_of(kv, h, g), *hi = kv->page_max + kv_page_of(kv, h, g);
    int32_t b = 0;
    for (int i = 0; i < hs; i++) b += q[i] >= 0 ? q[i] * hi[i] : q[i] * lo[i];
    bound[g] = g == pages - 1 ? INT32_MAX : b;
  }
  int ties, n = 0;
  int32_t threshold = kv_top_threshold(bound, pages, kv->policy.budget / page, &ties);
  for (int g = 0; g < pages; g++) {
    if (bound[g] < threshold || (bound[g] == threshold && ties-- <= 0)) continue;
    for (int t = g * page; t < (g + 1) * page && t <= pos; t++) kv->selected[n++] = (uint16_t)t;
  }
  return n;
}

static void attend_quest(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                         const int32_t *head_factor, int32_t *const *out) {
  const int hs = kv->head_size, h = kv_head_of(kv, layer, kvh);
  const size_t stride = (size_t)(kv->n_kv_heads * hs);
  const size_t base = kv_row_of(kv, layer, 0) * stride + (size_t)(kvh * hs);
  for (int j = 0; j < count; j++) {
    int n = quest_pages(kv, h, pos, q[j]);
    if (kv->backend == KV_DENSE) {
      for (int i = 0; i < n;) { /* one run of consecutive positions per page */
        int run = 1;
        while (i + run < n && kv->selected[i + run] == kv->selected[i] + run) run++;
        attn_dots(kv->att + i, q[j], kv->keys + base + kv->selected[i] * stride, stride, run, hs);
        i += run;
      }
    } else {
      if (kv->exact != KV_EXACT_DIGITAL) load_query(kv, layer, q[j]);
      int err = exact_scores(kv, layer, kvh, q[j], n, 0);
      if (err) {
        kv_note_error(kv, err);
        zero(out[j], hs);
        continue;
      }
    }
    int m = softmax_weights(kv, layer, kvh, kv->att, kv->selected, n, head_factor[j], 0, 0, kv->kept);
    attn_values_rows(out[j], kv->att, kv->values + base, stride, kv->kept, m, hs);
  }
}

/* Marks POS critical in bank H (its slot protected for good) while the
   bank has spare slots left for it. */
static void protect_position(kv_cache_t *kv, int h, int pos) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h);
  int slot = -1, critical = 0;
  for (int s = 0; s < kv->seq_len; s++) {
    critical += (flags[s] & KV_SLOT_CRITICAL) != 0;
    if (at[s] == (uint16_t)pos) slot = s;
  }
  if (slot < 0 || (flags[slot] & KV_SLOT_CRITICAL) || critical >= kv->policy.spare) return;
  flags[slot] |= KV_SLOT_CRITICAL;
  kv_note_error(kv, ucm_set_protect(kv->ucm, (unsigned)h, (unsigned)slot, 1));
}

/* UniCAIM: a token older than the recent window that draws PROTECT of a
   step's attention in any head is critical -- far-back retrieval -- and is
   protected for good with the SPAN positions after it, in every bank (a
   token matters to the model, not only to the head that found it). Each
   bank holds at most SPARE protected tokens, so that the min-detect always
   finds a victim among the rest. */
static void protect_critical(kv_cache_t *kv, int h, int pos, const int32_t *prob, int n) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  for (int i = 0; i < n; i++) {
    int t = at[kv->selected[i]];
    if (prob[i] < kv->policy.protect || t >= pos - kv->policy.reserve ||
        (kv->slot_flags[kv_slots_of(kv, h) + kv->selected[i]] & KV_SLOT_CRITICAL))
      continue;
    for (int b = 0; b < kv->n_layers * kv->n_kv_heads; b++)
      for (int u = t; u <= t + kv->policy.span && u < pos - kv->policy.reserve; u++) protect_position(kv, b, u);
  }
}

/* UniCAIM's step: CAM top-k (all while the prompt is read, so that every
   prompt position gathers its score), adaptive k, exact scores of the
   selected, softmax, the probabilities into the accumulators, threshold
   protection. */
static void attend_hybrid(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                          const int32_t *head_factor, int32_t *const *out) {
  const kv_policy_t *p = &kv->policy;
  const int hs = kv->head_size, h = kv_head_of(kv, layer, kvh), prefill = kv_in_prefill(kv, pos);
  const size_t stride = (size_t)(kv->n_kv_heads * hs);
  const size_t base = kv_row_of(kv, layer, 0) * stride + (size_t)(kvh * hs);
  const unsigned bank = (unsigned)h, used = (unsigned)kv->used[h];
  const unsigned k = prefill || !p->top_k || (unsigned)p->top_k >= used ? used : (unsigned)p->top_k;
  const int adaptive = !prefill && p->adapt > 0, observing = prefill && p->observe > 0;
  const int marking = p->protect && (!prefill || !p->question || pos >= kv->prompt_len - p->question);
  for (int j = 0; j < count; j++) {
    load_query(kv, layer, q[j]);
    int n = ucm_search(kv->ucm, bank, k, 0, 0, kv->selected, adaptive ? kv->sims : 0);
    int err = n < 0 ? n : 0;
    if (!err && adaptive && n > 1) {
      /* Keep the winners within ADAPT of the best similarity, and at least
         the best quarter of the k (the CAM's similarity steps are coarse). */
      int32_t best = INT32_MIN;
      for (int i = 0; i < n; i++) best = kv->sims[i] > best ? kv->sims[i] : best;
      int ties;
      int32_t quarter = kv_top_threshold(kv->sims, n, n / 4 > 1 ? n / 4 : 1, &ties);
      int32_t cut = best - p->adapt < quarter ? best - p->adapt : quarter;
      int kept = 0;
      for (int i = 0; i < n; i++)
        if (kv->sims[i] >= cut) kv->selected[kept++] = kv->selected[i];
      n = kept;
    }
    if (!err) err = exact_scores(kv, layer, kvh, q[j], n, !adaptive);
    if (err) {
      kv_note_error(kv, err);
      zero(out[j], hs);
      continue;
    }
    int m = softmax_weights(kv, layer, kvh, kv->att, kv->selected, n, head_factor[j], 0, kv->sims, kv->kept);
    for (int i = 0; i < n; i++) kv->addends[i] = (uint16_t)(kv->sims[i] > 65535 ? 65535 : kv->sims[i]);
    if (!observing || pos >= kv->prompt_len - p->observe)
      kv_note_error(kv, ucm_accumulate(kv->ucm, bank, kv->selected, kv->addends, (unsigned)n));
    if (marking) protect_critical(kv, h, pos, kv->sims, n);
    attn_values_rows(out[j], kv->att, kv->values + base, stride, kv->kept, m, hs);
  }
}

void kv_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
               const int32_t *head_factor, int32_t *const *out) {
  const kv_policy_t *p = &kv->policy;
  if (p->kind == KV_QUEST && p->budget > 0 && pos >= p->budget)
    attend_quest(kv, layer, kvh, pos, count, q, head_factor, out);
  else if (p->kind == KV_HYBRID)
    attend_hybrid(kv, layer, kvh, pos, count, q, head_factor, out);
  else if (kv->backend == KV_DENSE)
    attend_dense(kv, layer, kvh, pos, count, q, head_factor, out);
  else
    attend_block(kv, layer, kvh, pos, count, q, head_factor, out);
}
