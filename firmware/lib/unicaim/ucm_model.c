#include "ucm_model.h"

#include <string.h>

#include "soc_regs.h"
#include "ucm_arith.h"
#include "ucm_cycles.h"

#define FIELD(v, reg, f) (((v)&reg##_##f##_MASK) >> reg##_##f##_LSB)
#define ERR_BITS                                                                                           \
  (UCM_STATUS_ERR_CMD_MASK | UCM_STATUS_ERR_BANK_MASK | UCM_STATUS_ERR_SLOT_MASK | UCM_STATUS_ERR_K_MASK | \
   UCM_STATUS_ERR_COUNT_MASK | UCM_STATUS_ERR_NOVICTIM_MASK)

static size_t align4(size_t n) {
  return (n + 3) & ~(size_t)3;
}

/* The model's arrays carved from MEM, or only counted when MEM is NULL: the
   one description of the layout (ucm_model_bytes and ucm_model_init both run
   it). Returns the bytes it takes. */
static size_t layout(ucm_model_t *m, const ucm_geom_t *g, uint8_t *mem) {
  size_t slots = (size_t)g->banks * g->slots, at = 0;
#define CARVE(field, type, count)                          \
  m->field = mem ? (type *)(void *)(mem + at) : NULL;      \
  at += align4(sizeof(type) * (size_t)(count))
  CARVE(acc, uint32_t, slots);
  CARVE(valid_count, uint32_t, g->banks);
  CARVE(list, uint32_t, g->slots);
  CARVE(score, int32_t, g->slots);
  CARVE(similarity, int32_t, g->slots);
  CARVE(pos, uint16_t, slots);
  CARVE(cell, int8_t, slots * g->dim);
  CARVE(valid, uint8_t, slots);
  CARVE(protect, uint8_t, slots);
  CARVE(step, uint8_t, g->banks);
  CARVE(key, int8_t, g->dim);
  CARVE(query, int8_t, g->dim);
  CARVE(qlevel, int8_t, g->dim);
  CARVE(plane_bits, int8_t, (size_t)UCM_MODEL_PLANES * g->dim); /* the planes above q_bits stay 0 */
  CARVE(qvalue, int8_t, g->dim);
#undef CARVE
  return at;
}

size_t ucm_model_bytes(const ucm_geom_t *g) {
  ucm_model_t counted;
  return layout(&counted, g, NULL);
}

static int geom_ok(const ucm_geom_t *g) {
  return g->banks >= 1 && g->banks <= 256 && g->slots >= 1 && g->slots <= UCM_MODEL_MAX_SLOTS && g->dim >= 4 &&
         g->dim <= 1024 && g->dim % 4 == 0 && (g->cell_bits == 1 || g->cell_bits == 3) && g->q_bits >= 2 &&
         g->q_bits <= UCM_MODEL_PLANES && g->adc_bits >= 2 && g->adc_bits <= 16 && g->adc_count >= 1 &&
         g->adc_count <= 65535 && g->lanes >= 1 && g->lanes <= 128 && (g->lanes & (g->lanes - 1)) == 0 &&
         g->slots % g->lanes == 0;
}

int ucm_model_init(ucm_model_t *m, const ucm_geom_t *g, void *mem) {
  if (!geom_ok(g)) return -1;
  memset(m, 0, sizeof *m);
  memset(mem, 0, ucm_model_bytes(g));
  m->geom = *g;
  m->score_bits = ucm_score_bits(g->dim);
  layout(m, g, mem);
  m->cam_cfg = 1; /* QSTEP 1, ALPHA 0, the sense-line circuit */
  m->sense_time = UCM_SENSE_TS_RESET_PS << UCM_SENSE_TIME_TS_LSB | UCM_SENSE_VPRE_RESET_MV << UCM_SENSE_TIME_VPRE_LSB;
  m->sense_cap = UCM_SENSE_CSL_RESET_FF << UCM_SENSE_CAP_CSL_LSB | UCM_SENSE_CACC_RESET_FF << UCM_SENSE_CAP_CACC_LSB;
  m->adc_cfg = 1; /* GAIN 1, SHIFT 0 */
  return 0;
}

/* ------------------------------------------------------------ operations */

/* The two inner loops every search and exact read spends its time in. On
   x86 hosts GCC also builds them for AVX2 and picks one at load time (the
   golden model runs long sweeps); the arithmetic is the same either way. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define HOST_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define HOST_VECTOR_CLONES
#endif

HOST_VECTOR_CLONES static int32_t dot8_portable(const int8_t *a, const int8_t *b, uint32_t n) {
  int32_t s = 0;
  for (uint32_t d = 0; d < n; d++) s += a[d] * b[d];
  return s;
}

/* EXACT's converters: each query bit plane's current through a signed
   BITS-bit ADC, sat((current * gain) >> shift), weighted by the plane. */
typedef struct {
  int32_t gain;
  uint32_t shift, bits, planes;
} converter_t;

/* A row's score through the converters. Plane b's current is the sum of
   the cells its query bits (bytes 0 / 1) select; |sum| <= UCM_CELL_MAX *
   1024 fits 16 bits: twice the cells a vector instruction. */
HOST_VECTOR_CLONES static int32_t converted_score_portable(const int8_t *cell, const int8_t *bits, uint32_t n,
                                                           const converter_t *cv) {
  int32_t score = 0;
  for (uint32_t b = 0; b < cv->planes; b++, bits += n) {
    int16_t current = 0;
    for (uint32_t d = 0; d < n; d++) current = (int16_t)(current + cell[d] * bits[d]);
    int32_t weighted = (int32_t)((uint32_t)ucm_adc(current, (uint32_t)cv->gain, cv->shift, cv->bits) << b);
    score += b == cv->planes - 1 ? -weighted : weighted; /* two's complement sign plane */
  }
  return score;
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#include <immintrin.h>

/* The sum of a vector's eight 32-bit lanes. */
__attribute__((target("avx2"))) static int32_t sum_lanes(__m256i v) {
  __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
  x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
  return _mm_cvtsi128_si32(x);
}

/* The same with AVX2 for rows of a multiple of 32 cells, every plane at
   once (GCC's vectorisation of the loop above is 2.4x slower, and the
   hardware runs of the pruning sweeps spend a third of their time here): a
   row's 32 cells loaded once, each plane's selected cells summed in pairs
   into 16-bit lanes (maddubs of the 0 / 1 bits and the cells); at the end
   the eight planes' lanes reduced together, three rounds of pairwise adds
   leaving plane b's sum of each 128-bit half in lane b, and the eight
   converters in 32-bit lanes. The bound above keeps every partial sum
   inside 16 bits. All UCM_MODEL_PLANES planes, whatever q_bits: the bits
   above it stay 0, and so do their currents and codes. */
__attribute__((target("avx2"))) static int32_t converted_score_avx2(const int8_t *cell, const int8_t *bits, uint32_t n,
                                                                    const converter_t *cv) {
  __m256i acc[UCM_MODEL_PLANES];
#pragma GCC unroll 8
  for (uint32_t b = 0; b < UCM_MODEL_PLANES; b++) acc[b] = _mm256_setzero_si256();
  for (uint32_t d = 0; d < n; d += 32) {
    const __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(cell + d));
#pragma GCC unroll 8
    for (uint32_t b = 0; b < UCM_MODEL_PLANES; b++) {
      const __m256i m = _mm256_loadu_si256((const __m256i *)(const void *)(bits + (size_t)b * n + d));
      acc[b] = _mm256_add_epi16(acc[b], _mm256_maddubs_epi16(m, c));
    }
  }
  const __m256i quads = _mm256_hadd_epi16(_mm256_hadd_epi16(acc[0], acc[1]), _mm256_hadd_epi16(acc[2], acc[3]));
  const __m256i quads_hi = _mm256_hadd_epi16(_mm256_hadd_epi16(acc[4], acc[5]), _mm256_hadd_epi16(acc[6], acc[7]));
  const __m256i halves = _mm256_hadd_epi16(quads, quads_hi);
  const __m256i current =
      _mm256_cvtepi16_epi32(_mm_add_epi16(_mm256_castsi256_si128(halves), _mm256_extracti128_si256(halves, 1)));
  /* ucm_adc in each lane, then the plane's weight: << b, times 1, the sign
     plane's -1, or 0 above it (_mm256_sign_epi32) */
  const int32_t hi = (1 << (cv->bits - 1)) - 1;
  __m256i code = _mm256_sra_epi32(_mm256_mullo_epi32(current, _mm256_set1_epi32(cv->gain)),
                                  _mm_cvtsi32_si128((int)cv->shift));
  code = _mm256_max_epi32(_mm256_min_epi32(code, _mm256_set1_epi32(hi)), _mm256_set1_epi32(-hi - 1));
  const __m256i plane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), sign_plane = _mm256_set1_epi32((int)cv->planes - 1);
  const __m256i sign = _mm256_sub_epi32(_mm256_cmpeq_epi32(plane, sign_plane), _mm256_cmpgt_epi32(sign_plane, plane));
  return sum_lanes(_mm256_sign_epi32(_mm256_sllv_epi32(code, plane), sign));
}

/* dot8_portable of a query A (any int8) and cells B (|b| <= UCM_CELL_MAX),
   the same way: |a| as unsigned bytes against b with a's sign, so that a
   pair of products fits 16 bits. */
__attribute__((target("avx2"))) static int32_t dot8_avx2(const int8_t *a, const int8_t *b, uint32_t n) {
  const __m256i ones16 = _mm256_set1_epi16(1);
  __m256i acc = _mm256_setzero_si256();
  for (uint32_t d = 0; d < n; d += 32) {
    const __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + d));
    const __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + d));
    const __m256i pairs = _mm256_maddubs_epi16(_mm256_abs_epi8(x), _mm256_sign_epi8(y, x));
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones16));
  }
  return sum_lanes(acc);
}

/* The RTL checks both kernels against itself: the co-simulations of 64-
   and 128-cell rows (mid, paper) run these, the narrower ones the loops
   above. */
static int32_t dot8(const int8_t *a, const int8_t *b, uint32_t n) {
  return n % 32 == 0 && __builtin_cpu_supports("avx2") ? dot8_avx2(a, b, n) : dot8_portable(a, b, n);
}

static int32_t converted_score(const int8_t *cell, const int8_t *bits, uint32_t n, const converter_t *cv) {
  return n % 32 == 0 && __builtin_cpu_supports("avx2") ? converted_score_avx2(cell, bits, n, cv)
                                                        : converted_score_portable(cell, bits, n, cv);
}
#else
static int32_t dot8(const int8_t *a, const int8_t *b, uint32_t n) {
  return dot8_portable(a, b, n);
}

static int32_t converted_score(const int8_t *cell, const int8_t *bits, uint32_t n, const converter_t *cv) {
  return converted_score_portable(cell, bits, n, cv);
}
#endif

static uint32_t rows(const ucm_model_t *m) {
  return m->geom.slots / m->geom.lanes;
}
static size_t slot_index(const ucm_model_t *m, uint32_t bank, uint32_t slot) {
  return (size_t)bank * m->geom.slots + slot;
}

static void write_key(ucm_model_t *m, uint32_t bank, uint32_t slot, uint32_t flags) {
  const ucm_geom_t *g = &m->geom;
  size_t i = slot_index(m, bank, slot);
  uint32_t sigma = FIELD(m->noise_cfg, UCM_NOISE_CFG, SIGMA);
  uint32_t stuck = FIELD(m->noise_cfg, UCM_NOISE_CFG, STUCK_RATE);
  for (uint32_t d = 0; d < g->dim; d++) {
    uint32_t var = ucm_draw(m->seed, m->write_serial, d, UCM_DRAW_VARIATION);
    uint32_t stk = ucm_draw(m->seed, m->write_serial, d, UCM_DRAW_STUCK);
    m->cell[i * g->dim + d] =
        (int8_t)ucm_cell_value(m->key[d], m->step[bank], g->cell_bits, sigma, stuck, var, stk);
  }
  m->write_serial++;
  if (!m->valid[i]) m->valid_count[bank]++;
  m->valid[i] = 1;
  m->protect[i] = flags & UCM_F_PROTECT ? 1 : 0;
  m->pos[i] = (uint16_t)m->pos_reg;
  m->acc[i] = m->acc_init;
  m->counter[UCM_CNT_CYC_WRITE] += ucm_cycles_write(g->dim);
  m->counter[UCM_CNT_EV_CELL_WRITE] += g->dim;
}

static void slot_ctrl(ucm_model_t *m, uint32_t bank, uint32_t slot, uint32_t flags) {
  size_t i = slot_index(m, bank, slot);
  if (flags & UCM_F_INVALIDATE) {
    if (m->valid[i]) m->valid_count[bank]--;
    m->valid[i] = 0;
    m->protect[i] = 0;
  } else {
    m->protect[i] = flags & UCM_F_PROTECT ? 1 : 0;
  }
  m->counter[UCM_CNT_CYC_MISC] += ucm_cycles_slot();
}

static void reset_bank(ucm_model_t *m, uint32_t bank) {
  for (uint32_t s = 0; s < m->geom.slots; s++) {
    size_t i = slot_index(m, bank, s);
    m->valid[i] = m->protect[i] = 0;
    m->pos[i] = 0;
    m->acc[i] = 0;
  }
  m->valid_count[bank] = 0;
  m->counter[UCM_CNT_CYC_MISC] += ucm_cycles_reset(rows(m));
}

static void read_slot(ucm_model_t *m, uint32_t bank, uint32_t slot) {
  size_t i = slot_index(m, bank, slot);
  m->slot_meta = m->pos[i] | (uint32_t)m->valid[i] << UCM_SLOT_META_VALID_LSB |
                 (uint32_t)m->protect[i] << UCM_SLOT_META_PROTECT_LSB;
  m->slot_acc = m->acc[i];
  m->slot_valid_count = m->valid_count[bank];
  m->counter[UCM_CNT_CYC_MISC] += ucm_cycles_slot();
}

/* CAM similarity of one slot for the query's levels (m->qlevel), read
   noise included (a zero noise scale adds nothing: no draw needed). */
static int32_t similarity(const ucm_model_t *m, size_t i, uint32_t slot) {
  const ucm_geom_t *g = &m->geom;
  int32_t s = dot8(m->qlevel, m->cell + i * g->dim, g->dim);
  uint32_t noise = FIELD(m->noise_cfg, UCM_NOISE_CFG, READ_NOISE);
  if (noise) s += ucm_scale_noise(ucm_gauss(ucm_draw(m->seed, m->search_serial, slot, UCM_DRAW_READ_NOISE)), noise);
  return s;
}

static void search(ucm_model_t *m, uint32_t bank, uint32_t k, uint32_t flags) {
  const ucm_geom_t *g = &m->geom;
  int force = (flags & UCM_F_FORCE_PROTECTED) != 0;
  int32_t thr = (int32_t)m->threshold;
  uint32_t alpha = FIELD(m->cam_cfg, UCM_CAM_CFG, ALPHA), linear = FIELD(m->cam_cfg, UCM_CAM_CFG, LINEAR);
  uint32_t csl = FIELD(m->sense_cap, UCM_SENSE_CAP, CSL), cacc = FIELD(m->sense_cap, UCM_SENSE_CAP, CACC);
  uint32_t rate = ucm_sense_rate(FIELD(m->sense_time, UCM_SENSE_TIME, TS), csl);
  uint32_t vpre = FIELD(m->sense_time, UCM_SENSE_TIME, VPRE), weight = ucm_share_weight(csl, cacc);
  int32_t *s = m->similarity;
  uint32_t forced = 0, cand_over_thr = 0, candidates = 0;
  uint32_t qstep = FIELD(m->cam_cfg, UCM_CAM_CFG, QSTEP);
  for (uint32_t d = 0; d < g->dim; d++) m->qlevel[d] = (int8_t)ucm_query_level(m->query[d], qstep);
  uint32_t drive = ucm_query_drive(m->qlevel, g->dim);
  /* Pass 1: similarity of every valid slot (the others are never read);
     charge sharing; counts. */
  for (uint32_t slot = 0; slot < g->slots; slot++) {
    size_t i = slot_index(m, bank, slot);
    if (!m->valid[i]) continue;
    s[slot] = similarity(m, i, slot);
    if (flags & UCM_F_ACCUMULATE)
      m->acc[i] = linear ? ucm_charge_share(m->acc[i], s[slot], m->score_bits, alpha)
                         : ucm_charge_circuit(m->acc[i], ucm_sense_voltage(s[slot], drive, rate, vpre), weight);
    if (force && m->protect[i])
      forced++;
    else
      candidates++, cand_over_thr += s[slot] >= thr;
  }
  int32_t want = (int32_t)k - (int32_t)forced;
  uint32_t passes = 2;
  /* Selection bound: candidates with S > cut, and the first `ties` with S == cut. */
  int32_t cut = 0;
  uint32_t ties = 0;
  int take_ties_all = 0;
  if (want <= 0) {
    cut = 0x7FFFFFFF; /* no candidate passes */
  } else if ((flags & UCM_F_THRESHOLD) && cand_over_thr <= (uint32_t)want) {
    cut = thr;
    take_ties_all = 1;
  } else if ((uint32_t)want >= candidates) {
    cut = INT32_MIN; /* every candidate: what the radix select below would find, in the same passes */
    take_ties_all = 1;
    passes += m->score_bits + 1;
  } else {
    /* Radix select on the biased score: the largest t with
     * count(candidates with S + bias >= t) >= want. */
    uint32_t bias = 1u << (m->score_bits - 1), t = 0, greater = 0;
    for (int b = (int)m->score_bits - 1; b >= 0; b--) {
      uint32_t try_t = t | 1u << b, n = 0;
      for (uint32_t slot = 0; slot < g->slots; slot++) {
        size_t i = slot_index(m, bank, slot);
        if (m->valid[i] && !(force && m->protect[i]) && (uint32_t)(s[slot] + (int32_t)bias) >= try_t) n++;
      }
      if (n >= (uint32_t)want) t = try_t;
    }
    cut = (int32_t)t - (int32_t)bias;
    for (uint32_t slot = 0; slot < g->slots; slot++) {
      size_t i = slot_index(m, bank, slot);
      if (m->valid[i] && !(force && m->protect[i]) && s[slot] > cut) greater++;
    }
    ties = (uint32_t)want - greater;
    passes += m->score_bits + 1;
  }
  /* Emit in slot order. */
  uint32_t out = 0;
  for (uint32_t slot = 0; slot < g->slots; slot++) {
    size_t i = slot_index(m, bank, slot);
    if (!m->valid[i]) continue;
    int take;
    if (force && m->protect[i]) {
      take = 1;
    } else if (s[slot] > cut) {
      take = 1;
    } else if (s[slot] == cut && (take_ties_all || ties > 0)) {
      take = 1;
      if (!take_ties_all) ties--;
    } else {
      take = 0;
    }
    if (take) {
      m->list[out] = slot;
      m->score[out] = s[slot];
      out++;
    }
  }
  m->result = out;
  m->search_serial++;
  m->counter[UCM_CNT_CYC_SEARCH] += ucm_cycles_search(passes, rows(m));
  m->counter[UCM_CNT_EV_SEARCH]++;
  m->counter[UCM_CNT_EV_CELL_SEARCH] += m->valid_count[bank] * g->dim;
  if (flags & UCM_F_ACCUMULATE) m->counter[UCM_CNT_EV_ACC_CHARGE] += m->valid_count[bank];
}

/* Every LIST entry among the first n names a slot in range. */
static int list_ok(const ucm_model_t *m, uint32_t n) {
  for (uint32_t j = 0; j < n; j++)
    if (FIELD(m->list[j], UCM_LIST, SLOT) >= m->geom.slots) return 0;
  return 1;
}

static void exact(ucm_model_t *m, uint32_t bank, uint32_t n, uint32_t flags) {
  const ucm_geom_t *g = &m->geom;
  m->counter[UCM_CNT_CYC_EXACT] += ucm_cycles_exact_checked(n);
  if (!list_ok(m, n)) {
    m->status |= UCM_STATUS_ERR_SLOT_MASK;
    return;
  }
  int ideal = (flags & UCM_F_IDEAL) != 0;
  const converter_t cv = {(int32_t)FIELD(m->adc_cfg, UCM_ADC_CFG, GAIN), FIELD(m->adc_cfg, UCM_ADC_CFG, SHIFT),
                          ucm_adc_bits_in_use(FIELD(m->adc_cfg, UCM_ADC_CFG, BITS), g->adc_bits), g->q_bits};
  if (ideal) /* the planes' weights summed: the low q_bits bits, signed */
    for (uint32_t d = 0; d < g->dim; d++)
      m->qvalue[d] = (int8_t)((int32_t)((uint32_t)m->query[d] << (32 - g->q_bits)) >> (32 - g->q_bits));
  else /* plane b of the query, a byte a bit */
    for (uint32_t b = 0; b < g->q_bits; b++)
      for (uint32_t d = 0; d < g->dim; d++)
        m->plane_bits[b * g->dim + d] = (int8_t)(((uint32_t)(uint8_t)m->query[d] >> b) & 1);
  for (uint32_t j = 0; j < n; j++) {
    const int8_t *cell = m->cell + slot_index(m, bank, FIELD(m->list[j], UCM_LIST, SLOT)) * g->dim;
    if (ideal) { /* no converter: the planes' weighted currents sum to one dot product */
      m->score[j] = dot8(m->qvalue, cell, g->dim);
      continue;
    }
    m->score[j] = converted_score(cell, m->plane_bits, g->dim, &cv);
  }
  m->counter[UCM_CNT_CYC_EXACT] += ucm_cycles_exact(n, g->q_bits, g->lanes);
  if (!ideal) {
    m->counter[UCM_CNT_EV_ADC_CONV] += n * g->q_bits;
    m->counter[UCM_CNT_EV_ADC_ROUND] += (n * g->q_bits + g->adc_count - 1) / g->adc_count;
  }
}

static void acc_add(ucm_model_t *m, uint32_t bank, uint32_t n) {
  m->counter[UCM_CNT_CYC_ACC] += ucm_cycles_acc_checked(n);
  if (!list_ok(m, n)) {
    m->status |= UCM_STATUS_ERR_SLOT_MASK;
    return;
  }
  for (uint32_t j = 0; j < n; j++) {
    size_t i = slot_index(m, bank, FIELD(m->list[j], UCM_LIST, SLOT));
    if (!m->valid[i]) continue;
    uint64_t sum = (uint64_t)m->acc[i] + FIELD(m->list[j], UCM_LIST, ADDEND);
    m->acc[i] = sum > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)sum;
    m->counter[UCM_CNT_EV_ACC_DIGITAL]++;
  }
  m->counter[UCM_CNT_CYC_ACC] += ucm_cycles_acc(n);
}

static void find_victim(ucm_model_t *m, uint32_t bank) {
  uint32_t best = m->geom.slots;
  for (uint32_t slot = 0; slot < m->geom.slots; slot++) {
    size_t i = slot_index(m, bank, slot);
    if (!m->valid[i] || m->protect[i]) continue;
    size_t b = slot_index(m, bank, best);
    if (best == m->geom.slots || m->acc[i] < m->acc[b] || (m->acc[i] == m->acc[b] && m->pos[i] < m->pos[b]))
      best = slot;
  }
  m->result = best;
  if (best == m->geom.slots) m->status |= UCM_STATUS_ERR_NOVICTIM_MASK;
  m->counter[UCM_CNT_CYC_VICTIM] += ucm_cycles_victim(rows(m));
  m->counter[UCM_CNT_EV_MIN_DETECT]++;
}

static void command(ucm_model_t *m, uint32_t cmd) {
  const ucm_geom_t *g = &m->geom;
  uint32_t op = FIELD(cmd, UCM_CMD, OP), flags = FIELD(cmd, UCM_CMD, FLAGS);
  uint32_t bank = FIELD(cmd, UCM_CMD, BANK), arg = FIELD(cmd, UCM_CMD, ARG);
  m->cmd = cmd;
  m->status = (m->status & (UCM_STATUS_ERR_BUSY_MASK | UCM_STATUS_ERR_RANGE_MASK)) | UCM_STATUS_DONE_MASK;
  if (op < UCM_OP_WRITE_KEY || op > UCM_OP_READ_SLOT) {
    m->status |= UCM_STATUS_ERR_CMD_MASK;
    return;
  }
  if (bank >= g->banks) {
    m->status |= UCM_STATUS_ERR_BANK_MASK;
    return;
  }
  int takes_slot = op == UCM_OP_WRITE_KEY || op == UCM_OP_SLOT_CTRL || op == UCM_OP_READ_SLOT;
  int takes_list = op == UCM_OP_EXACT || op == UCM_OP_ACC_ADD;
  if (takes_slot && arg >= g->slots) {
    m->status |= UCM_STATUS_ERR_SLOT_MASK;
    return;
  }
  if (takes_list && (arg == 0 || arg > g->slots)) {
    m->status |= UCM_STATUS_ERR_COUNT_MASK;
    return;
  }
  if (op == UCM_OP_SEARCH && (arg == 0 || arg > m->valid_count[bank])) {
    m->status |= UCM_STATUS_ERR_K_MASK;
    return;
  }
  switch (op) {
    case UCM_OP_WRITE_KEY:
      write_key(m, bank, arg, flags);
      break;
    case UCM_OP_SLOT_CTRL:
      slot_ctrl(m, bank, arg, flags);
      break;
    case UCM_OP_SEARCH:
      search(m, bank, arg, flags);
      break;
    case UCM_OP_EXACT:
      exact(m, bank, arg, flags);
      break;
    case UCM_OP_ACC_ADD:
      acc_add(m, bank, arg);
      break;
    case UCM_OP_FIND_VICTIM:
      find_victim(m, bank);
      break;
    case UCM_OP_RESET_BANK:
      reset_bank(m, bank);
      break;
    default:
      read_slot(m, bank, arg);
      break;
  }
}

/* ------------------------------------------------------------ bus */

/* Which part of the block's window an offset falls in; *index is the word
   within that part. */
typedef enum { AREA_NONE, AREA_REG, AREA_STEP, AREA_KEY, AREA_QUERY, AREA_LIST, AREA_SCORE } area_t;

/* Is OFFSET in the window of SIZE bytes (a power of two) at BASE? *word: its
   word there. */
static int in_window(uint32_t offset, uint32_t base, uint32_t size, uint32_t *word) {
  *word = (offset & (size - 1)) >> 2;
  return (offset & ~(size - 1)) == base;
}

static area_t decode(const ucm_model_t *m, uint32_t offset, uint32_t *index) {
  const ucm_geom_t *g = &m->geom;
  if (in_window(offset, UCM_REGS_WINDOW, UCM_REGS_WINDOW_SIZE, index)) return AREA_REG;
  if (in_window(offset, UCM_STEP_WINDOW, UCM_STEP_WINDOW_SIZE, index))
    return *index < g->banks ? AREA_STEP : AREA_NONE;
  if (in_window(offset, UCM_KEY_WINDOW, UCM_KEY_WINDOW_SIZE, index))
    return *index * 4 < g->dim ? AREA_KEY : AREA_NONE;
  if (in_window(offset, UCM_QUERY_WINDOW, UCM_QUERY_WINDOW_SIZE, index))
    return *index * 4 < g->dim ? AREA_QUERY : AREA_NONE;
  if (in_window(offset, UCM_LIST_WINDOW, UCM_LIST_WINDOW_SIZE, index))
    return *index < g->slots ? AREA_LIST : AREA_NONE;
  if (in_window(offset, UCM_SCORE_WINDOW, UCM_SCORE_WINDOW_SIZE, index))
    return *index < g->slots ? AREA_SCORE : AREA_NONE;
  return AREA_NONE;
}

static uint32_t bytes_word(const int8_t *v, uint32_t word) {
  const uint8_t *b = (const uint8_t *)v + 4 * word;
  return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void bytes_write(int8_t *v, uint32_t word, uint32_t value, uint32_t be) {
  for (int i = 0; i < 4; i++)
    if (be >> i & 1) v[4 * word + i] = (int8_t)(value >> (8 * i));
}

int ucm_model_read(ucm_model_t *m, uint32_t offset, uint32_t *value) {
  const ucm_geom_t *g = &m->geom;
  uint32_t idx;
  *value = 0;
  switch (decode(m, offset & (ARRAY_SIZE - 4), &idx)) {
    case AREA_STEP:
      *value = (uint32_t)m->step[idx] << UCM_STEP_VALUE_LSB;
      return 0;
    case AREA_KEY:
      *value = bytes_word(m->key, idx);
      return 0;
    case AREA_QUERY:
      *value = bytes_word(m->query, idx);
      return 0;
    case AREA_LIST:
      *value = m->list[idx];
      return 0;
    case AREA_SCORE:
      *value = (uint32_t)m->score[idx];
      return 0;
    case AREA_NONE:
      return -1;
    case AREA_REG:
      break;
  }
  uint32_t reg = 4 * idx; /* the word decode found in REGS */
  if (reg >= UCM_CYC_WRITE_OFFSET && reg < UCM_CYC_WRITE_OFFSET + 4 * UCM_COUNTERS) {
    *value = m->counter[(reg - UCM_CYC_WRITE_OFFSET) / 4];
    return 0;
  }
  switch (reg) {
    case UCM_GEOM_OFFSET:
      *value = g->slots << UCM_GEOM_SLOTS_LSB | g->banks << UCM_GEOM_BANKS_LSB;
      break;
    case UCM_SHAPE_OFFSET:
      *value = g->dim << UCM_SHAPE_DIM_LSB | g->cell_bits << UCM_SHAPE_CELL_BITS_LSB |
               g->q_bits << UCM_SHAPE_Q_BITS_LSB | g->lanes << UCM_SHAPE_LANES_LSB;
      break;
    case UCM_CONV_OFFSET:
      *value = g->adc_count << UCM_CONV_ADC_COUNT_LSB | g->adc_bits << UCM_CONV_ADC_BITS_LSB |
               (uint32_t)m->score_bits << UCM_CONV_SCORE_BITS_LSB;
      break;
    case UCM_CMD_OFFSET:
      *value = m->cmd;
      break;
    case UCM_STATUS_OFFSET:
      *value = m->status;
      break;
    case UCM_RESULT_OFFSET:
      *value = m->result;
      break;
    case UCM_IRQ_ENABLE_OFFSET:
      *value = m->irq_enable;
      break;
    case UCM_POS_OFFSET:
      *value = m->pos_reg;
      break;
    case UCM_ACC_INIT_OFFSET:
      *value = m->acc_init;
      break;
    case UCM_THRESHOLD_OFFSET:
      *value = m->threshold;
      break;
    case UCM_CAM_CFG_OFFSET:
      *value = m->cam_cfg;
      break;
    case UCM_ADC_CFG_OFFSET:
      *value = m->adc_cfg;
      break;
    case UCM_SENSE_TIME_OFFSET:
      *value = m->sense_time;
      break;
    case UCM_SENSE_CAP_OFFSET:
      *value = m->sense_cap;
      break;
    case UCM_NOISE_CFG_OFFSET:
      *value = m->noise_cfg;
      break;
    case UCM_SEED_OFFSET:
      *value = m->seed;
      break;
    case UCM_SLOT_META_OFFSET:
      *value = m->slot_meta;
      break;
    case UCM_SLOT_ACC_OFFSET:
      *value = m->slot_acc;
      break;
    case UCM_VALID_COUNT_OFFSET:
      *value = m->slot_valid_count;
      break;
    default:
      return -1;
  }
  return 0;
}

/* A trim register: its fields when all are in range, else dropped with ERR_RANGE. */
static void write_trim(ucm_model_t *m, uint32_t *reg, uint32_t value, int in_range, uint32_t fields) {
  if (in_range)
    *reg = value & fields;
  else
    m->status |= UCM_STATUS_ERR_RANGE_MASK;
}

int ucm_model_write(ucm_model_t *m, uint32_t offset, uint32_t value, uint32_t be) {
  uint32_t idx;
  switch (decode(m, offset & (ARRAY_SIZE - 4), &idx)) {
    case AREA_STEP:
      if (be & (1u << (UCM_STEP_VALUE_LSB / 8)))
        m->step[idx] = (uint8_t)((value & UCM_STEP_VALUE_MASK) >> UCM_STEP_VALUE_LSB);
      return 0;
    case AREA_KEY:
      bytes_write(m->key, idx, value, be);
      return 0;
    case AREA_QUERY:
      bytes_write(m->query, idx, value, be);
      return 0;
    case AREA_LIST:
      m->list[idx] = value;
      return 0;
    case AREA_SCORE:
    case AREA_NONE:
      return -1;
    case AREA_REG:
      break;
  }
  switch (4 * idx) {
    case UCM_CMD_OFFSET:
      command(m, value);
      break;
    case UCM_STATUS_OFFSET:
      m->status &= ~(value & (ERR_BITS | UCM_STATUS_ERR_BUSY_MASK | UCM_STATUS_ERR_RANGE_MASK | UCM_STATUS_DONE_MASK));
      break;
    case UCM_IRQ_ENABLE_OFFSET:
      m->irq_enable = value & UCM_IRQ_ENABLE_DONE_MASK;
      break;
    case UCM_CTRL_OFFSET:
      if (value & UCM_CTRL_CLEAR_COUNTERS_MASK) memset(m->counter, 0, sizeof m->counter);
      break;
    case UCM_POS_OFFSET:
      m->pos_reg = value & UCM_POS_POS_MASK;
      break;
    case UCM_ACC_INIT_OFFSET:
      m->acc_init = value;
      break;
    case UCM_THRESHOLD_OFFSET:
      m->threshold = value;
      break;
    case UCM_CAM_CFG_OFFSET:
      m->cam_cfg = value & (UCM_CAM_CFG_QSTEP_MASK | UCM_CAM_CFG_ALPHA_MASK | UCM_CAM_CFG_LINEAR_MASK);
      break;
    case UCM_SENSE_TIME_OFFSET:
      write_trim(m, &m->sense_time, value, ucm_sense_time_ok(value), UCM_SENSE_TIME_TS_MASK | UCM_SENSE_TIME_VPRE_MASK);
      break;
    case UCM_SENSE_CAP_OFFSET:
      write_trim(m, &m->sense_cap, value, ucm_sense_cap_ok(value), UCM_SENSE_CAP_CSL_MASK | UCM_SENSE_CAP_CACC_MASK);
      break;
    case UCM_ADC_CFG_OFFSET:
      m->adc_cfg = value & (UCM_ADC_CFG_GAIN_MASK | UCM_ADC_CFG_SHIFT_MASK | UCM_ADC_CFG_BITS_MASK);
      break;
    case UCM_NOISE_CFG_OFFSET:
      m->noise_cfg = value;
      break;
    case UCM_SEED_OFFSET:
      m->seed = value;
      m->write_serial = m->search_serial = 0;
      break;
    default:
      return -1; /* read-only or unmapped */
  }
  return 0;
}
