#include "cli.h"
#include "soak.h"

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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [options]\n"
		"Runs headless for many frames, replacing sources every frame, and checks\n"
		"that resident memory stays flat after warm-up, that GPU timer pools and\n"
		"live GPU objects do not grow, and that no validation message or error\n"
		"appears. Exit status 0 when all hold.\n\n"
		"  --api vulkan|gl         graphics API (default vulkan)\n"
		"  --frames N              frames to run (default 100000)\n"
		"  --warmup N              frames before the memory baseline (default 10%% of\n"
		"                          --frames, at most 10000)\n"
		"  --report-every N        a progress line every N frames (default 10000)\n"
		"  --sources N             live sources (default 24, at most %d)\n"
		"  --churn N               sources replaced each frame (default 2)\n"
		"  --kinds LIST            source kinds made in turn (default all: mesh,\n"
		"                          particles,effect,video,logic,heavy)\n"
		"  --size WxH              target size (default 320x180)\n"
		"  --max-growth KB         resident growth allowed after warm-up (default 2048)\n"
		"  --no-validate           without Vulkan validation / GL debug output\n"
		"  --shader-dir DIR        where the built .spv shaders are\n"
		"  --help\n",
		SOAK_MAX_SOURCES);
}

static bool kind_item(char *item, void *user)
{
	int k = cli_choice(PROG, "--kinds", item, soak_kind_names, SOAK_KINDS);
	if (k < 0)
		return false;
	*(uint32_t *)user |= 1u << k;
	return true;
}

static bool parse_kinds(const char *value, uint32_t *kinds)
{
	*kinds = 0;
	if (!cli_list(PROG, "--kinds", value, 255, kind_item, kinds))
		return false;
	if (!*kinds) {
		fprintf(stderr, PROG ": --kinds: '%s' names no kind\n", value);
		return false;
	}
	return true;
}

int soak_parse_args(int argc, char **argv, soak_opts *o)
{
	const char *v;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 1;
		} else if (!strcmp(a, "--api")) {
			static const char *const apis[] = {"vulkan", "gl"};
			int c;
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    (c = cli_choice(PROG, a, v, apis, 2)) < 0)
				return -1;
			o->api = c ? ENG_API_GL : ENG_API_VULKAN;
		} else if (!strcmp(a, "--frames")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 1, 1000000000, &o->frames))
				return -1;
		} else if (!strcmp(a, "--warmup")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 0, 1000000000, &o->warmup))
				return -1;
		} else if (!strcmp(a, "--report-every")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 1, 1000000000, &o->report_every))
				return -1;
		} else if (!strcmp(a, "--sources")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 1, SOAK_MAX_SOURCES, &o->sources))
				return -1;
		} else if (!strcmp(a, "--churn")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 0, SOAK_MAX_SOURCES, &o->churn))
				return -1;
		} else if (!strcmp(a, "--kinds")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) || !parse_kinds(v, &o->kinds))
				return -1;
		} else if (!strcmp(a, "--size")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_size(PROG, a, v, &o->width, &o->height))
				return -1;
		} else if (!strcmp(a, "--max-growth")) {
			if (!(v = cli_value(PROG, argc, argv, &i)) ||
			    !cli_u32(PROG, a, v, 0, 16u << 20, &o->max_growth_kb))
				return -1;
		} else if (!strcmp(a, "--no-validate")) {
			o->validate = false;
		} else if (!strcmp(a, "--shader-dir")) {
			if (!(o->shader_dir = cli_value(PROG, argc, argv, &i)))
				return -1;
		} else {
			fprintf(stderr, PROG ": unknown option '%s' (see --help)\n", a);
			return -1;
		}
	}
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
