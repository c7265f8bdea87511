/* The interactive UART console: prompt, line editing, dispatch to a table
   of commands. Demos add their own commands to the table. */
#ifndef CONSOLE_CONSOLE_H
#define CONSOLE_CONSOLE_H

#include "cmd_parse.h"

#define CONSOLE_LINE_MAX 160
#define CONSOLE_PROMPT "> "

/* Executes one line against TABLE: prints an error for an unknown command
   or too many words. Returns the command's result (0 for an empty line). */
int console_execute(const cmd_t *table, char *line);

/* Prints the commands of TABLE with their usage and help. */
void console_print_help(const cmd_t *table);

/* Reads and executes lines forever (a command may end the program). */
void console_run(const cmd_t *table) __attribute__((noreturn));

/* Commands every console has: "help" lists the table console_run was given;
   "exit [0..255]" ends the program (in simulation, with that exit code). */
int console_cmd_help(int argc, char **argv);
int console_cmd_exit(int argc, char **argv);
/* console_sys.c: "info" (the CPU, clock, memories, UART, platform) and
   "counters" (cycle, instret, time, CPI since the last call). */
int console_cmd_info(int argc, char **argv);
int console_cmd_counters(int argc, char **argv);

/* Their entries, for a demo's table: help first, the others last. */
#define CONSOLE_CMD_HELP {"help", "", "this list", console_cmd_help}
#define CONSOLE_CMDS_SYSTEM                                                               \
  {"info", "", "system information", console_cmd_info},                                   \
      {"counters", "", "cycle/instret/time and CPI since last call", console_cmd_counters}, \
      {"exit", "[code]", "end the program (simulation: exit code)", console_cmd_exit}

#endif
