/* Named demo scenes, shared by srcprof-demo and srcprof-bench. */
#ifndef DEMOS_SCENES_H
#define DEMOS_SCENES_H

#include "engine/engine.h"

/* Base work of the calibrated scene's sources (eng_heavy_desc.base). */
#define CALIBRATED_BASE 1.0f

typedef struct scene_def {
	const char *name;
	const char *summary;
	uint32_t default_sources; /* what --sources means when not given */
	uint32_t views;           /* 2 or 3 */
	/* Adds `sources` sources to `e`; false (logged) when one could not be made. */
	bool (*build)(eng_engine *e, uint32_t sources);
	/* The --sources the scene takes as asked (build clamps others into
	 * this range), and the sources it adds of its own beyond them (the
	 * calibrated scene's backdrop). */
	uint32_t min_sources, max_sources, extra_sources;
	/* Optional: what + (dir 1) and - (dir -1) do in this scene instead of
	 * adding or removing 10 sources; false where it does not apply (the
	 * keys then add and remove), else what it did in `said`. */
	bool (*adjust)(eng_engine *e, int dir, char *said, size_t n);
} scene_def;

uint32_t scene_count(void);
const scene_def *scene_at(uint32_t i);
const scene_def *scene_find(const char *name);
/* The scene called `name`, given to option `opt` of `prog`; else NULL
 * after printing "<prog>: <opt>: no scene '<name>'", the nearest name
 * ("; did you mean 'x'?") and where the names are listed (`list_hint`,
 * e.g. "see --list-scenes"). */
const scene_def *scene_parse(const char *prog, const char *opt, const char *name,
			     const char *list_hint);
/* The scene names, in order, NULL-terminated (for suggestions). */
const char *const *scene_names(void);
/* How many sources the scene holds when built with `sources` (0: its
 * default): what the engine, the overlay and every report count. */
uint32_t scene_total_sources(const scene_def *s, uint32_t sources);

#endif
