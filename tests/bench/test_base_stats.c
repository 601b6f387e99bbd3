/* base/ (srcprof_base), the leaf the whole house shares, with exact
 * numbers: the profiler's 97.5% t quantile against its formula and against
 * the distribution, the selection median against sorting, CSV fields, and
 * the streaming JSON writer's separators and line breaks. */
#include "check.h"
#include "srcprof_base/csv.h"
#include "srcprof_base/json.h"
#include "srcprof_base/stats.h"
#include "srcprof_base/student_t.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* profiler/src/results.c's t975 as it was written there, the reference
 * student_t975 must equal at every df. */
static double reference_t975(uint32_t n)
{
	static const double table[31] = {
		0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
		2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	uint32_t df = n - 1;
	return df <= 30 ? table[df] : 1.96 + 2.5 / df;
}

TEST(t975_equals_the_profilers_for_df_1_to_200)
{
	for (uint32_t df = 1; df <= 200; df++)
		CHECK(student_t975(df + 1) == reference_t975(df + 1));
	CHECK_NEAR(student_t975(1), 0, 0);
	CHECK_NEAR(student_t975(0), 0, 0);
}

/* The table's three decimals and 1.96 + 2.5 / df beyond it stay within
 * 0.002 of the distribution's own 97.5% point. */
TEST(t975_is_within_0_002_of_the_t_quantile)
{
	for (uint32_t df = 1; df <= 200; df++)
		CHECK_NEAR(student_t975(df + 1), student_t_quantile(0.975, df), 0.002);
}

TEST(median_u32_equals_the_sorted_median)
{
	uint32_t state = 7;
	for (uint32_t n = 1; n <= 40; n++) {
		uint32_t v[40];
		double d[40];
		for (uint32_t i = 0; i < n; i++) {
			state = state * 1664525u + 1013904223u;
			v[i] = (state >> 8) % 50; /* ties too */
			d[i] = v[i];
		}
		double want = floor(stats_median_of(d, n));
		CHECK_EQ(stats_median_u32(v, n), (uint64_t)want);
	}
	CHECK_EQ(stats_median_u32(NULL, 0), 0);
	uint32_t big[] = {UINT32_MAX, UINT32_MAX - 2};
	CHECK_EQ(stats_median_u32(big, 2), (uint64_t)UINT32_MAX - 1);
}

/* Writes with fn into a memory stream and compares the whole text. */
static bool writes(void (*fn)(FILE *), const char *want)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	fn(f);
	fclose(f);
	bool same = strcmp(buf, want) == 0;
	if (!same)
		printf("wrote <%s>, want <%s>\n", buf, want);
	free(buf);
	return same;
}

static void csv_fields(FILE *f)
{
	csv_field(f, "plain");
	csv_field(f, "a,b");
	csv_field(f, "say \"hi\"");
	csv_field(f, "#first");
	csv_field(f, "in#side");
	csv_field(f, "two\nlines");
}

TEST(csv_quotes_commas_quotes_breaks_and_a_leading_hash)
{
	CHECK(writes(csv_fields, "plain\"a,b\"\"say \"\"hi\"\"\"\"#first\"in#side\"two\nlines\""));
	CHECK(!csv_needs_quotes("x y"));
	CHECK(csv_needs_quotes("x\ry"));
}

static void json_document(FILE *f)
{
	json_w w;
	json_w_init(&w, f);
	json_w_object(&w, NULL);
	json_w_break(&w, 2);
	json_w_string(&w, "name", "a \"b\"\\\n");
	json_w_uint(&w, "n", 42);
	json_w_number(&w, "x", "%.2f", 1.005);
	json_w_number(&w, "nan", "%.2f", NAN);
	json_w_bool(&w, "yes", true);
	json_w_null(&w, "none");
	json_w_string(&w, "missing", NULL);
	json_w_break(&w, 2);
	json_w_array_tight(&w, "ns");
	json_w_uint(&w, NULL, 1);
	json_w_uint(&w, NULL, 2);
	json_w_end(&w);
	json_w_array(&w, "list");
	json_w_object(&w, NULL);
	json_w_end(&w);
	json_w_array(&w, NULL);
	json_w_end(&w);
	json_w_end(&w);
	json_w_break(&w, 0);
	json_w_end(&w);
}

TEST(json_writer_separates_breaks_and_escapes)
{
	CHECK(writes(json_document,
		     "{\n  \"name\": \"a \\\"b\\\"\\\\\\u000a\", \"n\": 42, \"x\": 1.00, "
		     "\"nan\": null, \"yes\": true, \"none\": null, \"missing\": null,\n"
		     "  \"ns\": [1,2], \"list\": [{}, []]\n}"));
}
