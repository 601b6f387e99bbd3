/* Ctrl-C and SIGTERM end a demo run as Esc does: the first one only sets
 * a flag the frame loop reads, so the run finishes its frame, prints the
 * table and writes every file; a second one ends the process at once, as
 * the default action would. */
#ifndef DEMOS_INTERRUPT_H
#define DEMOS_INTERRUPT_H

/* Installs the handlers for SIGINT and SIGTERM. */
void interrupt_install(void);
/* The first signal received (SIGINT, SIGTERM), or 0. */
int interrupt_signal(void);
/* "SIGINT", "SIGTERM". */
const char *interrupt_name(int sig);

#endif
