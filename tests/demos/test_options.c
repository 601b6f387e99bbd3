/* The table-driven option parser and its suggestions (demos/options.h),
 * on a table of its own; the programs' tables are exercised through their
 * command lines in tests/cli. */
#include "check.h"
#include "options.h"

#include <stddef.h>

typedef struct opts {
	bool flag, on;
	uint32_t count;
	double ratio;
	const char *file;
	uint32_t w, h;
	int mode;
	int custom_calls;
} opts;

static bool parse_custom(const opt_parser *p, const char *opt, const char *value, void *o)
{
	(void)p, (void)opt;
	((opts *)o)->custom_calls++;
	return value[0] == 'y';
}

static const char *const g_modes[] = {"auto", "plain", "flushed", NULL};
static const int g_mode_values[] = {10, 20, 30};

static const opt_def g_defs[] = {
	{"--flag", NULL, OPT_FLAG, offsetof(opts, flag), .help = "a flag"},
	{"--no-on", NULL, OPT_FLAG_OFF, offsetof(opts, on), .help = "turns on off"},
	{"--count", "-c", OPT_U32, offsetof(opts, count), .min = 1, .max = 100, .arg = "N",
	 .help = "a count"},
	{"--ratio", NULL, OPT_DOUBLE, offsetof(opts, ratio), .min = 0.5, .max = 50, .scale = 0.01,
	 .arg = "PCT", .help = "a percentage"},
	{"--file", NULL, OPT_STRING, offsetof(opts, file), .max = 8, .arg = "FILE", .help = "a file"},
	{"--size", NULL, OPT_SIZE, offsetof(opts, w), offsetof(opts, h), .arg = "WxH", .help = "s"},
	{"--mode", NULL, OPT_CHOICE, offsetof(opts, mode), .choices = g_modes,
	 .values = g_mode_values, .help = "a mode"},
	{"--custom", NULL, OPT_CUSTOM, .parse = parse_custom, .arg = "X", .help = "custom"},
};

static const opt_parser g_parser = {
	.prog = "test", .opts = g_defs, .n_opts = sizeof g_defs / sizeof g_defs[0]};

static int parse(opts *o, int argc, const char **argv)
{
	*o = (opts){.on = true};
	return opt_parse(&g_parser, argc, (char **)argv, o);
}

#define ARGS(...) (const char *[]){"test", __VA_ARGS__, NULL}
#define NARGS(...) (int)(sizeof((const char *[]){"test", __VA_ARGS__}) / sizeof(char *))
#define PARSE(o, ...) parse(o, NARGS(__VA_ARGS__), ARGS(__VA_ARGS__))

TEST(values_after_a_space_or_an_equals_sign)
{
	opts o;
	CHECK_EQ(PARSE(&o, "--count", "5", "--ratio=25", "--file", "a.csv", "--size=640x360"), 0);
	CHECK_EQ(o.count, 5);
	CHECK_NEAR(o.ratio, 0.25, 1e-12);
	CHECK_STR(o.file, "a.csv");
	CHECK_EQ(o.w, 640);
	CHECK_EQ(o.h, 360);
	CHECK_EQ(PARSE(&o, "--count=7", "-c", "9"), 0);
	CHECK_EQ(o.count, 9); /* the last one wins */
	CHECK_EQ(PARSE(&o, "--file=x=y"), 0);
	CHECK_STR(o.file, "x=y"); /* only the first '=' splits */
}

TEST(flags_set_or_clear_and_take_no_value)
{
	opts o;
	CHECK_EQ(PARSE(&o, "--flag", "--no-on"), 0);
	CHECK(o.flag);
	CHECK(!o.on);
	CHECK_EQ(PARSE(&o, "--flag=yes"), -1);
}

TEST(bad_values_and_missing_values_are_errors)
{
	opts o;
	CHECK_EQ(PARSE(&o, "--count", "0"), -1);
	CHECK_EQ(PARSE(&o, "--count", "101"), -1);
	CHECK_EQ(PARSE(&o, "--count=abc"), -1);
	CHECK_EQ(PARSE(&o, "--count"), -1);
	CHECK_EQ(PARSE(&o, "--count="), -1);
	CHECK_EQ(PARSE(&o, "--count", ""), -1);
	CHECK_EQ(PARSE(&o, "--ratio", "0.1"), -1);
	CHECK_EQ(PARSE(&o, "--file", "123456789"), -1); /* longer than 8 */
	CHECK_EQ(PARSE(&o, "--size", "10x10"), -1);
	/* The next argument is an option: the value is missing. */
	CHECK_EQ(PARSE(&o, "--file", "--flag"), -1);
	CHECK(!o.flag);
	/* A negative number is a value, not an option. */
	CHECK_EQ(PARSE(&o, "--count", "-5"), -1);
}

TEST(choices_store_their_value)
{
	opts o;
	CHECK_EQ(PARSE(&o, "--mode", "flushed"), 0);
	CHECK_EQ(o.mode, 30);
	CHECK_EQ(PARSE(&o, "--mode=plain"), 0);
	CHECK_EQ(o.mode, 20);
	CHECK_EQ(PARSE(&o, "--mode", "flushd"), -1);
}

TEST(custom_options_get_their_value)
{
	opts o;
	CHECK_EQ(PARSE(&o, "--custom", "yes", "--custom=yep"), 0);
	CHECK_EQ(o.custom_calls, 2);
	CHECK_EQ(PARSE(&o, "--custom", "no"), -1);
}

TEST(unknown_options_are_errors)
{
	opts o;
	CHECK_EQ(PARSE(&o, "--bogus"), -1);
	CHECK_EQ(PARSE(&o, "count"), -1);
	CHECK_EQ(PARSE(&o, "-x"), -1);
	CHECK_EQ(PARSE(&o, ""), -1);
}

TEST(edit_distance_counts_swaps_as_one)
{
	CHECK_EQ(opt_edit_distance("grdi", "grid"), 1);
	CHECK_EQ(opt_edit_distance("--frame", "--frames"), 1);
	CHECK_EQ(opt_edit_distance("vulkn", "vulkan"), 1);
	CHECK_EQ(opt_edit_distance("", "abc"), 3);
	CHECK_EQ(opt_edit_distance("kitten", "sitting"), 3);
	CHECK_EQ(opt_edit_distance("same", "same"), 0);
}

TEST(suggestions_for_near_names_only)
{
	static const char *const scenes[] = {"default", "grid",   "multiview", "media",
					     "effects", "calibrated", "stress", "tiles"};
	const size_t n = sizeof scenes / sizeof scenes[0];
	CHECK_EQ(opt_suggest("grdi", scenes, n), 1);
	CHECK_EQ(opt_suggest("calibrate", scenes, n), 5);
	CHECK_EQ(opt_suggest("tile", scenes, n), 7);
	CHECK_EQ(opt_suggest("grid", scenes, n), 1);
	CHECK_EQ(opt_suggest("nope", scenes, n), -1);
	CHECK_EQ(opt_suggest("metal", scenes, n), -1);
	static const char *const apis[] = {"vulkan", "gl", "auto"};
	CHECK_EQ(opt_suggest("vulkn", apis, 3), 0);
	CHECK_EQ(opt_suggest("gll", apis, 3), 1);
	CHECK_EQ(opt_suggest("metal", apis, 3), -1);
	static const char *const opts_[] = {"--list-scenes", "--frames", "--seconds", "--scene"};
	CHECK_EQ(opt_suggest("--list", opts_, 4), 0); /* a prefix of one name only */
	CHECK_EQ(opt_suggest("--s", opts_, 4), -1);   /* of two */
	CHECK_EQ(opt_suggest("--frame", opts_, 4), 1);
	CHECK_EQ(opt_suggest("--bogus", opts_, 4), -1);
	static const char *const keys[] = {"P", "G", "ENTER", "F1"};
	CHECK_EQ(opt_suggest("Q", keys, 4), -1); /* one letter is near every letter */
	CHECK_EQ(opt_suggest("ENTR", keys, 4), 2);
	CHECK_EQ(opt_suggest("F2", keys, 4), 3);
}

TEST(help_lists_every_option_with_its_value)
{
	char buf[4096];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	CHECK(f);
	opt_print_help(&g_parser, f);
	fputc('\0', f);
	fclose(f);
	CHECK(strstr(buf, "  --count, -c N           a count\n"));
	CHECK(strstr(buf, "  --mode auto|plain|flushed\n                          a mode\n"));
	CHECK(strstr(buf, "  --flag                  a flag\n"));
}

/* A parser that takes files between its options, as compare does. */
typedef struct files {
	const char *name[2];
	uint32_t n;
	bool flag;
} files;

static bool file_arg(const opt_parser *p, const char *arg, void *o)
{
	(void)p;
	files *f = o;
	if (f->n == 2)
		return false;
	f->name[f->n++] = arg;
	return true;
}

static const opt_def g_file_defs[] = {
	{"--flag", NULL, OPT_FLAG, offsetof(files, flag), .help = "a flag"},
};

static const opt_parser g_file_parser = {.prog = "test",
					 .opts = g_file_defs,
					 .n_opts = 1,
					 .positional = file_arg,
					 .help_column = 12};

TEST(positional_arguments_go_to_their_callback_in_order)
{
	files f = {0};
	CHECK_EQ(opt_parse(&g_file_parser, 4, (char *[]){"test", "a", "--flag", "-", NULL}, &f), 0);
	CHECK_EQ(f.n, 2);
	CHECK_STR(f.name[0], "a");
	CHECK_STR(f.name[1], "-"); /* "-" alone is an argument, not an option */
	CHECK(f.flag);
	f = (files){0};
	CHECK_EQ(opt_parse(&g_file_parser, 4, (char *[]){"test", "a", "b", "c", NULL}, &f), -1);
	f = (files){0};
	CHECK_EQ(opt_parse(&g_file_parser, 3, (char *[]){"test", "a", "-x", NULL}, &f), -1);
	/* Without a callback, a word is an unknown option (see above). */
	opts o;
	CHECK_EQ(PARSE(&o, "a.csv"), -1);
}

TEST(help_starts_at_the_parsers_column)
{
	char buf[256];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	CHECK(f);
	opt_print_help(&g_file_parser, f);
	fputc('\0', f);
	fclose(f);
	CHECK_STR(buf, "  --flag    a flag\n");
}

TEST(choices_are_looked_up_by_name)
{
	CHECK_EQ(opt_choice("test", "--mode", "plain", g_modes), 1);
	CHECK_EQ(opt_choice("test", "--mode", "auto", g_modes), 0);
	CHECK_EQ(opt_choice("test", "--mode", "plian", g_modes), -1);
	CHECK_EQ(opt_choice("test", "--mode", "", g_modes), -1);
}
