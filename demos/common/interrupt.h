/* Ctrl-C and SIGTERM for the demo programs: the first one only sets a
 * flag the frame loop reads, so the run finishes its frame, prints its
 * table and writes every file; a second one ends the process at once, as
 * the default action would. A repeat of the first signal within a second
 * from the same sending process, or from the parent process, is the same
 * request, not a second one: GNU timeout (`timeout -s INT 10 srcprof-demo
 * ...`) signals its child and then the child's process group, which
 * delivers the signal twice, and relays a Ctrl-C typed in its terminal
 * after the terminal delivered it. A second Ctrl-C typed (the terminal's,
 * sender 0) always counts. */
#ifndef DEMOS_INTERRUPT_H
#define DEMOS_INTERRUPT_H

/* Installs the handlers for SIGINT and SIGTERM; `prog` starts the line a
 * second signal prints ("srcprof-demo: interrupted again: ..."). */
void interrupt_install(const char *prog);
/* The first signal received (SIGINT, SIGTERM), or 0. */
int interrupt_signal(void);
/* "SIGINT", "SIGTERM", "signal N". */
const char *interrupt_name(int sig);

#endif
