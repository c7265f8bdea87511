// A board in simulation, on its pins; the harness is the board.
//  - ULX3S: ulx3s_top at RTL (ulx3s-rtl, through ulx3s_board.sv) or Yosys
//    synth_ecp5's netlist of it written back as Verilog with Yosys's ECP5
//    cell models and ecp5_models.v (ulx3s-gl): the 25 MHz oscillator (the
//    PLL model passes it through as the system clock), the FTDI UART, the
//    FIRE1 button and the SDRAM chip (sim/sdram_model.h, which checks every
//    timing rule).
//  - Arty A7 with DDR3 (arty-rtl, BOARD_ARTY: arty_board.sv): the SoC's
//    clock and, at twice its rate, the clock of LiteDRAM's simulation core
//    (its controller, with a model of the PHY and the DDR3 in place of
//    both), the FTDI UART and BTN0. --stop-dram-clock-at N stops the
//    controller's clock from the SoC's cycle N on, as a controller whose
//    PLL lost lock would: the boot ROM must say so and go on without DDR3.
//    --preload-ext ELF puts the ELF's external-memory data in the DDR3
//    model's banks before the first cycle, as an upload would have left
//    it, so that a 170 MB model need not cross the simulated UART (hours);
//    the client then uploads only the program's RAM part.
// The UART has no flow control, as on the boards; the button is held down
// with --press-button, else not pressed. RAM and ROM hold what the
// bitstream's do.
//   ulx3s-rtl|ulx3s-gl|arty-rtl [--uart-pty] [--press-button] [--max-cycles N]
//   arty-rtl also: [--stop-dram-clock-at N] [--preload-ext ELF]
// The UART is on stdin/stdout or on a pseudo-terminal whose path is printed
// ("UART on PATH"), as with unicaim-sim. The board has no way to end a run:
// it stops at --max-cycles (status 124), at a broken SDRAM rule (status 3,
// the ULX3S's) or at SIGTERM (status 0), printing the cycles it simulated.
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vboard.h"
#include "host_port.h"
#ifdef BOARD_ARTY
#include "Vboard___024root.h"
#include "elf_image.h"
#include "soc_regs.h"
#endif
#include "uart_model.h"
#include "verilated.h"
#ifndef BOARD_ARTY
#include "sdram_model.h"
#endif

#if !defined(BOARD_CLK_HZ) || !defined(BOARD_BAUD) || !defined(BOARD_SIM_NAME)
#error "BOARD_CLK_HZ and BOARD_BAUD must match the model's ClkMhz and Baud; BOARD_SIM_NAME names the program"
#endif

namespace {

constexpr int kExitUsage = 2, kExitSdram = 3, kExitTimeout = 124;
volatile std::sig_atomic_t g_stop = 0;

[[noreturn]] void fail(const std::string &msg) {
  std::fprintf(stderr, "%s: %s\n", BOARD_SIM_NAME, msg.c_str());
  std::exit(kExitUsage);
}

uint64_t parse_count(const std::string &option, const char *text) {
  char *end = nullptr;
  const uint64_t n = std::strtoull(text, &end, 0);
  if (!*text || *end || *text == '-') fail(option + " takes a number, not '" + text + "'");
  return n;
}

#ifdef BOARD_ARTY
template <typename T, std::size_t N>
constexpr uint32_t cells(const VlUnpacked<T, N> &) {
  return uint32_t(N);
}

// The board's clocks, its UART pins and its button.
class Board {
 public:
  Board(Vboard *top, bool press_button, uint64_t dram_clock_stop)
      : top_(top), dram_clock_stop_(dram_clock_stop) {
    top_->uart_txd_in = 1;
    top_->btn0 = press_button;
    top_->clk = 0;
    top_->dram_clk = 0;
    top_->eval();
  }
  // One cycle of the SoC's clock, two of LiteDRAM's; false to stop.
  bool cycle(uint64_t cycle) {
    const bool dram_clock_runs = cycle < dram_clock_stop_;
    for (int phase = 0; phase < 4; phase++) {
      if (dram_clock_runs) top_->dram_clk = !(phase & 1);
      top_->clk = phase < 2;
      top_->eval();
    }
    return true;
  }
  uint8_t uart_tx() const { return top_->uart_rxd_out; }
  void uart_rx(uint8_t level) { top_->uart_txd_in = level; }

  // IMAGE's words in external memory, written into the DDR3 model's eight
  // banks where the controller will look for them: LiteDRAM's ROW_BANK_COL
  // mapping of the native port's 128-bit word w (bank w[9:7], row w[..:10],
  // columns 8 w[6:0]) and the model's cell index {row, column / 8}.
  void preload(const ElfImage &image) {
    auto *root = top_->rootp;
    decltype(root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem) *banks[] = {
        &root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem,   &root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem_1,
        &root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem_2, &root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem_3,
        &root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem_4, &root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem_5,
        &root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem_6, &root->arty_board__DOT__u_dram__DOT__u_core__DOT__mem_7};
    const uint32_t bank_words = cells(*banks[0]);
    image.each_word_in(EXT_BASE, ddr3_bytes(), [&](uint32_t addr, uint32_t value) {
      const uint32_t offset = addr - EXT_BASE, w = offset >> 4;
      const uint32_t cell = (w >> 10) << 7 | (w & 127u);
      if (cell < bank_words) (*banks[(w >> 7) & 7u])[cell][(offset >> 2) & 3u] = value;
    });
  }
  // What the model's banks hold: 8 of 128-bit cells.
  uint32_t ddr3_bytes() const {
    return uint32_t(8u * 16u * cells(top_->rootp->arty_board__DOT__u_dram__DOT__u_core__DOT__mem));
  }

 private:
  Vboard *top_;
  uint64_t dram_clock_stop_;
};
#else
constexpr uint32_t kSdramBytes = 32u << 20;

// The oscillator, the UART pins, the button and the SDRAM chip.
class Board {
 public:
  explicit Board(Vboard *top, bool press_button) : top_(top), sdram_(kSdramBytes, double(BOARD_CLK_HZ)) {
    top_->ftdi_txd = 1;
    top_->btn_fire1 = press_button;
    top_->sdram_d = 0;
    top_->clk_25mhz = 0;
    top_->eval();
  }
  // One clock cycle; false at a broken SDRAM rule.
  bool cycle(uint64_t cycle) {
    // The pins carry what the controller drives, else what the chip does.
    top_->sdram_d = uint16_t((top_->sdram_d_oe & top_->sdram_d_out) | (~top_->sdram_d_oe & sdram_.dq_for(cycle)));
    top_->clk_25mhz = 1;
    top_->eval();
    const SdramPins pins{bool(top_->sdram_cke), bool(top_->sdram_csn), bool(top_->sdram_rasn), bool(top_->sdram_casn),
                         bool(top_->sdram_wen),  top_->sdram_ba,         top_->sdram_a,           top_->sdram_dqm,
                         uint16_t(top_->sdram_d_out), top_->sdram_d_oe != 0};
    if (!sdram_.clock(cycle, pins)) {
      std::fprintf(stderr, "%s: %s\n", BOARD_SIM_NAME, sdram_.error().c_str());
      return false;
    }
    top_->clk_25mhz = 0;
    top_->eval();
    return true;
  }
  uint8_t uart_tx() const { return top_->ftdi_rxd; }
  void uart_rx(uint8_t level) { top_->ftdi_txd = level; }

 private:
  Vboard *top_;
  SdramModel sdram_;
};
#endif

}  // namespace

int main(int argc, char **argv) {
#ifdef BOARD_ARTY
#define BOARD_OPTIONS " [--stop-dram-clock-at N] [--preload-ext ELF]"
  uint64_t dram_clock_stop = UINT64_MAX;
  std::string preload;
#else
#define BOARD_OPTIONS ""
#endif
  bool pty = false, press_button = false;
  uint64_t max_cycles = 0;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--uart-pty") {
      pty = true;
    } else if (a == "--press-button") {
      press_button = true;
    } else if (a == "--max-cycles" && i + 1 < argc) {
      max_cycles = parse_count(a, argv[++i]);
#ifdef BOARD_ARTY
    } else if (a == "--stop-dram-clock-at" && i + 1 < argc) {
      dram_clock_stop = parse_count(a, argv[++i]);
    } else if (a == "--preload-ext" && i + 1 < argc) {
      preload = argv[++i];
#endif
    } else if (a.rfind("+verilator", 0) != 0) {
      fail("unknown option '" + a + "' (usage: " BOARD_SIM_NAME " [--uart-pty] [--press-button] [--max-cycles N]"
           BOARD_OPTIONS ")");
    }
  }

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vboard>(ctx.get());
  HostPort host;
  if (pty && !host.open_pty(BOARD_SIM_NAME)) fail("cannot create a pseudo-terminal");
  UartModel uart(BOARD_CLK_HZ / BOARD_BAUD);
#ifdef BOARD_ARTY
  Board board(top.get(), press_button, dram_clock_stop);
  if (!preload.empty()) {
    ElfImage image;
    std::string error;
    if (!image.load(preload, {{"external memory", EXT_BASE, board.ddr3_bytes()}, {"RAM", RAM_BASE, RAM_SIZE}},
                    &error))
      fail(error);
    board.preload(image);
  }
#else
  Board board(top.get(), press_button);
#endif

  std::signal(SIGTERM, [](int) { g_stop = 1; });
  const auto start = std::chrono::steady_clock::now();
  int status = kExitTimeout;
  uint64_t cycle = 0;
  for (; !max_cycles || cycle < max_cycles; cycle++) {
    if (g_stop) {
      status = 0;
      break;
    }
    if (!board.cycle(cycle)) {
      status = kExitSdram;
      break;
    }
    bool got;
    uint8_t byte;
    board.uart_rx(uart.tick(board.uart_tx(), true, &got, &byte));
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
