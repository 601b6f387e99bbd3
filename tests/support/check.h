/* A minimal test harness: TEST(name) registers a case; CHECK* report the
 * file, line, expression and values and end the case. Each executable runs
 * every case, or only the one named on its command line (ctest registers
 * one test per case). */
#ifndef SRCPROF_CHECK_H
#define SRCPROF_CHECK_H

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*check_fn)(void);
void check_register(const char *name, check_fn fn);
void check_fail(const char *file, int line, const char *msg);
extern int check_failed, check_skipped;

/* Ends the case as skipped, saying why (a truth test on a busy machine). */
#define CHECK_SKIP(...)                                                               \
	do {                                                                          \
		printf("skipped: ");                                                  \
		printf(__VA_ARGS__);                                                  \
		printf("\n");                                                         \
		check_skipped = 1;                                                    \
		return;                                                               \
	} while (0)

#define TEST(name)                                                                    \
	static void name(void);                                                       \
	__attribute__((constructor)) static void check_reg_##name(void)               \
	{                                                                             \
		check_register(#name, name);                                          \
	}                                                                             \
	static void name(void)

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			check_fail(__FILE__, __LINE__, "CHECK(" #cond ")");           \
			return;                                                       \
		}                                                                     \
	} while (0)

/* 1 for a floating-point expression (not evaluated). */
#define CHECK_IS_FLOATING_(x) _Generic((x), float: 1, double: 1, long double: 1, default: 0)

/* Integers (and pointers, enums, bools), compared exactly as uint64_t.
 * Floating point does not compile: converted to an integer, 0.9 would
 * equal 0. Use CHECK_NEAR with the tolerance the computation allows. */
#define CHECK_EQ(a, b)                                                                \
	do {                                                                          \
		_Static_assert(!CHECK_IS_FLOATING_(a) && !CHECK_IS_FLOATING_(b),      \
			       "CHECK_EQ compares integers: use CHECK_NEAR(a, b, tol) " \
			       "for floating point");                                 \
		uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);          \
		if (check_a_ != check_b_) {                                           \
			char check_m_[512];                                           \
			snprintf(check_m_, sizeof check_m_,                           \
				 "%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, check_a_,   \
				 check_b_);                                           \
			check_fail(__FILE__, __LINE__, check_m_);                     \
			return;                                                       \
		}                                                                     \
	} while (0)

/* |a - b| <= tol in double; NaN on either side fails. */
#define CHECK_NEAR(a, b, tol)                                                         \
	do {                                                                          \
		double check_a_ = (double)(a), check_b_ = (double)(b);                \
		if (!(fabs(check_a_ - check_b_) <= (tol))) {                          \
			char check_m_[512];                                           \
			snprintf(check_m_, sizeof check_m_, "%s ~ %s: %.9g vs %.9g (tol %g)", \
				 #a, #b, check_a_, check_b_, (double)(tol));          \
			check_fail(__FILE__, __LINE__, check_m_);                     \
			return;                                                       \
		}                                                                     \
	} while (0)

#define CHECK_STR(a, b)                                                               \
	do {                                                                          \
		const char *check_a_ = (a), *check_b_ = (b);                          \
		if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {      \
			char check_m_[512];                                           \
			snprintf(check_m_, sizeof check_m_, "%s == %s: \"%s\" != \"%s\"", #a, \
				 #b, check_a_ ? check_a_ : "(null)",                  \
				 check_b_ ? check_b_ : "(null)");                     \
			check_fail(__FILE__, __LINE__, check_m_);                     \
			return;                                                       \
		}                                                                     \
	} while (0)

#endif
