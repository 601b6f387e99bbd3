/* The test harness itself: each check fails where its comparison is
 * false, and only there (a check that cannot fail pins nothing). */
#include "check.h"

/* A probe is one check in a function of its own (a failing check returns
 * from the function it is in). */
#define PROBE(name, stmt)                                                             \
	static void name(void)                                                        \
	{                                                                             \
		stmt;                                                                 \
	}

/* Whether the probe's check failed; the asking case stays unfailed. */
static bool fails(void (*probe)(void))
{
	int was = check_failed;
	check_failed = 0;
	probe();
	bool failed = check_failed != 0;
	check_failed = was;
	return failed;
}

PROBE(eq_3_4, CHECK_EQ(3, 4))
PROBE(eq_4_4, CHECK_EQ(4, 4))
PROBE(eq_max_0, CHECK_EQ(UINT64_MAX, 0))

TEST(check_eq_fails_on_different_integers_only)
{
	CHECK(fails(eq_3_4));
	CHECK(!fails(eq_4_4));
	CHECK(fails(eq_max_0));
}

static double fps = 0.9; /* what CHECK_EQ(fps, 0) once let pass: 0.9 cast to 0 */
PROBE(near_fps_0, CHECK_NEAR(fps, 0, 1e-9))
PROBE(near_fps_1, CHECK_NEAR(fps, 1, 0.05))
PROBE(near_fps_exact, CHECK_NEAR(fps, 0.9, 0))
PROBE(near_third, CHECK_NEAR(1e9 / 3.0, 333333333.333, 1e-3))

TEST(check_near_fails_outside_its_tolerance)
{
	CHECK(fails(near_fps_0));
	CHECK(fails(near_fps_1));
	CHECK(!fails(near_fps_exact));
	CHECK(!fails(near_third));
}

PROBE(near_nan_left, CHECK_NEAR(NAN, 0, 1e300))
PROBE(near_nan_right, CHECK_NEAR(0, NAN, 1))

TEST(check_near_fails_on_nan)
{
	CHECK(fails(near_nan_left));
	CHECK(fails(near_nan_right));
}
