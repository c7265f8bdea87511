// The simulator's SDRAM chip model (sim/sdram_model.h): a correct command
// sequence keeps the data (byte masks too) and returns it CAS latency + 1
// cycles later; each rule broken on purpose is reported by its name (tRC
// only follows tRAS + tRP by a nanosecond here, so it has no case of its own).
#include <cstdio>
#include <string>

#include "sdram_model.h"

namespace {

constexpr double kClkHz = 50e6;  // 20 ns: tRCD, tRP need 2 cycles, tRAS 3, tRC/tRFC 4
int failures = 0;

struct Chip {
  explicit Chip(double clk_hz = kClkHz) : m(32u << 20, clk_hz), period_ns(1e9 / clk_hz) {}
  SdramModel m;
  double period_ns;
  uint64_t cycle = 0;

  bool issue(bool ras_n, bool cas_n, bool we_n, unsigned ba = 0, unsigned a = 0, uint16_t dq = 0, bool oe = false,
             unsigned dqm = 0) {
    return m.clock(cycle++, SdramPins{true, false, ras_n, cas_n, we_n, ba, a, dqm, dq, oe});
  }
  bool nop(unsigned n = 1) {
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i++) ok = m.clock(cycle++, SdramPins{true, true, true, true, true, 0, 0, 0, 0, false});
    return ok;
  }
  bool active(unsigned ba, unsigned row) { return issue(false, true, true, ba, row); }
  bool read(unsigned ba, unsigned col) { return issue(true, false, true, ba, col); }
  bool write(unsigned ba, unsigned col, uint16_t v, unsigned dqm = 0) { return issue(true, false, false, ba, col, v, true, dqm); }
  bool precharge(unsigned ba, bool all = false) { return issue(false, true, false, ba, all ? 0x400 : 0); }
  bool refresh() { return issue(false, false, true); }
  bool mode(unsigned value) { return issue(false, false, false, 0, value); }

  // Power-up, PRECHARGE ALL, 8 refreshes, CAS latency 2.
  bool init() {
    bool ok = nop(unsigned(200e3 / period_ns) + 1) && precharge(0, true) && nop(unsigned(21 / period_ns));
    for (int i = 0; i < 8 && ok; i++) ok = refresh() && nop(unsigned(66 / period_ns));
    return ok && mode(2 << 4) && nop(2);
  }
};

void expect(bool cond, const std::string &what) {
  if (!cond) {
    failures++;
    std::printf("FAIL %s\n", what.c_str());
  }
}

// A sequence that must stop at RULE.
void expect_rule(const char *rule, bool ran_clean, const Chip &c) {
  expect(!ran_clean && c.m.error().find(std::string(rule) + " violated") != std::string::npos,
         std::string(rule) + ": got '" + c.m.error() + "'");
}

}  // namespace

int main() {
  {
    Chip c;
    bool ok = c.init() && c.active(1, 77) && c.nop(1) && c.write(1, 5, 0x1234) && c.write(1, 6, 0xBEEF, 1) && c.nop(2) &&
              c.precharge(1) && c.nop(1) && c.active(1, 77) && c.nop(1);
    const uint64_t read_at = c.cycle;
    ok = ok && c.read(1, 5) && c.read(1, 6);
    expect(ok, "clean sequence: " + c.m.error());
    expect(c.m.dq_for(read_at + 3) == 0x1234, "read data at CAS latency + 1");
    expect((c.m.dq_for(read_at + 4) & 0xFF00) == 0xBE00, "high byte written");
    expect((c.m.dq_for(read_at + 4) & 0x00FF) != 0x00EF, "low byte masked by DQM");
    expect(c.m.peek((77u << 11) | (1u << 9) | 5) == 0x1234, "stored at row, bank, column");
  }
  { Chip c; expect_rule("power-up", c.nop(10) && c.precharge(0, true), c); }
  { Chip c; expect_rule("initialisation", c.nop(10001) && c.active(0, 1), c); }
  { Chip c; expect_rule("initialisation", c.nop(10001) && c.precharge(0, true) && c.nop(1) && c.mode(2 << 4), c); }
  { Chip c; expect_rule("tRCD", c.init() && c.active(0, 1) && c.read(0, 0), c); }
  { Chip c; expect_rule("tRAS", c.init() && c.active(0, 1) && c.nop(1) && c.precharge(0), c); }
  { Chip c; expect_rule("tWR", c.init() && c.active(0, 1) && c.nop(2) && c.write(0, 0, 1) && c.precharge(0), c); }
  { Chip c; expect_rule("tRP", c.init() && c.active(0, 1) && c.nop(2) && c.precharge(0) && c.active(0, 1), c); }
  { Chip c(100e6); expect_rule("tRRD", c.init() && c.active(0, 1) && c.active(1, 1), c); }
  { Chip c; expect_rule("tRFC", c.init() && c.refresh() && c.nop(1) && c.active(0, 1), c); }
  { Chip c; expect_rule("tMRD", c.nop(10001) && c.precharge(0, true) && c.nop(1) && [&] {
      bool ok = true;
      for (int i = 0; i < 8 && ok; i++) ok = c.refresh() && c.nop(3);
      return ok; }() && c.mode(2 << 4) && c.active(0, 1), c); }
  { Chip c; expect_rule("bank state", c.init() && c.active(0, 1) && c.nop(3) && c.active(0, 2), c); }
  { Chip c; expect_rule("bank state", c.init() && c.read(2, 0), c); }
  { Chip c; expect_rule("DQ direction", c.init() && c.active(0, 1) && c.nop(1) && c.read(0, 0) && c.nop(1) &&
                                          c.write(0, 1, 5), c); }
  { Chip c; expect_rule("tREFI", c.init() && c.nop(unsigned(9 * 7812.5 / 20) + 10), c); }
  { Chip c; expect_rule("mode register", c.nop(10001) && c.precharge(0, true) && c.nop(1) && [&] {
      bool ok = true;
      for (int i = 0; i < 8 && ok; i++) ok = c.refresh() && c.nop(3);
      return ok; }() && c.mode((2 << 4) | 3), c); }
  std::printf("sdram model: %d failures\n", failures);
  std::printf("TB %s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
