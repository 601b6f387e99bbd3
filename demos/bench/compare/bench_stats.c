#include "bench_stats.h"
#include "srcprof_base/student_t.h"

#include <assert.h>
#include <math.h>

/* The number of arrangements of n base and m new values giving each U is
 * the coefficient of q^U in the Gaussian binomial [n+m choose n]_q, the
 * product over i = 1..n of (1 - q^(m+i)) / (1 - q^i). Each step stays a
 * polynomial of degree i*m with whole coefficients of at most
 * C(n+m, n) < 2^53: exact in doubles. */
void bstat_mw_exact_cdf(uint32_t n, uint32_t m, double *cdf)
{
	assert(n >= 1 && m >= 1 && n <= BSTAT_EXACT_MAX && m <= BSTAT_EXACT_MAX);
	uint32_t top = n * m;
	for (uint32_t d = 0; d <= top; d++)
		cdf[d] = d == 0;
	for (uint32_t i = 1; i <= n; i++) {
		uint32_t deg = i * m; /* the degree after this step */
		/* Times (1 - q^(m+i)), from the top down so that each term
		 * reads the old coefficient below it. */
		for (uint32_t d = deg; d >= m + i && d <= deg; d--)
			cdf[d] -= cdf[d - (m + i)];
		/* Over (1 - q^i): the series sum_k q^(i*k), truncated at the
		 * known degree, where it ends exactly. */
		for (uint32_t d = i; d <= deg; d++)
			cdf[d] += cdf[d - i];
	}
	double total = 0;
	for (uint32_t d = 0; d <= top; d++)
		total += cdf[d];
	double run = 0;
	for (uint32_t d = 0; d <= top; d++) {
		run += cdf[d];
		cdf[d] = run / total;
	}
}

static bool has_ties(const double *base, uint32_t n, const double *nw, uint32_t m)
{
	/* Both sorted: a tie is two equal neighbours within one, or a value
	 * of one found in the other (a merge). */
	for (uint32_t i = 1; i < n; i++)
		if (base[i] == base[i - 1])
			return true;
	for (uint32_t j = 1; j < m; j++)
		if (nw[j] == nw[j - 1])
			return true;
	for (uint32_t i = 0, j = 0; i < n && j < m;) {
		if (base[i] == nw[j])
			return true;
		if (base[i] < nw[j])
			i++;
		else
			j++;
	}
	return false;
}

void bstat_mann_whitney(const double *base, uint32_t n, const double *nw, uint32_t m,
			bstat_test *out)
{
	assert(n >= 1 && m >= 1);
	/* U and the tie groups, merging the two sorted samples: a run of
	 * equal values holding a from base and b from new gives the new ones
	 * (base values below the run) + a / 2 each. */
	double u = 0, ties = 0;
	uint32_t i = 0, j = 0;
	while (i < n || j < m) {
		double v = i < n && (j >= m || base[i] <= nw[j]) ? base[i] : nw[j];
		uint32_t a = 0, b = 0;
		while (i < n && base[i] == v)
			i++, a++;
		while (j < m && nw[j] == v)
			j++, b++;
		u += (double)b * ((double)(i - a) + a / 2.0);
		double t = a + b;
		ties += t * t * t - t;
	}
	*out = (bstat_test){.u = u};
	double nm = (double)n * m;
	if (n <= BSTAT_EXACT_MAX && m <= BSTAT_EXACT_MAX && !has_ties(base, n, nw, m)) {
		double cdf[BSTAT_EXACT_MAX * BSTAT_EXACT_MAX + 1];
		bstat_mw_exact_cdf(n, m, cdf);
		uint32_t k = (uint32_t)u, top = n * m;
		/* P(U >= k) = P(U <= nm - k): the distribution is symmetric. */
		out->p_less = cdf[k];
		out->p_greater = cdf[top - k];
		double p = 2 * (out->p_less < out->p_greater ? out->p_less : out->p_greater);
		out->p = p < 1 ? p : 1;
		out->exact = true;
		return;
	}
	double big_n = (double)n + m;
	double var = nm / 12.0 * ((big_n + 1) - ties / (big_n * (big_n - 1)));
	if (var <= 0) { /* every value equal */
		out->p = out->p_greater = out->p_less = 1;
		return;
	}
	double dev = fabs(u - nm / 2) - 0.5, sd = sqrt(var);
	out->z = (dev > 0 ? dev : 0) / sd;
	out->p = erfc(out->z / sqrt(2.0));
	/* Each tail with its own continuity correction. */
	out->p_greater = 0.5 * erfc((u - nm / 2 - 0.5) / sd / sqrt(2.0));
	out->p_less = 0.5 * erfc((nm / 2 - u - 0.5) / sd / sqrt(2.0));
}

/* How many differences new_j - base_i are <= t: for each new value (in
 * ascending order) the base values at or above new_j - t, a suffix whose
 * start only moves right. */
static uint64_t count_at_most(const double *base, uint32_t n, const double *nw, uint32_t m,
			      double t)
{
	uint64_t count = 0;
	uint32_t i = 0;
	for (uint32_t j = 0; j < m; j++) {
		while (i < n && nw[j] - base[i] > t)
			i++;
		count += n - i;
	}
	return count;
}

/* Bisection on the value: count_at_most(lo) < k <= count_at_most(hi)
 * throughout, until no double lies between lo and hi; hi is then the k-th
 * difference itself (every difference is a double, computed as here). */
double bstat_kth_difference(const double *base, uint32_t n, const double *nw, uint32_t m,
			    uint64_t k)
{
	assert(k >= 1 && k <= (uint64_t)n * m);
	double lo = nextafter(nw[0] - base[n - 1], -INFINITY), hi = nw[m - 1] - base[0];
	for (;;) {
		double mid = lo / 2 + hi / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (count_at_most(base, n, nw, m, mid) >= k)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* The standard normal quantile for a probability above 1/2, by bisection
 * on erfc (plenty fast for one call per figure). */
static double normal_quantile(double prob)
{
	double lo = 0, hi = 40;
	for (int it = 0; it < 200; it++) {
		double mid = (lo + hi) / 2;
		if (1 - 0.5 * erfc(mid / sqrt(2.0)) < prob)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void bstat_shift_of(const double *base, uint32_t n, const double *nw, uint32_t m, double level,
		    bstat_shift *out)
{
	assert(n >= 1 && m >= 1 && level > 0 && level < 1);
	uint64_t nm = (uint64_t)n * m;
	double est = bstat_kth_difference(base, n, nw, m, (nm + 1) / 2);
	if (nm % 2 == 0)
		est = (est + bstat_kth_difference(base, n, nw, m, nm / 2 + 1)) / 2;
	*out = (bstat_shift){.est = est, .lo = -INFINITY, .hi = INFINITY};
	/* The interval [D(c), D(nm + 1 - c)] holds the shifts the two-sided
	 * test would not reject at 1 - level: c - 1 is the largest U whose
	 * lower tail stays within (1 - level) / 2. */
	double tail = (1 - level) / 2;
	int64_t c;
	if (n <= BSTAT_EXACT_MAX && m <= BSTAT_EXACT_MAX) {
		double cdf[BSTAT_EXACT_MAX * BSTAT_EXACT_MAX + 1];
		bstat_mw_exact_cdf(n, m, cdf);
		c = 0;
		while ((uint64_t)c <= nm && cdf[c] <= tail)
			c++;
	} else {
		double sd = sqrt((double)nm * ((double)n + m + 1) / 12.0);
		c = (int64_t)floor((double)nm / 2 - normal_quantile(1 - tail) * sd + 0.5);
	}
	if (c < 1 || (uint64_t)c > (nm + 1) / 2)
		return;
	out->lo = bstat_kth_difference(base, n, nw, m, (uint64_t)c);
	out->hi = bstat_kth_difference(base, n, nw, m, nm + 1 - (uint64_t)c);
	out->bounded = true;
}

static void mean_var(const double *v, uint32_t n, double *mean, double *var)
{
	double s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	double q = 0;
	for (uint32_t i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*var = q / (n - 1);
}

void bstat_welch(const double *base, uint32_t n, const double *nw, uint32_t m, double level,
		 bstat_welch_t *out)
{
	assert(n >= 2 && m >= 2);
	double ma, va, mb, vb;
	mean_var(base, n, &ma, &va);
	mean_var(nw, m, &mb, &vb);
	double ea = va / n, eb = vb / m;
	*out = (bstat_welch_t){.diff = mb - ma, .se = sqrt(ea + eb)};
	/* Welch-Satterthwaite; with no spread on either side, the smallest
	 * df the runs allow (it only widens an interval of zero width). */
	double den = (ea > 0 ? ea * ea / (n - 1) : 0) + (eb > 0 ? eb * eb / (m - 1) : 0);
	out->df = den > 0 ? (ea + eb) * (ea + eb) / den : (double)(n < m ? n : m) - 1;
	if (out->se > 0) {
		out->t = out->diff / out->se;
		out->p_greater = 1 - student_t_cdf(out->t, out->df);
		out->p_less = student_t_cdf(out->t, out->df);
	} else {
		out->t = out->diff > 0 ? INFINITY : out->diff < 0 ? -INFINITY : 0;
		out->p_greater = out->diff > 0 ? 0 : out->diff < 0 ? 1 : 0.5;
		out->p_less = 1 - out->p_greater;
	}
	out->p = fmin(1, 2 * fmin(out->p_greater, out->p_less));
	double half = student_t_quantile(1 - (1 - level) / 2, out->df) * out->se;
	out->lo = out->diff - half;
	out->hi = out->diff + half;
}
