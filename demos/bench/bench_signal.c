/* SIGINT / SIGTERM during a bench: the first asks the run to stop at the
 * next frame, so that the points it finished are still written; the second
 * ends the process at once, by the signal's default action. The handler
 * stores the signal, counts, and resets the dispositions: all
 * async-signal-safe. Any thread may take a signal (the drivers run their
 * own), two at the same moment too: the count is a lock-free atomic. */
#include "bench.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a signal handler needs a lock-free counter");

static volatile sig_atomic_t stop_signal;
static atomic_int signals_seen;

static void restore_defaults(void)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
}

static void on_signal(int sig)
{
	if (atomic_fetch_add(&signals_seen, 1) > 0) {
		/* The second (perhaps on another thread while the first's
		 * handler runs): blocked here until this handler returns,
		 * then the default action ends the process. */
		restore_defaults();
		raise(sig);
		return;
	}
	stop_signal = sig;
	restore_defaults();
}

void bench_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	/* The driver's waits (fences, its threads' futexes) go on as if
	 * nothing happened; the frame loop polls the flag. */
	sa.sa_flags = SA_RESTART;
	/* On this thread, a second signal waits until the first's handler
	 * has restored the default action, which it then takes. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int bench_interrupted(void)
{
	return stop_signal;
}

const char *bench_signal_name(int sig)
{
	static char buf[24];
	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	snprintf(buf, sizeof buf, "signal %d", sig);
	return buf;
}
