#include "interrupt.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* Signals received: an atomic counter, because two can be handled at once
 * on two threads (a driver's and the graphics thread), and exactly one of
 * them must be the first. Lock-free atomics are safe in a handler. */
static atomic_int g_received;
static volatile sig_atomic_t g_signal;

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the handler needs a lock-free counter");

static void on_signal(int sig)
{
	if (atomic_fetch_add(&g_received, 1) == 0) {
		g_signal = sig;
		return;
	}
	/* The second: what the default action does, now. Only
	 * async-signal-safe calls here. */
	static const char msg[] = "srcprof-demo: interrupted again: stopping at once\n";
	ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)ignored;
	signal(sig, SIG_DFL);
	raise(sig);
}

void interrupt_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int interrupt_signal(void)
{
	return g_signal;
}

const char *interrupt_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}
