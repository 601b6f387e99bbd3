/* srcprof-bench's option table (demos/bench/bench_args.c) and compare's
 * (demos/bench/compare/bench_compare_args.c) on the shared parser: every
 * option's value lands in its field, both spellings (--opt V, --opt=V),
 * the ranges' ends, and what is refused. The messages themselves are
 * checked through the programs in tests/cli/bad_input.sh and
 * tests/e2e/compare.sh. */
#include "bench.h"
#include "bench_compare.h"
#include "check.h"

#include <string.h>

#define ARGS(...) (char *[]){"srcprof-bench", __VA_ARGS__, NULL}
#define NARGS(...) (int)(sizeof((const char *[]){"srcprof-bench", __VA_ARGS__}) / sizeof(char *))

static int bench(bench_opts *o, int argc, char **argv)
{
	bench_opts_init(o);
	return bench_parse_args(argc, argv, o);
}
#define BENCH(o, ...) bench(o, NARGS(__VA_ARGS__), ARGS(__VA_ARGS__))

/* compare's argv[0] is "compare", as main passes it. */
#define CMP_ARGS(...) (char *[]){"compare", __VA_ARGS__, NULL}
#define CMP_NARGS(...) (int)(sizeof((const char *[]){"compare", __VA_ARGS__}) / sizeof(char *))
#define COMPARE(o, ...) cmp_parse_args(CMP_NARGS(__VA_ARGS__), CMP_ARGS(__VA_ARGS__), o)

TEST(bench_defaults_without_options)
{
	bench_opts o;
	CHECK_EQ(bench(&o, 1, (char *[]){"srcprof-bench", NULL}), 0);
	CHECK_EQ(o.n_apis, 1);
	CHECK_EQ(o.apis[0], ENG_API_VULKAN);
	CHECK_STR(o.scene->name, "default");
	CHECK_EQ(o.n_points, 0);
	CHECK_EQ(o.frames, 120);
	CHECK_EQ(o.warmup, 30);
	CHECK_EQ(o.repeat, 5);
	CHECK_EQ(o.width, 1280);
	CHECK_EQ(o.height, 720);
	CHECK_NEAR(o.gpu_budget, 0.01, 0);
	CHECK(!o.isolate);
	CHECK_EQ(o.isolate_rounds, BENCH_ISOLATE_ROUNDS);
	CHECK(!o.json && !o.csv && !o.svg && !o.html && !o.shader_dir);
}

TEST(bench_every_option_lands_in_its_field)
{
	bench_opts o;
	CHECK_EQ(BENCH(&o, "--api", "both", "--scene=grid", "--sources", "10,100,1000",
		       "--frames=60", "--warmup", "0", "--repeat=32", "--isolate",
		       "--isolate-rounds", "25", "--gpu-budget=50", "--size", "640x360", "--json",
		       "a.json", "--csv=b.csv", "--svg", "c.svg", "--html=d.html", "--shader-dir",
		       "."),
		 0);
	CHECK_EQ(o.n_apis, 2);
	CHECK_EQ(o.apis[0], ENG_API_VULKAN);
	CHECK_EQ(o.apis[1], ENG_API_GL);
	CHECK_STR(o.scene->name, "grid");
	CHECK_EQ(o.n_points, 3);
	CHECK_EQ(o.sources[0], 10);
	CHECK_EQ(o.sources[1], 100);
	CHECK_EQ(o.sources[2], 1000);
	CHECK_EQ(o.frames, 60);
	CHECK_EQ(o.warmup, 0);
	CHECK_EQ(o.repeat, 32);
	CHECK(o.isolate);
	CHECK_EQ(o.isolate_rounds, 25);
	CHECK_NEAR(o.gpu_budget, 0.5, 0);
	CHECK_EQ(o.width, 640);
	CHECK_EQ(o.height, 360);
	CHECK_STR(o.json, "a.json");
	CHECK_STR(o.csv, "b.csv");
	CHECK_STR(o.svg, "c.svg");
	CHECK_STR(o.html, "d.html");
	CHECK_STR(o.shader_dir, ".");
}

TEST(bench_api_gl_alone_and_the_last_option_wins)
{
	bench_opts o;
	CHECK_EQ(BENCH(&o, "--api=both", "--api", "gl"), 0);
	CHECK_EQ(o.n_apis, 1);
	CHECK_EQ(o.apis[0], ENG_API_GL);
	CHECK_EQ(BENCH(&o, "--sources", "1,2,3", "--sources=5"), 0);
	CHECK_EQ(o.n_points, 1);
	CHECK_EQ(o.sources[0], 5);
	/* An empty item is a typo, not a shorter list: refused. */
	CHECK_EQ(BENCH(&o, "--sources", ",,7,"), -1);
	CHECK_EQ(BENCH(&o, "--sources", "7,"), -1);
	CHECK_EQ(BENCH(&o, "--sources", "7"), 0);
	CHECK_EQ(o.n_points, 1);
	CHECK_EQ(o.sources[0], 7);
}

TEST(bench_ranges_end_where_the_help_says)
{
	bench_opts o;
	CHECK_EQ(BENCH(&o, "--frames", "5"), 0);
	CHECK_EQ(BENCH(&o, "--frames", "4995"), 0);
	CHECK_EQ(o.frames, 4995);
	CHECK_EQ(BENCH(&o, "--frames", "4"), -1);
	CHECK_EQ(BENCH(&o, "--frames", "4996"), -1);
	CHECK_EQ(BENCH(&o, "--warmup", "100000"), 0);
	CHECK_EQ(BENCH(&o, "--warmup", "100001"), -1);
	CHECK_EQ(BENCH(&o, "--warmup", "-1"), -1);
	CHECK_EQ(BENCH(&o, "--repeat", "1"), 0);
	CHECK_EQ(BENCH(&o, "--repeat", "0"), -1);
	CHECK_EQ(BENCH(&o, "--repeat", "33"), -1);
	CHECK_EQ(BENCH(&o, "--isolate-rounds", "3"), 0);
	CHECK_EQ(BENCH(&o, "--isolate-rounds", "2"), -1);
	CHECK_EQ(BENCH(&o, "--isolate-rounds", "26"), -1);
	CHECK_EQ(BENCH(&o, "--gpu-budget", "100"), 0);
	CHECK_NEAR(o.gpu_budget, 1.0, 0);
	CHECK_EQ(BENCH(&o, "--gpu-budget", "0.01"), 0);
	CHECK_EQ(BENCH(&o, "--gpu-budget", "0"), -1);
	CHECK_EQ(BENCH(&o, "--gpu-budget", "101"), -1);
	CHECK_EQ(BENCH(&o, "--size", "64x8192"), 0);
	CHECK_EQ(BENCH(&o, "--size", "32x32"), -1);
	CHECK_EQ(BENCH(&o, "--sources", "100000"), 0);
	CHECK_EQ(BENCH(&o, "--sources", "100001"), -1);
	CHECK_EQ(BENCH(&o, "--sources", "0"), -1);
	CHECK_EQ(BENCH(&o, "--sources", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"), 0);
	CHECK_EQ(o.n_points, BENCH_MAX_POINTS);
	CHECK_EQ(BENCH(&o, "--sources", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"), -1);
}

TEST(bench_refuses_what_it_cannot_run)
{
	bench_opts o;
	CHECK_EQ(BENCH(&o, "--sources", ",,"), -1);
	CHECK_EQ(BENCH(&o, "--sources", "10,x"), -1);
	CHECK_EQ(BENCH(&o, "--api", "metal"), -1);
	CHECK_EQ(BENCH(&o, "--api=vulkn"), -1);
	CHECK_EQ(BENCH(&o, "--scene", "nope"), -1);
	CHECK_EQ(BENCH(&o, "--fast"), -1);
	CHECK_EQ(BENCH(&o, "--frame", "5"), -1);
	CHECK_EQ(BENCH(&o, "frames"), -1);
	CHECK_EQ(BENCH(&o, "--isolate=1"), -1);
	CHECK_EQ(BENCH(&o, "--frames"), -1);
	CHECK_EQ(BENCH(&o, "--csv", ""), -1);
	/* The next argument is an option: the file name is missing. */
	CHECK_EQ(BENCH(&o, "--json", "--csv", "x"), -1);
	/* compare is a command only as the first argument (bench.c). */
	CHECK_EQ(BENCH(&o, "compare"), -1);
}

TEST(bench_help_exits_zero)
{
	bench_opts o;
	CHECK_EQ(BENCH(&o, "--help"), 1);
	CHECK_EQ(BENCH(&o, "-h"), 1);
	CHECK_EQ(BENCH(&o, "--frames", "x", "--help"), -1); /* the error comes first */
}

TEST(compare_defaults_and_its_two_files)
{
	cmp_opts o;
	CHECK_EQ(COMPARE(&o, "base.json", "new.json"), 0);
	CHECK_STR(o.base, "base.json");
	CHECK_STR(o.nw, "new.json");
	CHECK_NEAR(o.threshold, 0.05, 0);
	CHECK_NEAR(o.alpha, 0.05, 0);
	CHECK_NEAR(o.floor_us, 1.0, 0);
	CHECK_EQ(o.blocks, 8);
	CHECK(!o.json && !o.html);
	/* Options anywhere; "-" is a file name. */
	CHECK_EQ(COMPARE(&o, "--blocks", "0", "-", "b.json", "--json=c.json"), 0);
	CHECK_STR(o.base, "-");
	CHECK_STR(o.nw, "b.json");
	CHECK_EQ(o.blocks, 0);
	CHECK_STR(o.json, "c.json");
}

TEST(compare_every_option_lands_in_its_field)
{
	cmp_opts o;
	CHECK_EQ(COMPARE(&o, "a", "b", "--threshold=2", "--alpha", "0.01", "--floor-us=0",
			 "--blocks", "3", "--json", "x.json", "--html=y.html"),
		 0);
	CHECK_NEAR(o.threshold, 0.02, 1e-15);
	CHECK_NEAR(o.alpha, 0.01, 0);
	CHECK_NEAR(o.floor_us, 0, 0);
	CHECK_EQ(o.blocks, 3);
	CHECK_STR(o.json, "x.json");
	CHECK_STR(o.html, "y.html");
	CHECK_EQ(COMPARE(&o, "a", "b", "--threshold", "1000", "--alpha=0.5", "--blocks", "1000"), 0);
	CHECK_NEAR(o.threshold, 10, 1e-12);
	CHECK_EQ(o.blocks, 1000);
}

TEST(compare_refuses_bad_input)
{
	cmp_opts o;
	CHECK_EQ(COMPARE(&o, "a"), -1);
	CHECK_EQ(cmp_parse_args(1, (char *[]){"compare", NULL}, &o), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "c"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--blocks", "1"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--blocks", "2"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--blocks", "1001"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--threshold", "x"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--threshold", "1001"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--alpha", "0.9"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--alpha", "0"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--floor-us", "-1"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--fast"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "-x"), -1);
	CHECK_EQ(COMPARE(&o, "a", "b", "--json"), -1);
	CHECK_EQ(COMPARE(&o, "--help"), 1);
	CHECK_EQ(COMPARE(&o, "a", "-h"), 1);
}
