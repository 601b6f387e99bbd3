/* Must not compile: CHECK_EQ compares integers exactly, and a double
 * converted to one (0.9 -> 0) would pass where it should fail.
 * tests/check_refused.cmake expects one refusal per CHECK_EQ line. */
#include "check.h"

TEST(a_double_against_an_integer)
{
	double fps = 0.9;
	CHECK_EQ(fps, 0);
}

TEST(a_float_on_the_right)
{
	float scale = 0.5f;
	CHECK_EQ(0, scale);
}

TEST(integer_arithmetic_made_floating)
{
	uint64_t frames = 3;
	CHECK_EQ(frames / 2.0, 1);
}
