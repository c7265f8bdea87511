// Seeded randomized co-simulation of rtl/unicaim/ucm_block against the C
// golden model (firmware/lib/unicaim/ucm_model.c): every operation goes to
// both through the same register interface, and everything observable --
// status, results, LIST/SCORE windows, slot metadata, counters -- must agree
// bit for bit. Also directed misuse: every error case, accesses while busy,
// and a bound on every command's duration (a hang fails the run).
//
// usage: ucm_cosim [--seed N] [--ops N] [--ideal-device]
//   (geometry comes from the RTL build or netlist; --ideal-device keeps
//   the non-idealities off)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vucm_block.h"
#include "verilated.h"

extern "C" {
#include "soc_regs.h"
#include "ucm_arith.h"
#include "ucm_model.h"
}

namespace {

Vucm_block *dut;
ucm_model_t model;
std::vector<uint32_t> model_mem;
uint64_t cycles;
unsigned long failures, checks;
uint64_t rng_state;

uint32_t rnd() {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}
uint32_t rnd_below(uint32_t n) {
  return n ? rnd() % n : 0;
}

void fail(const char *what, uint32_t offset, uint32_t rtl, uint32_t ref) {
  if (failures < 20)
    std::fprintf(stderr, "MISMATCH %s @0x%04x: rtl 0x%08x model 0x%08x (cycle %llu)\n", what, offset, rtl,
                 ref, (unsigned long long)cycles);
  failures++;
}

void expect(bool ok, const char *what) {
  checks++;
  if (!ok) {
    if (failures < 20) std::fprintf(stderr, "FAIL %s (cycle %llu)\n", what, (unsigned long long)cycles);
    failures++;
  }
}

void set_req(bool req, bool we, uint32_t be, uint32_t addr, uint32_t wdata) {
  // bus_req_t packed: {req, we, be[3:0], addr[31:0], wdata[31:0]} = 70 bits.
  dut->req_i[0] = wdata;
  dut->req_i[1] = addr;
  dut->req_i[2] = (be & 0xF) | (we ? 0x10 : 0) | (req ? 0x20 : 0);
}

void tick() {
  dut->clk_i = 0;
  dut->eval();
  dut->clk_i = 1;
  dut->eval();
  cycles++;
}

// One bus cycle: the request is presented for one clock, the response read
// in the same cycle (as the SoC's registered peripheral bus does).
uint64_t rtl_access(bool we, uint32_t offset, uint32_t wdata, uint32_t be = 0xF) {
  // Now and then a few cycles without a request: an idle block's clock
  // stops in the simulator, and that must change nothing.
  if (rnd_below(4) == 0)
    for (uint32_t idle = 1 + rnd_below(3); idle; idle--) tick();
  set_req(true, we, be, offset, wdata);
  dut->clk_i = 0;
  dut->eval();
  uint64_t rsp = dut->rsp_o;
  tick();
  set_req(false, false, 0, 0, 0);
  return rsp;
}

uint32_t rtl_read(uint32_t offset, bool *err = nullptr) {
  uint64_t rsp = rtl_access(false, offset, 0);
  if (err) *err = rsp & 1;
  return (uint32_t)(rsp >> 1);
}

bool rtl_write(uint32_t offset, uint32_t value, uint32_t be = 0xF) {
  return rtl_access(true, offset, value, be) & 1;
}

uint32_t rtl_status() {
  return rtl_read(UCM_STATUS_OFFSET);
}

// Wait for the command to finish; a command that runs past any bound the
// geometry allows is a hang.
void rtl_wait(uint64_t bound) {
  uint64_t start = cycles;
  while (rtl_status() & UCM_STATUS_BUSY_MASK) {
    if (cycles - start > bound) {
      expect(false, "command finishes (hang)");
      return;
    }
  }
}

uint64_t bound_cycles() {
  const ucm_geom_t &g = model.geom;
  return 8ull * (g.slots + 4) * (model.score_bits + 4) + 16ull * g.slots * g.q_bits + 4ull * g.dim + 1000;
}

// Both sides.
void both_write(uint32_t offset, uint32_t value, uint32_t be = 0xF) {
  bool rtl_err = rtl_write(offset, value, be);
  bool ref_err = ucm_model_write(&model, offset, value, be) != 0;
  if (rtl_err != ref_err) fail("write bus error", offset, rtl_err, ref_err);
}

void compare_read(uint32_t offset, const char *what) {
  bool rtl_err;
  uint32_t rtl = rtl_read(offset, &rtl_err), ref;
  bool ref_err = ucm_model_read(&model, offset, &ref) != 0;
  checks++;
  if (rtl_err != ref_err)
    fail("read bus error", offset, rtl_err, ref_err);
  else if (!rtl_err && rtl != ref)
    fail(what, offset, rtl, ref);
}

void compare_state() {
  compare_read(UCM_STATUS_OFFSET, "STATUS");
  compare_read(UCM_RESULT_OFFSET, "RESULT");
  for (uint32_t i = 0; i < UCM_COUNTERS; i++) compare_read(UCM_CYC_WRITE_OFFSET + 4 * i, "counter");
}

unsigned long completed[16]; // commands per op that ran without error

void command(uint32_t op, uint32_t flags, uint32_t bank, uint32_t arg) {
  uint32_t cmd = op | flags << UCM_CMD_FLAGS_LSB | bank << UCM_CMD_BANK_LSB | arg << UCM_CMD_ARG_LSB;
  both_write(UCM_CMD_OFFSET, cmd);
  rtl_wait(bound_cycles());
  compare_state();
  if (!(model.status & 0x5F00)) completed[op & 15]++;
}

void compare_list(uint32_t n, const char *after) {
  std::string list = std::string("LIST after ") + after, score = std::string("SCORE after ") + after;
  for (uint32_t i = 0; i < n; i++) {
    compare_read(UCM_LIST_WINDOW + 4 * i, list.c_str());
    compare_read(UCM_SCORE_WINDOW + 4 * i, score.c_str());
  }
}

// ------------------------------------------------------------ stimulus
struct Stimulus {
  std::vector<std::vector<int8_t>> keys; // a small pool: repeats make CAM ties
};
Stimulus stim;

int8_t random_component() {
  switch (rnd_below(4)) {
    case 0:
      return (int8_t)rnd();
    case 1:
      return (int8_t)(rnd_below(9) - 4);
    case 2:
      return (int8_t)(rnd_below(2) ? 127 : -128);
    default:
      return (int8_t)(rnd_below(61) - 30);
  }
}

void load_vector(uint32_t window, const std::vector<int8_t> &v) {
  for (uint32_t w = 0; w < v.size() / 4; w++) {
    uint32_t word = 0;
    for (int b = 0; b < 4; b++) word |= (uint32_t)(uint8_t)v[4 * w + b] << (8 * b);
    both_write(window + 4 * w, word);
  }
}

std::vector<int8_t> random_vector() {
  if (!stim.keys.empty() && rnd_below(3) == 0) return stim.keys[rnd_below((uint32_t)stim.keys.size())];
  std::vector<int8_t> v(model.geom.dim);
  for (auto &c : v) c = random_component();
  if (stim.keys.size() < 8)
    stim.keys.push_back(v);
  else
    stim.keys[rnd_below(8)] = v;
  return v;
}

uint32_t random_bank() {
  return rnd_below(16) == 0 ? model.geom.banks + rnd_below(4) : rnd_below(model.geom.banks);
}
uint32_t random_slot() {
  return rnd_below(32) == 0 ? model.geom.slots + rnd_below(3) : rnd_below(model.geom.slots);
}

bool ideal_device;

// A sense-line trim: in range mostly (t_s spread over its decades), else
// one field out of range (the write must be dropped with ERR_RANGE).
uint32_t random_sense_time() {
  uint32_t ts = UCM_SENSE_TS_MIN_PS + rnd_below(UCM_SENSE_TS_MIN_PS << rnd_below(10));
  uint32_t vpre = UCM_SENSE_VPRE_MIN_MV + rnd_below(UCM_SENSE_VPRE_MAX_MV - UCM_SENSE_VPRE_MIN_MV + 1);
  if (ts > UCM_SENSE_TS_MAX_PS) ts = UCM_SENSE_TS_MAX_PS;
  switch (rnd_below(10)) {
    case 0:
      ts = rnd_below(2) ? rnd_below(UCM_SENSE_TS_MIN_PS) : UCM_SENSE_TS_MAX_PS + 1 + rnd_below(50000);
      break;
    case 1:
      vpre = rnd_below(2) ? rnd_below(UCM_SENSE_VPRE_MIN_MV) : UCM_SENSE_VPRE_MAX_MV + 1 + rnd_below(2500);
      break;
  }
  return ts << UCM_SENSE_TIME_TS_LSB | vpre << UCM_SENSE_TIME_VPRE_LSB | (rnd_below(8) == 0 ? 1u << 30 : 0);
}

uint32_t random_sense_cap() {
  uint32_t csl = rnd_below(10) == 0 ? 0 : 1 + rnd_below(255), cacc = rnd_below(10) == 0 ? 0 : 1 + rnd_below(255);
  return csl << UCM_SENSE_CAP_CSL_LSB | cacc << UCM_SENSE_CAP_CACC_LSB | (rnd_below(8) == 0 ? rnd() << 16 : 0);
}

void random_config() {
  switch (rnd_below(10)) {
    case 8:
      both_write(UCM_SENSE_TIME_OFFSET, random_sense_time());
      compare_read(UCM_SENSE_TIME_OFFSET, "SENSE_TIME");
      compare_read(UCM_STATUS_OFFSET, "STATUS after SENSE_TIME");
      break;
    case 9:
      both_write(UCM_SENSE_CAP_OFFSET, random_sense_cap());
      compare_read(UCM_SENSE_CAP_OFFSET, "SENSE_CAP");
      compare_read(UCM_STATUS_OFFSET, "STATUS after SENSE_CAP");
      break;
    case 0:
      both_write(UCM_NOISE_CFG_OFFSET, rnd_below(2) || ideal_device
                                           ? 0
                                           : (rnd_below(64) | rnd_below(64) << 8 | rnd_below(3000) << 16));
      break;
    case 1:
      both_write(UCM_SEED_OFFSET, rnd());
      break;
    case 2:
      both_write(UCM_CAM_CFG_OFFSET, rnd_below(40) | rnd_below(32) << 8 | rnd_below(2) << UCM_CAM_CFG_LINEAR_LSB);
      break;
    case 3:
      both_write(UCM_ADC_CFG_OFFSET, rnd());
      break;
    case 4:
      both_write(UCM_STEP_WINDOW + 4 * rnd_below(model.geom.banks), rnd_below(40));
      break;
    case 5:
      both_write(UCM_THRESHOLD_OFFSET, (uint32_t)((int32_t)rnd_below(4001) - 2000));
      break;
    case 6:
      both_write(UCM_ACC_INIT_OFFSET, rnd_below(4) == 0 ? rnd_below(4) : rnd());
      break;
    default:
      both_write(UCM_POS_OFFSET, rnd_below(4) == 0 ? rnd_below(4) : rnd());
      break;
  }
}

void random_list(uint32_t n, bool addends) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t slot = rnd_below(64) == 0 ? model.geom.slots + rnd_below(100) : rnd_below(model.geom.slots);
    both_write(UCM_LIST_WINDOW + 4 * i, slot << UCM_LIST_SLOT_LSB | (addends ? rnd() << UCM_LIST_ADDEND_LSB : 0));
  }
}

uint32_t random_k(uint32_t bank) {
  uint32_t valid = bank < model.geom.banks ? model.valid_count[bank] : 4;
  switch (rnd_below(12)) {
    case 0:
      return 0;
    case 1:
      return valid + 1 + rnd_below(3);
    case 2:
      return valid;
    default:
      return 1 + rnd_below(valid ? valid : 1);
  }
}

// Coverage of the sense line: rows of accumulating circuit-mode searches
// whose sampled voltage lies strictly between 0 and V_pre (the exponential's
// steep part, where a wrong stage shows), from the model's similarities.
unsigned long sense_rows_mid, sense_rows_clamped;
void count_sense_rows(uint32_t bank, uint32_t flags) {
  const ucm_geom_t &g = model.geom;
  if (!(flags & UCM_F_ACCUMULATE) || (model.cam_cfg & UCM_CAM_CFG_LINEAR_MASK)) return;
  uint32_t ts = (model.sense_time & UCM_SENSE_TIME_TS_MASK) >> UCM_SENSE_TIME_TS_LSB;
  uint32_t vpre = (model.sense_time & UCM_SENSE_TIME_VPRE_MASK) >> UCM_SENSE_TIME_VPRE_LSB;
  uint32_t rate = ucm_sense_rate(ts, (model.sense_cap & UCM_SENSE_CAP_CSL_MASK) >> UCM_SENSE_CAP_CSL_LSB);
  uint32_t drive = ucm_query_drive(model.qlevel, g.dim);
  for (uint32_t s = 0; s < g.slots; s++) {
    if (!model.valid[(size_t)bank * g.slots + s]) continue;
    uint32_t v = ucm_sense_voltage(model.similarity[s], drive, rate, vpre);
    sense_rows_mid += v > 0 && v < vpre << 16;
    sense_rows_clamped += model.similarity[s] > (int32_t)drive;
  }
}

void random_op() {
  const ucm_geom_t &g = model.geom;
  uint32_t bank = random_bank();
  uint32_t r = rnd_below(100);
  if (r < 30) {
    load_vector(UCM_KEY_WINDOW, random_vector());
    command(UCM_OP_WRITE_KEY, rnd_below(6) == 0 ? UCM_F_PROTECT : 0, bank, random_slot());
  } else if (r < 52) {
    load_vector(UCM_QUERY_WINDOW, random_vector());
    uint32_t flags = rnd_below(8);
    command(UCM_OP_SEARCH, flags, bank, random_k(bank));
    compare_list(model.result <= g.slots ? model.result : 0, "SEARCH");
    if (!(model.status & 0x7F00)) count_sense_rows(bank, flags);
  } else if (r < 64) {
    uint32_t n =
        rnd_below(20) == 0 ? (rnd_below(2) ? 0 : g.slots + 1) : 1 + rnd_below(g.slots < 24 ? g.slots : 24);
    if (rnd_below(3) == 0) load_vector(UCM_QUERY_WINDOW, random_vector());
    if (rnd_below(2)) random_list(n <= g.slots ? n : g.slots, false);
    command(UCM_OP_EXACT, rnd_below(4) == 0 ? UCM_F_IDEAL : 0, bank, n);
    if (!(model.status & 0x7F00)) compare_list(n, "EXACT");
  } else if (r < 70) {
    uint32_t n = rnd_below(20) == 0 ? 0 : 1 + rnd_below(g.slots < 16 ? g.slots : 16);
    random_list(n <= g.slots ? n : g.slots, true);
    command(UCM_OP_ACC_ADD, 0, bank, n);
  } else if (r < 78) {
    command(UCM_OP_FIND_VICTIM, 0, bank, 0);
  } else if (r < 85) {
    command(UCM_OP_SLOT_CTRL, rnd_below(4), bank, random_slot());
  } else if (r < 90) {
    command(UCM_OP_READ_SLOT, 0, bank, random_slot());
    compare_read(UCM_SLOT_META_OFFSET, "SLOT_META");
    compare_read(UCM_SLOT_ACC_OFFSET, "SLOT_ACC");
    compare_read(UCM_VALID_COUNT_OFFSET, "VALID_COUNT");
  } else if (r < 91) {
    command(UCM_OP_RESET_BANK, 0, bank, 0);
  } else if (r < 92) {
    command(rnd_below(2) ? 0 : 9 + rnd_below(7), rnd_below(16), bank, rnd_below(8));
  } else if (r < 93) {
    both_write(UCM_CTRL_OFFSET, UCM_CTRL_CLEAR_COUNTERS_MASK);
  } else if (r < 94) {
    both_write(UCM_STATUS_OFFSET, rnd());
    compare_read(UCM_STATUS_OFFSET, "STATUS");
  } else if (r < 96) {
    // Random register / window reads and writes, mapped or not.
    static const uint32_t offsets[] = {0x00,
                                       0x04,
                                       0x08,
                                       0x0C,
                                       0x20,
                                       0x4C,
                                       0x7C,
                                       0xB4,
                                       0xFC,
                                       0x100,
                                       0x3FC,
                                       UCM_STEP_WINDOW + 4 * 255,
                                       UCM_KEY_WINDOW + 0x3FC,
                                       UCM_SCORE_WINDOW,
                                       UCM_LIST_WINDOW + 0x3FFC,
                                       0xC000,
                                       0xFFFC};
    uint32_t off = offsets[rnd_below(sizeof offsets / sizeof offsets[0])];
    if (rnd_below(2) && off != UCM_SCORE_WINDOW)
      compare_read(off, "register");
    else if (off != UCM_CTRL_OFFSET)
      both_write(off, rnd());
  } else {
    random_config();
  }
}

// ------------------------------------------------------------ directed misuse
// The sense line's clamp: a row whose similarity exceeds the query's drive
// (read noise on a key that matches the query with cells pushed to the
// full conductance by their variation) has no current. Random stimulus
// never gets there; this does, in bank 0, where it can: 3-bit cells (a
// level-3 cell is 24 of 31 eighths) and rows of 8 cells (the variation's
// shortfall grows with the row, the noise does not).
void sense_clamp() {
  const ucm_geom_t &g = model.geom;
  both_write(UCM_NOISE_CFG_OFFSET, 128u << UCM_NOISE_CFG_SIGMA_LSB | 255u << UCM_NOISE_CFG_READ_NOISE_LSB);
  both_write(UCM_CAM_CFG_OFFSET, 1u << UCM_CAM_CFG_QSTEP_LSB);
  both_write(UCM_STEP_WINDOW, 1);
  std::vector<int8_t> v(g.dim);
  for (auto &c : v) c = (int8_t)(rnd_below(2) ? 127 : -128);
  command(UCM_OP_RESET_BANK, 0, 0, 0);
  for (int i = 0; i < 64 && !sense_rows_clamped; i++) {
    load_vector(UCM_KEY_WINDOW, v);
    for (uint32_t s = 0; s < g.slots; s++) command(UCM_OP_WRITE_KEY, 0, 0, s);  // fresh variation
    load_vector(UCM_QUERY_WINDOW, v);
    command(UCM_OP_SEARCH, UCM_F_ACCUMULATE, 0, 1);
    count_sense_rows(0, UCM_F_ACCUMULATE);
    for (uint32_t s = 0; s < g.slots; s++) {
      command(UCM_OP_READ_SLOT, 0, 0, s);
      compare_read(UCM_SLOT_ACC_OFFSET, "SLOT_ACC after a clamped search");
    }
  }
  if (g.cell_bits == 3 && g.dim <= 8) expect(sense_rows_clamped > 0, "a search reaches the sense line's clamp");
}

void busy_accesses() {
  const ucm_geom_t &g = model.geom;
  // A search over a full bank is the longest command; fill bank 0.
  for (uint32_t s = 0; s < g.slots; s++) {
    load_vector(UCM_KEY_WINDOW, random_vector());
    both_write(UCM_CMD_OFFSET, UCM_OP_WRITE_KEY | s << UCM_CMD_ARG_LSB);
    rtl_wait(bound_cycles());
  }
  compare_state();
  both_write(UCM_STATUS_OFFSET, 0xFFFFFFFF);
  uint32_t pos_before = rtl_read(UCM_POS_OFFSET);
  uint32_t cmd = UCM_OP_SEARCH | (g.slots / 2 ? g.slots / 2 : 1) << UCM_CMD_ARG_LSB;
  rtl_write(UCM_CMD_OFFSET, cmd);
  ucm_model_write(&model, UCM_CMD_OFFSET, cmd, 0xF);
  expect(rtl_status() & UCM_STATUS_BUSY_MASK, "SEARCH runs for more than a cycle");
  // Everything below is refused while busy; the model never sees it.
  rtl_write(UCM_POS_OFFSET, pos_before + 1);
  rtl_write(UCM_CMD_OFFSET, UCM_OP_RESET_BANK);
  rtl_write(UCM_KEY_WINDOW, 0x01020304);
  rtl_write(UCM_LIST_WINDOW, 3);
  bool err;
  uint32_t list0 = rtl_read(UCM_LIST_WINDOW, &err);
  expect(list0 == 0 && !err, "LIST reads 0 while busy");
  expect(rtl_status() & UCM_STATUS_ERR_BUSY_MASK, "ERR_BUSY set by accesses while busy");
  rtl_wait(bound_cycles());
  expect(rtl_read(UCM_POS_OFFSET) == pos_before, "POS write while busy dropped");
  model.status |= UCM_STATUS_ERR_BUSY_MASK; // what the RTL saw
  compare_state();
  compare_list(model.result, "SEARCH while busy");
  compare_read(UCM_KEY_WINDOW, "KEY write while busy dropped");
  both_write(UCM_STATUS_OFFSET, UCM_STATUS_ERR_BUSY_MASK);
  compare_read(UCM_STATUS_OFFSET, "ERR_BUSY cleared");
  // The interrupt follows DONE while enabled.
  both_write(UCM_IRQ_ENABLE_OFFSET, 1);
  command(UCM_OP_FIND_VICTIM, 0, 0, 0);
  expect(dut->irq_o, "irq with DONE and IRQ_ENABLE");
  both_write(UCM_STATUS_OFFSET, UCM_STATUS_DONE_MASK);
  dut->eval();
  expect(!dut->irq_o, "irq drops when DONE is cleared");
  both_write(UCM_IRQ_ENABLE_OFFSET, 0);
}

void error_cases() {
  const ucm_geom_t &g = model.geom;
  struct {
    uint32_t op, bank, arg, err;
    const char *what;
  } cases[] = {
      {0, 0, 0, UCM_STATUS_ERR_CMD_MASK, "op 0"},
      {15, 0, 0, UCM_STATUS_ERR_CMD_MASK, "op 15"},
      {UCM_OP_WRITE_KEY, g.banks, 0, UCM_STATUS_ERR_BANK_MASK, "bank out of range"},
      {UCM_OP_WRITE_KEY, 0, g.slots, UCM_STATUS_ERR_SLOT_MASK, "slot out of range"},
      {UCM_OP_SLOT_CTRL, 0, 0xFFFF, UCM_STATUS_ERR_SLOT_MASK, "slot 0xffff"},
      {UCM_OP_SEARCH, 0, 0, UCM_STATUS_ERR_K_MASK, "k = 0"},
      {UCM_OP_SEARCH, 0, model.valid_count[0] + 1, UCM_STATUS_ERR_K_MASK, "k > valid"},
      {UCM_OP_EXACT, 0, 0, UCM_STATUS_ERR_COUNT_MASK, "n = 0"},
      {UCM_OP_ACC_ADD, 0, g.slots + 1, UCM_STATUS_ERR_COUNT_MASK, "n > slots"},
  };
  for (auto &c : cases) {
    command(c.op, 0, c.bank, c.arg);
    expect((rtl_status() & 0x7F02) == (c.err | UCM_STATUS_DONE_MASK), c.what);
  }
  // A list entry out of range refuses the whole ACC_ADD: no slot changes.
  both_write(UCM_LIST_WINDOW, 0 | 5u << 16);
  both_write(UCM_LIST_WINDOW + 4, g.slots | 5u << 16);
  command(UCM_OP_ACC_ADD, 0, 0, 2);
  expect(rtl_status() & UCM_STATUS_ERR_SLOT_MASK, "ACC_ADD list entry out of range");
  command(UCM_OP_READ_SLOT, 0, 0, 0);
  compare_read(UCM_SLOT_ACC_OFFSET, "slot untouched by a refused ACC_ADD");
  // No victim in an empty bank.
  command(UCM_OP_RESET_BANK, 0, 0, 0);
  command(UCM_OP_FIND_VICTIM, 0, 0, 0);
  expect(rtl_status() & UCM_STATUS_ERR_NOVICTIM_MASK, "no victim in an empty bank");
  expect(rtl_read(UCM_RESULT_OFFSET) == g.slots, "victim SLOTS when none");
}

} // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  unsigned long ops = 10000;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--ideal-device"))
      ideal_device = true;
    else if (!std::strcmp(argv[i], "--ops") && i + 1 < argc)
      ops = std::strtoul(argv[++i], nullptr, 0);
    else if (argv[i][0] != '+') {
      std::fprintf(stderr, "usage: %s [--seed N] [--ops N] [--ideal-device]\n", argv[0]);
      return 2;
    }
  }
  rng_state = seed * 0x9E3779B97F4A7C15ull | 1;
  dut = new Vucm_block;
  set_req(false, false, 0, 0, 0);
  dut->rst_ni = 0;
  tick();
  tick();
  dut->rst_ni = 1;
  tick();

  // The model takes the geometry the RTL reports.
  uint32_t geom = rtl_read(UCM_GEOM_OFFSET), shape = rtl_read(UCM_SHAPE_OFFSET),
           conv = rtl_read(UCM_CONV_OFFSET);
  ucm_geom_t g = {};
  auto field = [](uint32_t reg, uint32_t mask, unsigned lsb) { return (reg & mask) >> lsb; };
  g.slots = field(geom, UCM_GEOM_SLOTS_MASK, UCM_GEOM_SLOTS_LSB);
  g.banks = field(geom, UCM_GEOM_BANKS_MASK, UCM_GEOM_BANKS_LSB);
  g.dim = field(shape, UCM_SHAPE_DIM_MASK, UCM_SHAPE_DIM_LSB);
  g.cell_bits = field(shape, UCM_SHAPE_CELL_BITS_MASK, UCM_SHAPE_CELL_BITS_LSB);
  g.q_bits = field(shape, UCM_SHAPE_Q_BITS_MASK, UCM_SHAPE_Q_BITS_LSB);
  g.lanes = field(shape, UCM_SHAPE_LANES_MASK, UCM_SHAPE_LANES_LSB);
  g.adc_count = field(conv, UCM_CONV_ADC_COUNT_MASK, UCM_CONV_ADC_COUNT_LSB);
  g.adc_bits = field(conv, UCM_CONV_ADC_BITS_MASK, UCM_CONV_ADC_BITS_LSB);
  model_mem.resize(ucm_model_bytes(&g) / 4 + 1);
  if (ucm_model_init(&model, &g, model_mem.data())) {
    std::fprintf(stderr, "ucm_cosim: the RTL reports a geometry the model rejects\n");
    return 2;
  }
  if (field(conv, UCM_CONV_SCORE_BITS_MASK, UCM_CONV_SCORE_BITS_LSB) != model.score_bits)
    fail("SCORE_BITS", UCM_CONV_OFFSET, (conv >> 24) & 0x3F, model.score_bits);

  error_cases();
  for (unsigned long i = 0; i < ops; i++) random_op();
  sense_clamp();
  busy_accesses();
  // Coverage: every operation ran successfully somewhere in the run.
  for (uint32_t op = UCM_OP_WRITE_KEY; op <= UCM_OP_READ_SLOT; op++)
    expect(completed[op] > 0, "every operation completed at least once");

  std::printf(
      "ucm_cosim banks=%u slots=%u dim=%u cell_bits=%u q_bits=%u adc_bits=%u adc_count=%u lanes=%u: "
      "%lu ops (%lu searches, %lu exact), %lu checks, %llu cycles, %lu mismatches, %lu sense rows mid-range, %lu clamped\n",
      g.banks, g.slots, g.dim, g.cell_bits, g.q_bits, g.adc_bits, g.adc_count, g.lanes, ops,
      completed[UCM_OP_SEARCH], completed[UCM_OP_EXACT], checks, (unsigned long long)cycles, failures,
      sense_rows_mid, sense_rows_clamped);
  delete dut;
  return failures ? 1 : 0;
}
