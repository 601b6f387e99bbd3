/* SIGINT / SIGTERM during a bench (interrupt.h): the first asks the run to
 * stop at the next frame, so that the points it finished are still
 * written; a second ends the process at once. */
#include "bench.h"
#include "interrupt.h"

void bench_signals_install(void)
{
	interrupt_install(BENCH_PROG);
}

int bench_interrupted(void)
{
	return interrupt_signal();
}

const char *bench_signal_name(int sig)
{
	return interrupt_name(sig);
}
