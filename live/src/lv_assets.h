/* The page's files (live/web/), embedded at build time by
 * cmake/embed_assets.cmake into lv_assets.c. */
#ifndef LV_ASSETS_H
#define LV_ASSETS_H

#include <stddef.h>

typedef struct lv_asset {
	const char *path; /* "/", "/live.js", "/work.js", "/live.css" */
	const char *type; /* its Content-Type */
	const unsigned char *data;
	size_t size;
} lv_asset;

extern const lv_asset lv_assets[];
extern const size_t lv_asset_count;

#endif
