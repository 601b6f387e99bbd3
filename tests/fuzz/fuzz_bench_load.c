/* srcprof-bench compare's reader of bench files (the JSON files users pass
 * it): any bytes either load into runs compare can use, or fail with a
 * message and nothing left allocated. */
#include "bench_load.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* What compare relies on after a successful load. */
static void check_series(const brun_series *s)
{
	if (s->n && !s->v)
		abort();
}

static void check_run(const brun *r)
{
	if (r->n_points && !r->points)
		abort();
	for (uint32_t i = 0; i < r->n_points; i++) {
		const brun_point *p = &r->points[i];
		if ((p->n_src && !p->src) || !memchr(p->api, 0, sizeof p->api))
			abort();
		check_series(&p->frames);
		for (uint32_t k = 0; k < p->n_src; k++) {
			const brun_source *s = &p->src[k];
			check_series(&s->tick);
			check_series(&s->render);
			check_series(&s->gpu);
			check_series(&s->alone);
			check_series(&s->marginal);
			if (!memchr(s->name, 0, sizeof s->name))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The reader wants the NUL a file read into memory ends with. */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	enum { MAX_RUNS = 4 };
	brun runs[MAX_RUNS];
	uint32_t n = brun_parse_runs(text, size, "fuzz.json", "BASE", runs, MAX_RUNS);
	if (n > MAX_RUNS)
		abort();
	for (uint32_t i = 0; i < n; i++) {
		check_run(&runs[i]);
		brun_free(&runs[i]);
	}
	free(text);
	return 0;
}
