#include "prompt_tape.h"

#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "kv_attend.h"
#include "kv_policy.h"
#include "kv_slots.h"
#include "logits.h"

struct prompt_call {
  int16_t layer, kvh, count;
  int pos;
  int32_t head_factor[ATTN_MAX_GROUP];
};

static prompt_tape_t *recording; /* the tape the recording policy writes */

/* The reference's attention (every cached position), its queries noted. */
static void record_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                          const int32_t *head_factor, int32_t *const *out) {
  prompt_tape_t *t = recording;
  kv_attend_cached(kv, layer, kvh, count, q, head_factor, out, 0);
  if (!t || t->out_of_memory) return; /* after the recording: the reference's continuation */
  if (t->n_calls == t->cap_calls) {
    int cap = t->cap_calls ? 2 * t->cap_calls : 4096;
    struct prompt_call *calls = realloc(t->calls, sizeof *calls * (size_t)cap);
    int8_t *queries = realloc(t->queries, ATTN_MAX_GROUP * (size_t)t->head_size * (size_t)cap);
    if (calls) t->calls = calls;
    if (queries) t->queries = queries;
    if (!calls || !queries) {
      t->out_of_memory = 1;
      return;
    }
    t->cap_calls = cap;
  }
  struct prompt_call *c = &t->calls[t->n_calls];
  *c = (struct prompt_call){(int16_t)layer, (int16_t)kvh, (int16_t)count, pos, {0}};
  for (int j = 0; j < count; j++) {
    c->head_factor[j] = head_factor[j];
    memcpy(t->queries + ((size_t)t->n_calls * ATTN_MAX_GROUP + (size_t)j) * (size_t)t->head_size, q[j],
           (size_t)t->head_size);
  }
  t->n_calls++;
}

static const kv_policy_ops_t recorder = {
    .name = "recorder",
    .summary = "the dense reference, recording its queries",
    .flags = KV_POLICY_NO_BUDGET,
    .attend = record_attend,
};

static size_t at(const prompt_tape_t *t, int layer, int kvh, int pos) {
  return ((size_t)layer * (size_t)t->kv_heads + (size_t)kvh) * (size_t)t->n + (size_t)pos;
}

const int32_t *prompt_read(llm_state_t *s, const int *tokens, int n) {
  const int32_t *logits = 0;
  for (int pos = 0; pos < n; pos += s->batch)
    logits = llm_forward_batch(s, tokens + pos, n - pos < s->batch ? n - pos : s->batch, pos, 0);
  return logits;
}

int prompt_tape_record(prompt_tape_t *t, llm_state_t *s, const int *tokens, int n) {
  const llm_model_t *m = s->model;
  *t = (prompt_tape_t){.n = n, .layers = m->n_layers, .kv_heads = m->n_kv_heads, .head_size = m->head_size};
  const size_t entries = (size_t)m->n_layers * (size_t)m->n_kv_heads * (size_t)n;
  t->keys = malloc(sizeof *t->keys * entries * (size_t)m->head_size);
  t->values = malloc(entries * (size_t)m->head_size);
  t->key_scale = malloc(sizeof *t->key_scale * entries);
  t->value_scale = malloc(sizeof *t->value_scale * entries);
  if (!t->keys || !t->values || !t->key_scale || !t->value_scale) return -1;
  kv_policy_t keep = {.ops = &recorder};
  kv_use_dense(&s->kv);
  kv_set_policy(&s->kv, &keep);
  kv_begin(&s->kv, n);
  recording = t;
  const int32_t *logits = prompt_read(s, tokens, n);
  recording = 0;
  if (t->out_of_memory || s->kv.error || !logits) return -1;
  t->first_token = logits_argmax(logits, m->vocab_size);
  const kv_cache_t *kv = &s->kv;
  const size_t hs = (size_t)m->head_size;
  for (int l = 0; l < m->n_layers; l++)
    for (int h = 0; h < m->n_kv_heads; h++)
      for (int pos = 0; pos < n; pos++) {
        const int slot = kv_slot_holding(kv, kv_head_of(kv, l, h), pos);
        const size_t from = kv_base_of(kv, l, h) + (size_t)slot * kv_stride(kv), to = at(t, l, h, pos);
        memcpy(t->keys + to * hs, kv->keys + from, sizeof *t->keys * hs);
        memcpy(t->values + to * hs, kv->values + from, hs);
        t->key_scale[to] = kv->key_scale[kv_scale_at(kv, l, h, slot)];
        t->value_scale[to] = kv->value_scale[kv_scale_at(kv, l, h, slot)];
      }
  return 0;
}

/* Position POS's keys and values of LAYER, as the forward pass stores them
   before the position's attention. */
static void store(const prompt_tape_t *t, kv_cache_t *kv, int layer, int pos) {
  const size_t hs = (size_t)t->head_size;
  for (int h = 0; h < t->kv_heads; h++) {
    const size_t e = at(t, layer, h, pos);
    kv_store(kv, layer, h, pos, t->keys + e * hs, t->key_scale[e], t->values + e * hs, t->value_scale[e]);
  }
}

void prompt_tape_replay(const prompt_tape_t *t, llm_state_t *s) {
  kv_cache_t *kv = &s->kv;
  int32_t *const outs[ATTN_MAX_GROUP] = {0}; /* the outputs are the dense reference's: none computed */
  kv_begin(kv, t->n);
  int layer = -1, pos = -1;
  for (int i = 0; i < t->n_calls; i++) {
    const struct prompt_call *c = &t->calls[i];
    if (c->layer != layer || c->pos != pos) {
      if (layer >= 0) kv_end_step(kv, layer, pos);
      layer = c->layer, pos = c->pos;
      store(t, kv, layer, pos);
    }
    const int8_t *q[ATTN_MAX_GROUP];
    for (int j = 0; j < c->count; j++)
      q[j] = t->queries + ((size_t)i * ATTN_MAX_GROUP + (size_t)j) * (size_t)t->head_size;
    kv_attend(kv, layer, c->kvh, pos, c->count, q, c->head_factor, outs);
  }
  if (layer >= 0) kv_end_step(kv, layer, pos);
}

const int16_t *prompt_tape_key(const prompt_tape_t *t, int layer, int kvh, int pos) {
  return t->keys + at(t, layer, kvh, pos) * (size_t)t->head_size;
}

const int8_t *prompt_tape_query(const prompt_tape_t *t, int layer, int kvh, int pos, int j) {
  for (int i = 0; i < t->n_calls; i++) {
    const struct prompt_call *c = &t->calls[i];
    if (c->layer == layer && c->kvh == kvh && c->pos == pos && j < c->count)
      return t->queries + ((size_t)i * ATTN_MAX_GROUP + (size_t)j) * (size_t)t->head_size;
  }
  return 0;
}

const int32_t *prompt_tape_head_factors(const prompt_tape_t *t, int i, int *layer, int *kvh, int *count) {
  const struct prompt_call *c = &t->calls[i];
  *layer = c->layer, *kvh = c->kvh, *count = c->count;
  return c->head_factor;
}

void prompt_tape_free(prompt_tape_t *t) {
  free(t->keys);
  free(t->values);
  free(t->key_scale);
  free(t->value_scale);
  free(t->calls);
  free(t->queries);
  *t = (prompt_tape_t){0};
}
