// unicaim-sim: runs an RV32 ELF on the Verilated SoC.
//   unicaim-sim --elf FILE [--preload FILE] [--max-cycles N] [--trace FILE.fst] [--uart-pty]
//               [--profile FILE]
// The UART is connected to stdin/stdout, or to a pseudo-terminal whose path
// is printed so that a host program can talk to the SoC as to a board.
// While the core sleeps in wfi with only the UART able to wake it and both
// lines quiet, the harness waits for the host's input instead of simulating
// idle cycles (those cycles would only count how long the person typed);
// at the end of stdin it then ends the run, with status 0.
// Built with SIM_EXTERNAL_ARRAY, the UniCAIM block is a Verilated model of
// its own (ArrayModel) that is evaluated only in the cycles it can change.
// With SIM_SDRAM_BYTES the SDRAM pins drive a chip model (SdramModel) that
// checks the controller's timing: a broken rule ends the run with status 3
// and the rule's name. Built with SIM_EXTERNAL_MEMORY, the cache and
// controller driving those pins are a model of their own too (ExtMemory).
// Built with SIM_NATIVE_DRAM (a SoC with Litedram), the external memory is
// a functional DRAM on LiteDRAM's native port instead (NativeDram: larger
// than an SDR SDRAM chip); what the ELF places there is in it from the
// start, as after an upload.

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vsoc_top.h"
#include "soc_regs.h"
#include "Vsoc_top___024root.h"
#include "elf_image.h"
#include "host_port.h"
#include "pc_profile.h"
#include "sim_cli.h"
#include "sdram_model.h"
#include "uart_model.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#ifdef SIM_EXTERNAL_ARRAY
#include "array_model.h"
#endif
#ifdef SIM_EXTERNAL_MEMORY
#include "ext_memory.h"
#endif
#ifdef SIM_NATIVE_DRAM
#include "native_dram.h"
#endif

#ifndef SIM_RAM_BYTES
#error "SIM_RAM_BYTES must match the SoC's RamBytes parameter"
#endif

static ElfImage g_image, g_preload;

// Called by the memories' initial blocks (SIM_MEM_DPI) for every word: the
// program, over the preloaded image (what a bitstream would hold in RAM).
extern "C" unsigned int sim_mem_init(unsigned int addr) {
  unsigned int w = g_image.word(addr);
  return w ? w : g_preload.word(addr);
}

namespace {

constexpr uint32_t kRomBase = ROM_BASE, kRomBytes = SIM_ROM_BYTES;
constexpr uint32_t kRamBase = RAM_BASE, kRamBytes = SIM_RAM_BYTES;
constexpr int kExitSdram = 3;
constexpr unsigned kQuietCycles = 16;

[[noreturn]] void fail(const std::string &msg) { sim_fail("unicaim-sim", msg); }

void usage(FILE *f) {
  std::fprintf(f, "usage: unicaim-sim --elf FILE [--preload FILE] [--max-cycles N] [--trace FILE.fst] [--uart-pty]\n"
                  "                   [--profile FILE] [+checks]\n");
  program_options_usage(f, " (default: no limit)");
  std::fprintf(f,
               "  --trace FILE.fst  write an FST waveform\n"
               "  --profile FILE    write the cycles spent at each instruction address (tools/profile.py)\n"
               "  +checks           at the end, what each protocol checker saw (builds with --assert)\n");
}

struct Options : ProgramOptions {
  std::string trace, profile;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail("option " + a + " needs a value");
      return argv[++i];
    };
    if (parse_program_option("unicaim-sim", argc, argv, i, o)) {
      continue;
    } else if (a == "--trace") {
      o.trace = value();
    } else if (a == "--profile") {
      o.profile = value();
    } else if (a == "--help" || a == "-h") {
      usage(stdout);
      std::exit(0);
    } else if (a.rfind("+verilator", 0) == 0 || a == "+checks") {
      // Verilator's own runtime options pass through, and +checks to the
      // protocol checkers (rtl/check) of an asserting build.
    } else {
      fail("unknown option '" + a + "' (try --help)");
    }
  }
  if (o.elf.empty()) fail("no program given (--elf FILE)");
  return o;
}


// An FST waveform of MODEL (the SoC, or a model beside it) in PATH.
template <class Model>
std::unique_ptr<VerilatedFstC> open_trace(Model *model, const std::string &path) {
  auto trace = std::make_unique<VerilatedFstC>();
  model->trace(trace.get(), 99);
  trace->open(path.c_str());
  if (!trace->isOpen()) fail("cannot write trace '" + path + "'");
  return trace;
}

// The core sleeps in wfi, the timer cannot wake it and the UART has sent
// everything: only the host's next byte can change anything.
bool waits_for_uart(const Vsoc_top___024root *root) {
  return root->soc_top__DOT__u_core__DOT__ex_sleep && !root->soc_top__DOT__u_core__DOT__u_csr__DOT__mtie_q &&
         root->soc_top__DOT__u_uart__DOT__tx_idle;
}


}  // namespace

int main(int argc, char **argv) {
  Options opt = parse(argc, argv);

  std::string err;
  std::vector<MemRegion> regions = {{"ROM", kRomBase, kRomBytes}, {"RAM", kRamBase, kRamBytes}};
#if SIM_SDRAM_BYTES
  regions.push_back({"external memory", EXT_BASE, SIM_SDRAM_BYTES});
#endif
  if (!g_image.load(opt.elf, regions, &err)) fail(err);
  if (!opt.preload.empty() && !g_preload.load(opt.preload, regions, &err)) fail(err);

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vsoc_top>(ctx.get());

  std::unique_ptr<VerilatedFstC> trace;
  if (!opt.trace.empty()) {
    ctx->traceEverOn(true);
    trace = open_trace(top.get(), opt.trace);
  }
#ifdef SIM_EXTERNAL_ARRAY
  ArrayModel array(ctx.get(), trace != nullptr);
  std::unique_ptr<VerilatedFstC> array_trace;  // the block's signals, in FILE.array.fst
  if (trace) array_trace = open_trace(array.model(), opt.trace + ".array.fst");
#endif

  std::unique_ptr<PcProfile> profile;
  if (!opt.profile.empty()) {
    profile = std::make_unique<PcProfile>(kRomBase, kRomBytes, kRamBase, kRamBytes);
    if (!profile->write(opt.profile)) fail("cannot write profile '" + opt.profile + "'");  // now, not after the run
  }

#ifdef SIM_EXTERNAL_MEMORY
  ExtMemory memory(ctx.get(), trace != nullptr, SIM_SDRAM_BYTES);
  std::unique_ptr<VerilatedFstC> memory_trace;  // the cache's and controller's signals, in FILE.ext.fst
  if (trace) memory_trace = open_trace(memory.model(), opt.trace + ".ext.fst");
  Vext *const pins = memory.model();  // what drives the SDRAM pins
#else
  Vsoc_top *const pins = top.get();
#endif
#ifdef SIM_NATIVE_DRAM
  NativeDram dram(SIM_SDRAM_BYTES);
  for (const ElfImage *image : {&g_preload, &g_image})
    image->each_word_in(EXT_BASE, SIM_SDRAM_BYTES,
                        [&dram](uint32_t addr, uint32_t value) { dram.poke(addr - EXT_BASE, value); });
#elif SIM_SDRAM_BYTES
  SdramModel sdram(SIM_SDRAM_BYTES, SIM_CLK_HZ);
  // What the programs place in external memory is in the chip from the
  // start, as after an upload. The controller maps a word's offset w to
  // bank w[9:8], row w[..:10] and columns 2 w[7:0] (+1): the chip's cell
  // index (row, bank, column) is then the offset in halfwords.
  for (const ElfImage *image : {&g_preload, &g_image})
    image->each_word_in(EXT_BASE, SIM_SDRAM_BYTES, [&sdram](uint32_t addr, uint32_t value) {
      sdram.poke((addr - EXT_BASE) / 2, uint16_t(value));
      sdram.poke((addr - EXT_BASE) / 2 + 1, uint16_t(value >> 16));
    });
#endif

  HostPort host;
  if (opt.pty && !host.open_pty("unicaim-sim")) fail("cannot create a pseudo-terminal");
  UartModel uart(SIM_CLK_HZ / SIM_BAUD);

  top->boot_addr_i = g_image.entry();
  top->tohost_addr_i = g_image.symbol("tohost");
  top->uart_rx_i = 1;
  top->gpio_i = 0;
  pins->sdram_dq_i = 0;
  top->clk_i = 0;
  top->rst_ni = 0;
#ifdef SIM_NATIVE_DRAM
  top->dram_rst_ni = 0;
  top->dram_clk_i = 1;  // the port's side is reset by an edge of its clock too
#endif
  top->eval();
  top->clk_i = 1;
  top->eval();
  top->clk_i = 0;
  top->rst_ni = 1;
#ifdef SIM_NATIVE_DRAM
  top->dram_clk_i = 0;
  top->dram_rst_ni = 1;
#endif
  top->eval();
#ifdef SIM_EXTERNAL_ARRAY
  array.reset(false, false);
  array.reset(false, true);
  array.reset(true, false);
#endif
#ifdef SIM_EXTERNAL_MEMORY
  memory.reset(false, false);
  memory.reset(false, true);
  memory.reset(true, false);
  memory.request(top.get());
#endif

  auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  uint64_t cycle = 0;
  int exit_code = kExitTimeout;
  bool timed_out = false, sdram_broken = false;
  unsigned quiet_cycles = 0;
  // Up to 16 bytes from the host onto the line's queue.
  auto feed = [&] {
    uint8_t chunk[16];
    if (uart.queued() >= sizeof chunk) return;
    size_t n = host.poll_bytes(chunk, sizeof chunk - uart.queued());
    for (size_t i = 0; i < n; i++) uart.send(chunk[i]);
  };
  for (;;) {
#ifdef SIM_EXTERNAL_ARRAY
    array.rise(top.get());
#endif
#ifdef SIM_NATIVE_DRAM
    // The port's answer for this edge, and the SoC's request as its registers show it.
    pack_native_rsp(dram.response(), top->dram_native_i.data(), &top->dram_wb_i);
    const NativeReq dram_req = unpack_native_req(top->dram_native_o.data(), top->dram_wb_o.data());
    top->dram_clk_i = 1;
#elif SIM_SDRAM_BYTES
    const bool sdram_idle = sdram.idle(cycle);
    if (!sdram_idle) pins->sdram_dq_i = sdram.dq_for(cycle);
#endif
#ifdef SIM_EXTERNAL_MEMORY
    const bool pins_moved = memory.rise(top.get());  // not evaluated: the pins are as they were
#else
    const bool pins_moved = true;
#endif
    top->clk_i = 1;
    top->eval();
#ifdef SIM_NATIVE_DRAM
    dram.clock(cycle, dram_req);
#elif SIM_SDRAM_BYTES
    // Most cycles the controller sends no command (a NOP, or CS high) and
    // holds CKE high: the chip model has nothing to do, and the pins are
    // read only when they moved or the chip is busy.
    if (pins_moved || !sdram_idle) {
      const SdramPins sdram_pins = SdramPins::from_port(pins->sdram_o);
      if ((!sdram_idle || !sdram_pins.idle()) && !sdram.clock(cycle, sdram_pins)) {
        sdram_broken = true;
        exit_code = kExitSdram;
        break;
      }
    }
#endif
#ifdef SIM_EXTERNAL_ARRAY
    if (array_trace) array_trace->dump(2 * cycle + 1);
#endif
#ifdef SIM_EXTERNAL_MEMORY
    memory.request(top.get());
    if (memory_trace) memory_trace->dump(2 * cycle + 1);
#endif
    if (trace) trace->dump(2 * cycle + 1);
    top->clk_i = 0;
#ifdef SIM_NATIVE_DRAM
    top->dram_clk_i = 0;
#endif
    if (trace) {
      top->eval();
      trace->dump(2 * cycle + 2);
    } else {
      // Nothing in the SoC acts on the falling edge, so instead of evaluating
      // the model again (its input logic would run a second time) its edge
      // detector -- Verilator 5's trigger state -- is told the clock is low.
      top->rootp->__Vtrigrprev__TOP__clk_i = 0;
#ifdef SIM_NATIVE_DRAM
      top->rootp->__Vtrigrprev__TOP__dram_clk_i = 0;
#endif
    }
    if (profile) profile->charge(top->rootp->soc_top__DOT__u_core__DOT__ex_pc_q);
    cycle++;

    bool got;
    uint8_t byte;
    top->uart_rx_i = uart.tick(top->uart_tx_o, !top->uart_rts_no, &got, &byte);
    if (got) host.put(byte);
    // The host's bytes go onto the line back to back, as from a real adapter,
    // paced by the SoC's RTS: what it cannot take yet waits in the host's pipe.
    if ((cycle & 1023) == 0) feed();
    if (top->exit_valid_o) {
      exit_code = int(top->exit_code_o);
      break;
    }
    if (opt.max_cycles && cycle >= opt.max_cycles) {
      timed_out = true;
      break;
    }
    // Quiet for a few cycles: a store in flight (an exit) lands first.
    quiet_cycles = waits_for_uart(top->rootp) && uart.idle() ? quiet_cycles + 1 : 0;
    if (quiet_cycles >= kQuietCycles) {
      if (!host.await_input("unicaim-sim")) {
        exit_code = 0;
        break;
      }
      feed();
    }

  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double cpu = cpu_seconds() - cpu_start;
  if (trace) trace->close();
#ifdef SIM_EXTERNAL_ARRAY
  if (array_trace) array_trace->close();
  array.final();
#endif
#ifdef SIM_EXTERNAL_MEMORY
  if (memory_trace) memory_trace->close();
  memory.final();
#endif
  if (profile && !profile->write(opt.profile)) fail("cannot write profile '" + opt.profile + "'");
  uint64_t instret = top->rootp->soc_top__DOT__u_core__DOT__u_csr__DOT__minstret_q;
  top->final();
  host.drain();

#if SIM_SDRAM_BYTES && !defined(SIM_NATIVE_DRAM)
  if (sdram_broken) std::fprintf(stderr, "unicaim-sim: %s\n", sdram.error().c_str());
#endif
  if (timed_out) {
    std::fprintf(stderr, "unicaim-sim: program did not finish within --max-cycles %" PRIu64 "\n",
                 opt.max_cycles);
  }
  return sim_finish(cycle, instret, wall, cpu, exit_code);
}
