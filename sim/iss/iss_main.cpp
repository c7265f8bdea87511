// unicaim-iss: the functional simulator. Runs an RV32 ELF on the hart of
// rv_hart.c and the SoC of iss_soc.c (the array block is its golden
// model): the same firmware as on the Verilated SoC and the boards, at
// tens of millions of instructions a second instead of a few million
// cycles. Cycles here are instructions (and the cycles asleep in wfi):
// not the RTL's timing (docs/soc/simulator.md).
//   unicaim-iss --elf FILE [--preload FILE] [--max-cycles N] [--uart-pty] [--profile FILE]
// Options, UART and the closing SIM line as unicaim-sim's, so uartctl and
// the tests drive either.

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "elf_image.h"
#include "host_port.h"
#include "pc_profile.h"
#include "sim_cli.h"

extern "C" {
#include "iss_soc.h"
#include "rv_hart.h"
#include "ucm_arrays.h"
}

namespace {

constexpr uint64_t kSliceCycles = 4096;  // between looks at the host's input

[[noreturn]] void fail(const std::string &msg) { sim_fail("unicaim-iss", msg); }

struct IssOptions {
  ProgramOptions program;
  std::string profile;
};

IssOptions parse(int argc, char **argv) {
  IssOptions o;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (parse_program_option("unicaim-iss", argc, argv, i, o.program)) continue;
    if (a == "--profile") {
      if (i + 1 >= argc) fail("option --profile needs a value");
      o.profile = argv[++i];
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: unicaim-iss --elf FILE [--preload FILE] [--max-cycles N] [--uart-pty] [--profile FILE]\n");
      program_options_usage(stdout, " (one an instruction)");
      std::printf("  --profile FILE    write the instructions executed at each address (tools/profile.py)\n");
      std::exit(0);
    } else {
      fail("unknown option '" + a + "' (try --help)");
    }
  }
  if (o.program.elf.empty()) fail("no program given (--elf FILE)");
  return o;
}

}  // namespace

int main(int argc, char **argv) {
  const IssOptions iss_opt = parse(argc, argv);
  const ProgramOptions &opt = iss_opt.program;
#ifdef ISS_ARRAY
  static const ucm_geom_t array = ISS_ARRAY;
  const ucm_geom_t *geom = &array;
#else
  const ucm_geom_t *geom = nullptr;
#endif
  const std::vector<MemRegion> regions = {
      {"ROM", ROM_BASE, ISS_ROM_BYTES}, {"RAM", RAM_BASE, ISS_RAM_BYTES}, {"external memory", EXT_BASE, ISS_EXT_BYTES}};
  ElfImage image, preload;
  std::string err;
  if (!image.load(opt.elf, regions, &err)) fail(err);
  if (!opt.preload.empty() && !preload.load(opt.preload, regions, &err)) fail(err);

  const iss_config_t cfg = {ISS_CLK_HZ, ISS_BAUD, ISS_ROM_BYTES, ISS_RAM_BYTES, ISS_EXT_BYTES, geom,
                            image.symbol("tohost")};
  static iss_soc_t soc;
  char why[160];
  if (iss_soc_init(&soc, &cfg, why, sizeof why)) fail(why);
  for (const ElfImage *e : {&preload, &image})
    for (const MemRegion &r : regions)
      e->each_word_in(r.base, r.size, [](uint32_t addr, uint32_t word) {
        for (unsigned i = 0; i < 4; i++) iss_soc_poke(&soc, addr + i, uint8_t(word >> (8 * i)));
      });

  HostPort host;
  if (opt.pty && !host.open_pty("unicaim-iss")) fail("cannot create a pseudo-terminal");
  soc.uart_tx = [](void *ctx, uint8_t byte) { static_cast<HostPort *>(ctx)->put(byte); };
  soc.uart_ctx = &host;

  static rv_hart_t hart;
  rv_reset(&hart, image.entry());
  std::unique_ptr<PcProfile> profile;
  if (!iss_opt.profile.empty()) {
    profile = std::make_unique<PcProfile>(ROM_BASE, ISS_ROM_BYTES, RAM_BASE, ISS_RAM_BYTES);
    if (!profile->write(iss_opt.profile)) fail("cannot write profile '" + iss_opt.profile + "'");  // now, not after the run
    hart.profile = [](void *ctx, uint32_t pc) { static_cast<PcProfile *>(ctx)->charge(pc); };
    hart.profile_ctx = profile.get();
  }
  auto feed = [&] {
    uint8_t chunk[ISS_UART_FIFO];
    const unsigned room = iss_uart_room(&soc);
    if (!room) return;  // (a read of no bytes would look like the end of input)
    const size_t n = host.poll_bytes(chunk, room);
    for (size_t i = 0; i < n; i++) iss_uart_receive(&soc, chunk[i]);
  };

  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  int exit_code = kExitTimeout;
  bool timed_out = false;
  for (;;) {
    const uint64_t slice = opt.max_cycles ? std::min(kSliceCycles, opt.max_cycles - soc.cycle) : kSliceCycles;
    const rv_stop_t stop = rv_run(&hart, &soc, slice);
    if (stop == RV_EXIT) {
      exit_code = int(soc.exit_code);
      break;
    }
    if (opt.max_cycles && soc.cycle >= opt.max_cycles) {
      timed_out = true;
      break;
    }
    feed();
    if (stop == RV_SLEEPING && !iss_ext_irq(&soc)) {
      if (!host.await_input("unicaim-iss")) {
        exit_code = 0;
        break;
      }
      feed();
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpu_seconds() - cpu_start;
  host.drain();
  if (profile && !profile->write(iss_opt.profile)) fail("cannot write profile '" + iss_opt.profile + "'");
  if (timed_out)
    std::fprintf(stderr, "unicaim-iss: program did not finish within --max-cycles %" PRIu64 "\n", opt.max_cycles);
  iss_soc_free(&soc);
  return sim_finish(soc.cycle, hart.minstret, wall, cpu, exit_code);
}
