/* The pages' stylesheet and script (demos/bench/web/), embedded at build
 * time by cmake/embed_assets.cmake into bench_assets.c; each is followed
 * by a NUL, so that its data is a C string. */
#ifndef DEMOS_BENCH_ASSETS_H
#define DEMOS_BENCH_ASSETS_H

#include <stddef.h>

typedef struct bench_asset {
	const char *path; /* "/bench.css", "/bench.js" */
	const char *type; /* its Content-Type */
	const unsigned char *data;
	size_t size;
} bench_asset;

extern const bench_asset bench_assets[];
extern const size_t bench_asset_count;

#endif
