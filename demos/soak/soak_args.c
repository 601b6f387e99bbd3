#include "cli.h"
#include "gfx_args.h"
#include "options.h"
#include "soak.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define PROG SOAK_PROG

const char *const soak_kind_names[SOAK_KINDS] = {"mesh",  "particles", "effect",
						   "video", "logic",     "heavy"};

void soak_opts_init(soak_opts *o)
{
	*o = (soak_opts){
		.api = ENG_API_VULKAN,
		.frames = 100000,
		.warmup = SOAK_WARMUP_DEFAULT,
		.report_every = 10000,
		.sources = 24,
		.churn = 2,
		.width = 320,
		.height = 180,
		.max_growth_kb = 2048,
		.kinds = (1u << SOAK_KINDS) - 1,
		.validate = true,
	};
}

static bool kind_item(char *item, void *user)
{
	size_t k;
	for (k = 0; k < SOAK_KINDS && strcmp(item, soak_kind_names[k]) != 0; k++)
		;
	if (k == SOAK_KINDS) {
		opt_bad_choice(PROG, "--kinds", item, soak_kind_names, SOAK_KINDS);
		return false;
	}
	*(uint32_t *)user |= 1u << k;
	return true;
}

static bool parse_kinds(const opt_parser *p, const char *opt, const char *value, void *opts)
{
	soak_opts *o = opts;
	o->kinds = 0;
	/* Every item names a kind or is refused (an empty one too). */
	return cli_list(p->prog, opt, value, 255, kind_item, &o->kinds);
}

static void print_help(const opt_parser *p, void *opts)
{
	(void)opts;
	opt_print_help(p, stdout);
}

/* OPT_CHOICE stores an int. */
_Static_assert(sizeof(eng_api) == sizeof(int), "eng_api is stored as an int");

#define AT(field) offsetof(soak_opts, field)
#define STR(x) #x
#define XSTR(x) STR(x)

static const char *const g_apis[] = {"vulkan", "gl", NULL};
static const int g_api_values[] = {ENG_API_VULKAN, ENG_API_GL};

static const opt_def g_opts[] = {
	{"--api", NULL, OPT_CHOICE, AT(api), .choices = g_apis, .values = g_api_values,
	 .help = "graphics API (default vulkan)"},
	{"--gpu-timing", NULL, OPT_CHOICE, AT(gpu_timing), .choices = gfx_args_timings,
	 .values = gfx_args_timing_values, .arg = "MODE", .help = GFX_ARGS_TIMING_HELP},
	{"--tick-threads", NULL, OPT_U32, AT(tick_threads), .min = 1, .max = ENG_MAX_THREADS,
	 .arg = "N", .help = GFX_ARGS_TICK_THREADS_HELP},
	{"--record-threads", NULL, OPT_U32, AT(record_threads), .min = 1, .max = ENG_MAX_THREADS,
	 .arg = "N", .help = GFX_ARGS_RECORD_THREADS_HELP},
	{"--compute", NULL, OPT_FLAG, AT(compute), .help = GFX_ARGS_COMPUTE_HELP},
	{"--frames", NULL, OPT_U32, AT(frames), .min = 1, .max = 1000000000, .arg = "N",
	 .help = "frames to run (default 100000)"},
	{"--warmup", NULL, OPT_U32, AT(warmup), .min = 0, .max = 1000000000, .arg = "N",
	 .help = "frames before the memory baseline (default 10% of\n"
		 "--frames, at most 10000)"},
	{"--report-every", NULL, OPT_U32, AT(report_every), .min = 1, .max = 1000000000, .arg = "N",
	 .help = "a progress line every N frames (default 10000)"},
	{"--sources", NULL, OPT_U32, AT(sources), .min = 1, .max = SOAK_MAX_SOURCES, .arg = "N",
	 .help = "live sources (default 24, at most " XSTR(SOAK_MAX_SOURCES) ")"},
	{"--churn", NULL, OPT_U32, AT(churn), .min = 0, .max = SOAK_MAX_SOURCES, .arg = "N",
	 .help = "sources replaced each frame (default 2)"},
	{"--kinds", NULL, OPT_CUSTOM, .parse = parse_kinds, .arg = "LIST",
	 .help = "source kinds made in turn (default all: mesh,\n"
		 "particles,effect,video,logic,heavy)"},
	{"--size", NULL, OPT_SIZE, AT(width), AT(height), .arg = "WxH",
	 .help = "target size (default 320x180)"},
	{"--max-growth", NULL, OPT_U32, AT(max_growth_kb), .min = 0, .max = 16u << 20, .arg = "KB",
	 .help = "resident growth allowed after warm-up (default 2048)"},
	{"--no-validate", NULL, OPT_FLAG_OFF, AT(validate),
	 .help = "without Vulkan validation / GL debug output"},
	{"--shader-dir", NULL, OPT_DIR, AT(shader_dir), .arg = "DIR",
	 .help = "where the built .spv shaders are"},
	{"--help", "-h", OPT_EXIT, .run = print_help, .help = "this help"},
};

static const opt_parser g_parser = {
	.prog = PROG,
	.opts = g_opts,
	.n_opts = sizeof g_opts / sizeof g_opts[0],
	.usage = "usage: " PROG " [options]\n"
		 "Runs headless for many frames, replacing sources every frame, and checks\n"
		 "that resident memory stays flat after warm-up, that GPU timer pools and\n"
		 "live GPU objects do not grow, and that no validation message or error\n"
		 "appears. Exit status 0 when all hold. Options take their value as\n"
		 "--opt VALUE or --opt=VALUE.\n\n",
};

int soak_parse_args(int argc, char **argv, soak_opts *o)
{
	int r = opt_parse(&g_parser, argc, argv, o);
	if (r != 0)
		return r;
	if (o->churn > o->sources) {
		fprintf(stderr, PROG ": --churn: %u is more than --sources %u\n", o->churn,
			o->sources);
		return -1;
	}
	if (o->warmup == SOAK_WARMUP_DEFAULT)
		o->warmup = o->frames / 10 < 10000 ? o->frames / 10 : 10000;
	if (o->warmup >= o->frames) {
		fprintf(stderr, PROG ": --warmup: %u leaves no frames of the %u to measure\n",
			o->warmup, o->frames);
		return -1;
	}
	return 0;
}
