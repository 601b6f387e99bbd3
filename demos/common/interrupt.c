#include "interrupt.h"
#include "out_file.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Signals received: an atomic counter, because two can be handled at once
 * on two threads (a driver's and the graphics thread), and exactly one of
 * them must be the first. Lock-free atomics are safe in a handler. */
static atomic_int g_received;
static volatile sig_atomic_t g_signal;
/* The first signal, its sender (si_pid of a kill; 0 from the terminal)
 * and when it came; g_first_ready once all three are stored. */
static atomic_int g_first_sig;
static _Atomic long g_first_pid;
static _Atomic int64_t g_first_ns;
static atomic_bool g_first_ready;
static char g_again[96];
static size_t g_again_len;

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the handler needs a lock-free counter");
_Static_assert(ATOMIC_LONG_LOCK_FREE == 2 && ATOMIC_LLONG_LOCK_FREE == 2,
	       "the handler needs lock-free atomics");

#define SAME_REQUEST_NS 1000000000LL

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Whether a signal comes from a process (kill, timeout), not the
 * terminal or the kernel. */
static bool sent(const siginfo_t *info)
{
	return info && (info->si_code == SI_USER || info->si_code == SI_QUEUE) && info->si_pid > 0;
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	long pid = sent(info) ? (long)info->si_pid : 0;
	int64_t t = now_ns();
	if (atomic_fetch_add(&g_received, 1) == 0) {
		g_signal = sig;
		atomic_store(&g_first_sig, sig);
		atomic_store(&g_first_pid, pid);
		atomic_store(&g_first_ns, t);
		atomic_store(&g_first_ready, true); /* after the rest: seq_cst */
		return;
	}
	/* The first may be being handled on another thread: its sender is
	 * stored within a few instructions (on this thread the mask held
	 * this one back until the first returned). */
	while (!atomic_load(&g_first_ready))
		;
	/* The same request: the same signal within a second, from the first
	 * one's sender, or from the parent relaying it (timeout in a
	 * terminal: Ctrl-C reaches both, and timeout passes it on twice). */
	long first = atomic_load(&g_first_pid);
	if (pid && sig == atomic_load(&g_first_sig) && t - atomic_load(&g_first_ns) < SAME_REQUEST_NS &&
	    (pid == first || pid == (long)getppid())) {
		atomic_fetch_sub(&g_received, 1);
		return;
	}
	/* A second: what the default action does, now. Only
	 * async-signal-safe calls here. */
	ssize_t ignored = write(STDERR_FILENO, g_again, g_again_len);
	(void)ignored;
	out_remove_temporaries(); /* files being written beside their path */
	signal(sig, SIG_DFL);
	raise(sig);
}

void interrupt_install(const char *prog)
{
	int n = snprintf(g_again, sizeof g_again, "%s: interrupted again: stopping at once\n", prog);
	g_again_len = n > 0 && (size_t)n < sizeof g_again ? (size_t)n : 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	/* The driver's waits (fences, its threads' futexes) go on as if
	 * nothing happened; the frame loop polls the flag. */
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	/* On this thread, a second signal waits until the first's handler
	 * has returned. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int interrupt_signal(void)
{
	return g_signal;
}

const char *interrupt_name(int sig)
{
	static char buf[24];
	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	snprintf(buf, sizeof buf, "signal %d", sig);
	return buf;
}
