#include "check.h"

#define MAX_TESTS 256

static struct {
	const char *name;
	check_fn fn;
} g_tests[MAX_TESTS];
static int g_n;
int check_failed, check_skipped;

void check_register(const char *name, check_fn fn)
{
	if (g_n < MAX_TESTS)
		g_tests[g_n++] = (typeof(g_tests[0])){name, fn};
}

void check_fail(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s:%d: FAILED %s\n", file, line, msg);
	check_failed = 1;
}

int main(int argc, char **argv)
{
	int ran = 0, failed = 0, skipped = 0;
	for (int i = 0; i < g_n; i++) {
		if (argc > 1 && strcmp(argv[1], g_tests[i].name) != 0)
			continue;
		check_failed = check_skipped = 0;
		g_tests[i].fn();
		ran++;
		failed += check_failed;
		skipped += check_skipped && !check_failed;
		printf("%s %s\n", check_failed ? "FAIL" : check_skipped ? "skip" : "ok  ",
		       g_tests[i].name);
	}
	if (argc > 1 && ran == 0) {
		fprintf(stderr, "no test named %s\n", argv[1]);
		return 2;
	}
	printf("%d/%d passed%s\n", ran - failed - skipped, ran, skipped ? " (some skipped)" : "");
	/* 77: ctest's skip status (SKIP_RETURN_CODE), when every case run skipped. */
	return failed ? 1 : skipped && skipped == ran ? 77 : 0;
}
