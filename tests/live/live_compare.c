/* live_compare EXIT.csv SNAPSHOT.json: every row of the demo's --csv (the
 * profiler's CSV, '#' lines first) against the live view's JSON snapshot of
 * the same window: the same sources, and every column equal (integers
 * exactly, the fps columns as the CSV writes them, to 0.001). The three
 * async_input_* columns are not compared: a video source's producer
 * thread goes on delivering frames after the renderer's last frame, and
 * their timestamps enter its window at once (between the two reads the
 * shortest interval between them moved from 0.16 ms to 16 ms once, on a
 * busy machine). gpu_sum_by_queue_ns ("graphics:5839000;compute:864800")
 * is compared as text with the snapshot's per-queue sums where the
 * snapshot has them (the profiler has several queues), and not compared
 * where it has none. The work columns (work_frames, *_per_frame) against
 * the source's "work" object: the same counted frames and averages, "n/a"
 * where the counter is null, empty where the snapshot says work counting
 * is off. Exit 0 when all are equal, 1 with each difference. */
#include <cjson/cJSON.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 64

static int split(char *line, char **cols)
{
	int n = 0;
	line[strcspn(line, "\r\n")] = '\0';
	for (char *c = line; n < MAX_COLS;) {
		cols[n++] = c;
		char *comma = strchr(c, ',');
		if (!comma)
			break;
		*comma = '\0';
		c = comma + 1;
	}
	return n;
}

/* The profiler's CSV column of each counter and its key in the snapshot. */
static const char *const g_work_cols[][2] = {
	{"input_vertices_per_frame", "vertices"},
	{"input_primitives_per_frame", "primitives"},
	{"vs_invocations_per_frame", "vs_invocations"},
	{"clipping_invocations_per_frame", "clip_in"},
	{"clipping_primitives_per_frame", "clip_out"},
	{"fs_invocations_per_frame", "fs_invocations"},
	{"cs_invocations_per_frame", "cs_invocations"},
};

/* Compares a work column: true when it is one (*diff set when the snapshot
 * disagrees, *counts counts the exact counts compared). */
static bool work_column(const cJSON *snap, const cJSON *row, const char *col, const char *val,
			bool *diff, int *counts)
{
	const cJSON *work = cJSON_GetObjectItem(row, "work");
	bool enabled = cJSON_IsTrue(cJSON_GetObjectItem(snap, "work_enabled"));
	char got[64];
	if (!strcmp(col, "work_frames")) {
		if (cJSON_IsObject(work))
			snprintf(got, sizeof got, "%.0f",
				 cJSON_GetObjectItem(work, "frames")->valuedouble);
		else
			snprintf(got, sizeof got, "%s", enabled ? "0" : "");
	} else {
		size_t k = 0;
		while (k < sizeof g_work_cols / sizeof *g_work_cols && strcmp(g_work_cols[k][0], col))
			k++;
		if (k == sizeof g_work_cols / sizeof *g_work_cols)
			return false;
		const cJSON *c = cJSON_GetObjectItem(cJSON_GetObjectItem(work, "counters"),
						     g_work_cols[k][1]);
		if (cJSON_IsObject(c)) {
			snprintf(got, sizeof got, "%.0f", cJSON_GetObjectItem(c, "avg")->valuedouble);
			++*counts;
		} else {
			snprintf(got, sizeof got, "%s", enabled ? "n/a" : "");
		}
	}
	*diff = strcmp(got, val) != 0;
	if (*diff)
		printf("%s %s: csv \"%s\", snapshot \"%s\"\n",
		       cJSON_GetStringValue(cJSON_GetObjectItem(row, "source")), col, val, got);
	return true;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: live_compare EXIT.csv SNAPSHOT.json\n");
		return 2;
	}
	FILE *f = fopen(argv[2], "rb");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	static char json[64 << 20];
	size_t n = fread(json, 1, sizeof json - 1, f);
	fclose(f);
	json[n] = '\0';
	cJSON *snap = cJSON_Parse(json);
	cJSON *sources = cJSON_GetObjectItem(snap, "sources");
	if (!cJSON_IsArray(sources)) {
		fprintf(stderr, "live_compare: %s is not a live snapshot\n", argv[2]);
		return 1;
	}
	const cJSON *prof = cJSON_GetObjectItem(snap, "profiler");
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	char line[8192], header[8192];
	char *names[MAX_COLS], *vals[MAX_COLS];
	int ncols = 0, rows = 0, diffs = 0, compared = 0, skipped = 0, queues = 0, counts = 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		if (!ncols) {
			snprintf(header, sizeof header, "%s", line);
			ncols = split(header, names);
			continue;
		}
		int nv = split(line, vals);
		if (nv != ncols) {
			fprintf(stderr, "live_compare: a row of %d columns under %d\n", nv, ncols);
			return 1;
		}
		rows++;
		const cJSON *row = NULL, *s;
		cJSON_ArrayForEach(s, sources)
			if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(s, "source")), vals[0]))
				row = s;
		if (!row) {
			printf("source %s: not in the snapshot\n", vals[0]);
			diffs++;
			continue;
		}
		for (int c = 1; c < ncols; c++) {
			const char *col = names[c];
			double want = atof(vals[c]), got;
			if (!strcmp(col, "gpu_mode")) {
				const char *mode = cJSON_GetStringValue(cJSON_GetObjectItem(prof, "gpu_mode"));
				if (!mode || strcmp(mode, vals[c])) {
					printf("%s gpu_mode: csv %s, snapshot %s\n", vals[0], vals[c], mode);
					diffs++;
				}
				compared++;
				continue;
			}
			bool diff;
			if (work_column(snap, row, col, vals[c], &diff, &counts)) {
				diffs += diff;
				compared++;
				continue;
			}
			if (!strcmp(col, "gpu_sum_by_queue_ns")) {
				const cJSON *qs = cJSON_GetObjectItem(row, "queues");
				if (!cJSON_IsArray(qs)) {
					skipped++;
					continue;
				}
				char got_q[1024] = "";
				size_t len = 0;
				const cJSON *q;
				cJSON_ArrayForEach(q, qs) {
					int w = snprintf(got_q + len, sizeof got_q - len, "%s%s:%.0f",
							 len ? ";" : "",
							 cJSON_GetStringValue(cJSON_GetObjectItem(q, "name")),
							 cJSON_GetObjectItem(q, "render_gpu_sum_ns")->valuedouble);
					if (w > 0 && (size_t)w < sizeof got_q - len)
						len += (size_t)w;
				}
				if (strcmp(got_q, vals[c])) {
					printf("%s %s: csv %s, snapshot %s\n", vals[0], col, vals[c], got_q);
					diffs++;
				}
				compared++;
				queues += strchr(vals[c], ';') != NULL;
				continue;
			}
			const cJSON *v = !strcmp(col, "gpu_resolution_ns")
						 ? cJSON_GetObjectItem(prof, col)
						 : cJSON_GetObjectItem(row, col);
			/* Medians and intervals are absent where the profiler gave none:
			 * the CSV writes 0 there. */
			got = cJSON_IsNumber(v) ? v->valuedouble : 0;
			if (strncmp(col, "async_input", 11) == 0) {
				skipped++;
				continue;
			}
			bool fps = strstr(col, "_fps") != NULL;
			if (fps ? fabs(got - want) > 0.0015 : got != want) {
				printf("%s %s: csv %s, snapshot %.3f\n", vals[0], col, vals[c], got);
				diffs++;
			}
			compared++;
		}
	}
	fclose(f);
	int have = 0;
	const cJSON *s;
	cJSON_ArrayForEach(s, sources)
		have += cJSON_IsTrue(cJSON_GetObjectItem(s, "have"));
	if (have != rows) {
		printf("the CSV has %d sources, the snapshot %d with figures\n", rows, have);
		diffs++;
	}
	/* With work counting on, the scene's draws were counted: counts were
	 * compared, or the comparison proved nothing. */
	if (cJSON_IsTrue(cJSON_GetObjectItem(snap, "work_enabled")) && !counts) {
		printf("work counting is on, yet no source has a work count\n");
		diffs++;
	}
	printf("%d sources, %d figures compared (%d sums on several queues, %d work counts), %d "
	       "differ (%d async input or per-queue figures not compared)\n",
	       rows, compared, queues, counts, diffs, skipped);
	cJSON_Delete(snap);
	return diffs || !rows ? 1 : 0;
}
