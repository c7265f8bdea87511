#include "ucm.h"

#include "soc_regs.h"

/* Polls of STATUS before a command counts as hung: far above the longest
 * command of the largest array (a search of 4096 slots, one lane). */
#define UCM_POLL_LIMIT (1u << 26)

static int model_geometry(ucm_t *u) {
  uint32_t geom = u->read(u, UCM_GEOM_OFFSET), shape = u->read(u, UCM_SHAPE_OFFSET);
  uint32_t conv = u->read(u, UCM_CONV_OFFSET);
  u->geom.slots = geom & UCM_GEOM_SLOTS_MASK;
  u->geom.banks = (geom & UCM_GEOM_BANKS_MASK) >> UCM_GEOM_BANKS_LSB;
  u->geom.dim = shape & UCM_SHAPE_DIM_MASK;
  u->geom.cell_bits = (shape & UCM_SHAPE_CELL_BITS_MASK) >> UCM_SHAPE_CELL_BITS_LSB;
  u->geom.q_bits = (shape & UCM_SHAPE_Q_BITS_MASK) >> UCM_SHAPE_Q_BITS_LSB;
  u->geom.lanes = (shape & UCM_SHAPE_LANES_MASK) >> UCM_SHAPE_LANES_LSB;
  u->geom.adc_count = conv & UCM_CONV_ADC_COUNT_MASK;
  u->geom.adc_bits = (conv & UCM_CONV_ADC_BITS_MASK) >> UCM_CONV_ADC_BITS_LSB;
  u->score_bits = (conv & UCM_CONV_SCORE_BITS_MASK) >> UCM_CONV_SCORE_BITS_LSB;
  return u->geom.banks && u->geom.slots && u->geom.dim ? UCM_OK : UCM_E_ABSENT;
}

static uint32_t model_read(ucm_t *u, uint32_t offset) {
  uint32_t v;
  return ucm_model_read(u->model, offset, &v) ? 0 : v;
}

static void model_write(ucm_t *u, uint32_t offset, uint32_t value) {
  ucm_model_write(u->model, offset, value, 0xF);
}

int ucm_open_model(ucm_t *u, ucm_model_t *model) {
  u->read = model_read;
  u->write = model_write;
  u->model = model;
  return model_geometry(u);
}

#ifdef __riscv
#include "sysctl.h"

static uint32_t mmio_read(ucm_t *u, uint32_t offset) {
  (void)u;
  return REG32(UCM_BASE + offset);
}

static void mmio_write(ucm_t *u, uint32_t offset, uint32_t value) {
  (void)u;
  REG32(UCM_BASE + offset) = value;
}

int ucm_open_mmio(ucm_t *u) {
  if (!(SYSCTL_FEATURES & SYSCTL_FEATURES_UNICAIM_MASK)) return UCM_E_ABSENT;
  u->read = mmio_read;
  u->write = mmio_write;
  u->model = 0;
  return model_geometry(u);
}
#endif

/* ------------------------------------------------------------ commands */

static int status_error(uint32_t status) {
  if (status & UCM_STATUS_ERR_CMD_MASK) return UCM_E_CMD;
  if (status & UCM_STATUS_ERR_BANK_MASK) return UCM_E_BANK;
  if (status & UCM_STATUS_ERR_SLOT_MASK) return UCM_E_SLOT;
  if (status & UCM_STATUS_ERR_K_MASK) return UCM_E_K;
  if (status & UCM_STATUS_ERR_COUNT_MASK) return UCM_E_COUNT;
  if (status & UCM_STATUS_ERR_NOVICTIM_MASK) return UCM_E_NOVICTIM;
  if (status & UCM_STATUS_ERR_BUSY_MASK) return UCM_E_BUSY;
  return UCM_OK;
}

/* Run one command and wait for it. */
static int command(ucm_t *u, uint32_t op, uint32_t flags, unsigned bank, unsigned arg) {
  if (bank > 0xFF || arg > 0xFFFF) return bank > 0xFF ? UCM_E_BANK : UCM_E_SLOT;
  u->write(u, UCM_CMD_OFFSET,
           op | flags << UCM_CMD_FLAGS_LSB | (uint32_t)bank << UCM_CMD_BANK_LSB |
               (uint32_t)arg << UCM_CMD_ARG_LSB);
  for (uint32_t polls = 0; polls < UCM_POLL_LIMIT; polls++) {
    uint32_t status = u->read(u, UCM_STATUS_OFFSET);
    if (!(status & UCM_STATUS_BUSY_MASK)) {
      int err = status_error(status);
      if (err == UCM_E_BUSY) u->write(u, UCM_STATUS_OFFSET, UCM_STATUS_ERR_BUSY_MASK);
      return err;
    }
  }
  return UCM_E_TIMEOUT;
}

static void write_bytes(ucm_t *u, uint32_t window, const int8_t *v) {
  for (uint32_t i = 0; i < u->geom.dim; i += 4) {
    const uint8_t *b = (const uint8_t *)v + i;
    u->write(u, window + i, b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
  }
}

static uint32_t cam_cfg_accumulation(const ucm_accumulation_t *a) {
  return ((uint32_t)a->alpha << UCM_CAM_CFG_ALPHA_LSB & UCM_CAM_CFG_ALPHA_MASK) |
         (a->linear ? UCM_CAM_CFG_LINEAR_MASK : 0);
}

/* The trim registers, zero fields at their reset values; UCM_E_RANGE if
   the block dropped a write (its ERR_RANGE cleared again). */
static int write_sense(ucm_t *u, const ucm_sense_t *trim) {
  const ucm_sense_t t = ucm_sense_resolved(trim);
  u->write(u, UCM_SENSE_TIME_OFFSET,
           (uint32_t)t.ts_ps << UCM_SENSE_TIME_TS_LSB | (uint32_t)t.vpre_mv << UCM_SENSE_TIME_VPRE_LSB);
  u->write(u, UCM_SENSE_CAP_OFFSET,
           (uint32_t)t.csl_ff << UCM_SENSE_CAP_CSL_LSB | (uint32_t)t.cacc_ff << UCM_SENSE_CAP_CACC_LSB);
  if (!(u->read(u, UCM_STATUS_OFFSET) & UCM_STATUS_ERR_RANGE_MASK)) return UCM_OK;
  u->write(u, UCM_STATUS_OFFSET, UCM_STATUS_ERR_RANGE_MASK);
  return UCM_E_RANGE;
}

int ucm_configure(ucm_t *u, const ucm_config_t *cfg) {
  u->write(u, UCM_CAM_CFG_OFFSET, cfg->query_step | cam_cfg_accumulation(&cfg->accumulation));
  u->write(u, UCM_ADC_CFG_OFFSET, cfg->adc_gain | (uint32_t)(cfg->adc_shift & 15) << UCM_ADC_CFG_SHIFT_LSB |
                                      (uint32_t)(cfg->adc_bits & 31) << UCM_ADC_CFG_BITS_LSB);
  u->write(u, UCM_NOISE_CFG_OFFSET,
           cfg->sigma | (uint32_t)cfg->read_noise << UCM_NOISE_CFG_READ_NOISE_LSB |
               (uint32_t)cfg->stuck_rate << UCM_NOISE_CFG_STUCK_RATE_LSB);
  u->write(u, UCM_SEED_OFFSET, cfg->seed);
  u->write(u, UCM_ACC_INIT_OFFSET, cfg->acc_init);
  return write_sense(u, &cfg->accumulation.sense);
}

int ucm_set_accumulation(ucm_t *u, const ucm_accumulation_t *a, uint32_t acc_init) {
  uint32_t cfg = u->read(u, UCM_CAM_CFG_OFFSET) & UCM_CAM_CFG_QSTEP_MASK;
  u->write(u, UCM_CAM_CFG_OFFSET, cfg | cam_cfg_accumulation(a));
  u->write(u, UCM_ACC_INIT_OFFSET, acc_init);
  return write_sense(u, &a->sense);
}

void ucm_read_sense(ucm_t *u, ucm_sense_t *trim) {
  uint32_t time = u->read(u, UCM_SENSE_TIME_OFFSET), cap = u->read(u, UCM_SENSE_CAP_OFFSET);
  trim->ts_ps = (uint16_t)((time & UCM_SENSE_TIME_TS_MASK) >> UCM_SENSE_TIME_TS_LSB);
  trim->vpre_mv = (uint16_t)((time & UCM_SENSE_TIME_VPRE_MASK) >> UCM_SENSE_TIME_VPRE_LSB);
  trim->csl_ff = (uint8_t)((cap & UCM_SENSE_CAP_CSL_MASK) >> UCM_SENSE_CAP_CSL_LSB);
  trim->cacc_ff = (uint8_t)((cap & UCM_SENSE_CAP_CACC_MASK) >> UCM_SENSE_CAP_CACC_LSB);
}

int ucm_set_step(ucm_t *u, unsigned bank, uint8_t step) {
  if (bank >= u->geom.banks) return UCM_E_BANK;
  u->write(u, UCM_STEP_WINDOW + 4 * bank, (uint32_t)step << UCM_STEP_VALUE_LSB);
  return UCM_OK;
}

int ucm_reset_bank(ucm_t *u, unsigned bank) {
  return command(u, UCM_OP_RESET_BANK, 0, bank, 0);
}

int ucm_write_key(ucm_t *u, unsigned bank, unsigned slot, uint16_t pos, const int8_t *key, int protect) {
  write_bytes(u, UCM_KEY_WINDOW, key);
  u->write(u, UCM_POS_OFFSET, pos);
  return command(u, UCM_OP_WRITE_KEY, protect ? UCM_F_PROTECT : 0, bank, slot);
}

int ucm_set_protect(ucm_t *u, unsigned bank, unsigned slot, int protect) {
  return command(u, UCM_OP_SLOT_CTRL, protect ? UCM_F_PROTECT : 0, bank, slot);
}

int ucm_invalidate(ucm_t *u, unsigned bank, unsigned slot) {
  return command(u, UCM_OP_SLOT_CTRL, UCM_F_INVALIDATE, bank, slot);
}

void ucm_load_query(ucm_t *u, const int8_t *query) {
  write_bytes(u, UCM_QUERY_WINDOW, query);
}

int ucm_search(ucm_t *u, unsigned bank, unsigned k, unsigned flags, int32_t threshold, uint16_t *slots,
               int32_t *sims) {
  if (flags & UCM_SEARCH_THRESHOLD) u->write(u, UCM_THRESHOLD_OFFSET, (uint32_t)threshold);
  int err = command(u, UCM_OP_SEARCH, flags & 7, bank, k);
  if (err) return err;
  uint32_t n = u->read(u, UCM_RESULT_OFFSET);
  for (uint32_t i = 0; i < n; i++) {
    if (slots) slots[i] = (uint16_t)(u->read(u, UCM_LIST_WINDOW + 4 * i) & UCM_LIST_SLOT_MASK);
    if (sims) sims[i] = (int32_t)u->read(u, UCM_SCORE_WINDOW + 4 * i);
  }
  return (int)n;
}

static int exact_list(ucm_t *u, unsigned bank, unsigned n, int ideal, int32_t *scores) {
  int err = command(u, UCM_OP_EXACT, ideal ? UCM_F_IDEAL : 0, bank, n);
  if (err) return err;
  for (unsigned i = 0; i < n; i++) scores[i] = (int32_t)u->read(u, UCM_SCORE_WINDOW + 4 * i);
  return UCM_OK;
}

int ucm_exact(ucm_t *u, unsigned bank, const uint16_t *slots, unsigned n, int ideal, int32_t *scores) {
  if (n == 0 || n > u->geom.slots) return UCM_E_COUNT;
  for (unsigned i = 0; i < n; i++) u->write(u, UCM_LIST_WINDOW + 4 * i, (uint32_t)slots[i] << UCM_LIST_SLOT_LSB);
  return exact_list(u, bank, n, ideal, scores);
}

int ucm_exact_selected(ucm_t *u, unsigned bank, unsigned n, int ideal, int32_t *scores) {
  return exact_list(u, bank, n, ideal, scores);
}

int ucm_accumulate(ucm_t *u, unsigned bank, const uint16_t *slots, const uint16_t *addends, unsigned n) {
  if (n == 0 || n > u->geom.slots) return UCM_E_COUNT;
  for (unsigned i = 0; i < n; i++)
    u->write(u, UCM_LIST_WINDOW + 4 * i,
             (uint32_t)slots[i] << UCM_LIST_SLOT_LSB | (uint32_t)addends[i] << UCM_LIST_ADDEND_LSB);
  return command(u, UCM_OP_ACC_ADD, 0, bank, n);
}

int ucm_find_victim(ucm_t *u, unsigned bank) {
  int err = command(u, UCM_OP_FIND_VICTIM, 0, bank, 0);
  return err ? err : (int)u->read(u, UCM_RESULT_OFFSET);
}

int ucm_read_slot(ucm_t *u, unsigned bank, unsigned slot, ucm_slot_info_t *info) {
  int err = command(u, UCM_OP_READ_SLOT, 0, bank, slot);
  if (err) return err;
  uint32_t meta = u->read(u, UCM_SLOT_META_OFFSET);
  info->pos = (uint16_t)(meta & UCM_SLOT_META_POS_MASK);
  info->valid = (meta & UCM_SLOT_META_VALID_MASK) != 0;
  info->protect = (meta & UCM_SLOT_META_PROTECT_MASK) != 0;
  info->acc = u->read(u, UCM_SLOT_ACC_OFFSET);
  info->valid_count = u->read(u, UCM_VALID_COUNT_OFFSET);
  return UCM_OK;
}

void ucm_read_counters(ucm_t *u, ucm_counters_t *c) {
  for (uint32_t i = 0; i < UCM_COUNTERS; i++) c->v[i] = u->read(u, UCM_CYC_WRITE_OFFSET + 4 * i);
}

void ucm_clear_counters(ucm_t *u) {
  u->write(u, UCM_CTRL_OFFSET, UCM_CTRL_CLEAR_COUNTERS_MASK);
}

const char *ucm_strerror(int err) {
  switch (err) {
    case UCM_OK:
      return "ok";
    case UCM_E_CMD:
      return "unknown operation";
    case UCM_E_BANK:
      return "bank out of range";
    case UCM_E_SLOT:
      return "slot out of range";
    case UCM_E_K:
      return "k is 0 or above the valid slots";
    case UCM_E_COUNT:
      return "list length out of range";
    case UCM_E_BUSY:
      return "access while busy";
    case UCM_E_NOVICTIM:
      return "no victim";
    case UCM_E_TIMEOUT:
      return "block timed out";
    case UCM_E_RANGE:
      return "sense-line trim out of range";
    case UCM_E_ABSENT:
      return "no array block";
    default:
      return "unknown error";
  }
}
