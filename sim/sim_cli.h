// What the simulators' command lines share (unicaim-sim, unicaim-iss): the
// program options, CPU time, the closing SIM line and the exit status, so
// uartctl and the tests drive either the same way.
#ifndef SIM_SIM_CLI_H
#define SIM_SIM_CLI_H

#include <time.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>

constexpr int kExitUsage = 2, kExitTimeout = 124;

struct ProgramOptions {
  std::string elf, preload;
  uint64_t max_cycles = 0;
  bool pty = false;
};

// A bad command line or program: the message, and status 2.
[[noreturn]] inline void sim_fail(const char *tool, const std::string &msg) {
  std::fprintf(stderr, "%s: %s\n", tool, msg.c_str());
  std::exit(kExitUsage);
}

// The usage lines of the options ProgramOptions holds.
inline void program_options_usage(FILE *f, const char *cycles) {
  std::fprintf(f,
               "  --elf FILE        RV32 ELF to run (reset PC = entry point)\n"
               "  --preload FILE    another ELF placed in memory first (the RAM image of a bitstream)\n"
               "  --max-cycles N    stop with exit status %d after N cycles%s\n"
               "  --uart-pty        connect the UART to a new pseudo-terminal (path on stderr)\n",
               kExitTimeout, cycles);
}

// Takes ARGV[I] (and its value, advancing I) when it is one of
// ProgramOptions'; false for any other word.
inline bool parse_program_option(const char *tool, int argc, char **argv, int &i, ProgramOptions &o) {
  const std::string a = argv[i];
  auto value = [&]() -> std::string {
    if (i + 1 >= argc) sim_fail(tool, "option " + a + " needs a value");
    return argv[++i];
  };
  if (a == "--elf") {
    o.elf = value();
  } else if (a == "--preload") {
    o.preload = value();
  } else if (a == "--max-cycles") {
    const std::string v = value();
    char *end = nullptr;
    errno = 0;
    o.max_cycles = std::strtoull(v.c_str(), &end, 0);
    if (v.empty() || *end || v[0] == '-' || o.max_cycles == 0 || errno == ERANGE)
      sim_fail(tool, "bad --max-cycles '" + v + "' (1..2^64-1)");
  } else if (a == "--uart-pty") {
    o.pty = true;
  } else {
    return false;
  }
  return true;
}

// This process's CPU time (the simulators are single-threaded).
inline double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// The closing line on stderr, with speed in CPU time too (a shared
// machine's wall clock counts other jobs), and the process's exit status:
// the program's code, kept non-zero when only its low byte reaches the shell.
inline int sim_finish(uint64_t cycles, uint64_t instret, double wall, double cpu, int exit_code) {
  std::fprintf(stderr,
               "SIM cycles=%" PRIu64 " instret=%" PRIu64 " wall_s=%.3f hz=%.0f cpu_s=%.3f cycles_per_cpu_s=%.0f "
               "instret_per_cpu_s=%.0f exit=%d\n",
               cycles, instret, wall, wall > 0 ? double(cycles) / wall : 0.0, cpu,
               cpu > 0 ? double(cycles) / cpu : 0.0, cpu > 0 ? double(instret) / cpu : 0.0, exit_code);
  return exit_code == 0 ? 0 : ((exit_code & 0xff) ? (exit_code & 0xff) : 1);
}

#endif
