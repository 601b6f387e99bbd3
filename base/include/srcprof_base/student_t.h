/* Student's t distribution, one implementation for the house: the bench's
 * compare (Welch's test and its intervals) and the profiler's 95%
 * intervals of a mean. */
#ifndef SRCPROF_BASE_STUDENT_T_H
#define SRCPROF_BASE_STUDENT_T_H

#include <stdint.h>

/* P(T <= t) with df > 0 degrees of freedom (the regularized incomplete
 * beta function); +-inf give 1 and 0. Needs libm. */
double student_t_cdf(double t, double df);

/* The q-quantile (0 < q < 1) with df > 0 degrees of freedom, by bisection
 * on student_t_cdf. Needs libm. */
double student_t_quantile(double q, double df);

/* The 97.5% quantile for df = n - 1 >= 1 degrees of freedom (the 95%
 * two-sided interval of a mean of n samples) as the profiler computes it:
 * tabled to df 30 (three decimals), 1.96 + 2.5 / df beyond, within 0.002
 * of student_t_quantile(0.975, df) at every df. 0 for n < 2. Needs no libm
 * (its own file), so that libsrcprof can take it alone. */
double student_t975(uint32_t n);

#endif
