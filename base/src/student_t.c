#include "srcprof_base/student_t.h"

#include <math.h>

/* The regularized incomplete beta function I_x(a, b) by its continued
 * fraction (modified Lentz), from whichever end converges fast. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double h = d;
	for (int k = 1; k <= 300; k++) {
		double m2 = 2.0 * k;
		double num = k * (b - k) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + k) * (a + b + k) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		double step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return h;
}

static double inc_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double student_t_cdf(double t, double df)
{
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2). */
	double tail = 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double student_t_quantile(double q, double df)
{
	/* Bisection on the CDF, which is monotonic: 200 halvings of
	 * [-1e6, 1e6] are far below a double's resolution of the answer. */
	double lo = -1e6, hi = 1e6;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (student_t_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
