// The ULX3S board in simulation, on its pins: ulx3s_top at RTL (ulx3s-rtl,
// through ulx3s_board.sv) or Yosys synth_ecp5's netlist of it written back
// as Verilog with Yosys's ECP5 cell models and ecp5_models.v (ulx3s-gl).
// The harness is the board: the 25 MHz oscillator (the PLL model passes it
// through as the system clock), the FTDI UART (no flow control, as on the
// board), the FIRE1 button (held down with --press-fire1, else not
// pressed) and the SDRAM chip
// (sim/sdram_model.h, which checks every timing rule). RAM and ROM hold
// what the bitstream's do.
//   ulx3s-rtl|ulx3s-gl [--uart-pty] [--press-fire1] [--max-cycles N]
// The UART is on stdin/stdout or on a pseudo-terminal whose path is printed
// ("UART on PATH"), as with unicaim-sim. The board has no way to end a run:
// it stops at --max-cycles (status 124), at a broken SDRAM rule (status 3),
// or at SIGTERM (status 0), printing the cycles it simulated.
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vboard.h"
#include "host_port.h"
#include "sdram_model.h"
#include "uart_model.h"
#include "verilated.h"

#if !defined(BOARD_CLK_HZ) || !defined(BOARD_BAUD) || !defined(BOARD_SIM_NAME)
#error "BOARD_CLK_HZ and BOARD_BAUD must match the model's ClkMhz and Baud; BOARD_SIM_NAME names the program"
#endif

namespace {

constexpr int kExitUsage = 2, kExitSdram = 3, kExitTimeout = 124;
constexpr uint32_t kSdramBytes = 32u << 20;
volatile std::sig_atomic_t g_stop = 0;

[[noreturn]] void fail(const std::string &msg) {
  std::fprintf(stderr, "%s: %s\n", BOARD_SIM_NAME, msg.c_str());
  std::exit(kExitUsage);
}

}  // namespace

int main(int argc, char **argv) {
  bool pty = false, press_fire1 = false;
  uint64_t max_cycles = 0;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--uart-pty") {
      pty = true;
    } else if (a == "--press-fire1") {
      press_fire1 = true;
    } else if (a == "--max-cycles" && i + 1 < argc) {
      char *end = nullptr;
      max_cycles = std::strtoull(argv[++i], &end, 0);
      if (!*argv[i] || *end) fail(std::string("--max-cycles takes a number, not '") + argv[i] + "'");
    } else if (a.rfind("+verilator", 0) != 0) {
      fail("unknown option '" + a + "' (usage: " BOARD_SIM_NAME " [--uart-pty] [--press-fire1] [--max-cycles N])");
    }
  }

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vboard>(ctx.get());
  HostPort host;
  if (pty && !host.open_pty(BOARD_SIM_NAME)) fail("cannot create a pseudo-terminal");
  UartModel uart(BOARD_CLK_HZ / BOARD_BAUD);
  SdramModel sdram(kSdramBytes, double(BOARD_CLK_HZ));

  top->ftdi_txd = 1;
  top->btn_fire1 = press_fire1;
  top->sdram_d = 0;
  top->clk_25mhz = 0;
  top->eval();

  std::signal(SIGTERM, [](int) { g_stop = 1; });
  const auto start = std::chrono::steady_clock::now();
  int status = kExitTimeout;
  uint64_t cycle = 0;
  for (; !max_cycles || cycle < max_cycles; cycle++) {
    if (g_stop) {
      status = 0;
      break;
    }
    // The pins carry what the controller drives, else what the chip does.
    top->sdram_d = uint16_t((top->sdram_d_oe & top->sdram_d_out) | (~top->sdram_d_oe & sdram.dq_for(cycle)));
    top->clk_25mhz = 1;
    top->eval();
    const SdramPins pins{bool(top->sdram_cke), bool(top->sdram_csn), bool(top->sdram_rasn), bool(top->sdram_casn),
                         bool(top->sdram_wen),  top->sdram_ba,         top->sdram_a,           top->sdram_dqm,
                         uint16_t(top->sdram_d_out), top->sdram_d_oe != 0};
    if (!sdram.clock(cycle, pins)) {
      std::fprintf(stderr, "%s: %s\n", BOARD_SIM_NAME, sdram.error().c_str());
      status = kExitSdram;
      break;
    }
    top->clk_25mhz = 0;
    top->eval();

    bool got;
    uint8_t byte;
    top->ftdi_txd = uart.tick(top->ftdi_rxd, true, &got, &byte);
    if (got) host.put(byte);
    if ((cycle & 255) == 0 && uart.queued() < 16) {
      uint8_t chunk[16];
      const size_t n = host.poll_bytes(chunk, sizeof chunk - uart.queued());
      for (size_t i = 0; i < n; i++) uart.send(chunk[i]);
    }
  }
  top->final();
  host.drain();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "BOARD cycles=%" PRIu64 " wall_s=%.1f hz=%.0f status=%d\n", cycle, wall,
               wall > 0 ? cycle / wall : 0.0, status);
  return status;
}
