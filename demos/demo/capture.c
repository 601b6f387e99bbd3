/* Capture names and the record of what a file measured (capture.h). */
#include "capture.h"
#include "srcprof_base/json.h"

#include "engine/gfx.h"
#include "srcprof/clock.h"
#include "srcprof/export.h"
#include "srcprof/source_profiler.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef SRCPROF_VERSION
#error "SRCPROF_VERSION comes from CMake (the project's version)"
#endif
#include "srcprof_git_revision.h" /* SRCPROF_GIT_REVISION, generated at build time */

/* More captures of one kind in one second than this is not a person
 * pressing a key: give up rather than loop. */
#define CAPTURE_MAX_SEQ 9999

void capture_format_time(time_t t, char *buf, size_t size)
{
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%S%z", &tm))
		snprintf(buf, size, "%lld", (long long)t);
}

FILE *capture_open(const char *dir, const char *kind, const char *ext, char *path, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32] = "00000000-000000";
	if (localtime_r(&now, &tm))
		strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	for (unsigned seq = 1; seq <= CAPTURE_MAX_SEQ; seq++) {
		int len = snprintf(path, size, "%s/srcprof-%s-%s-%03u.%s", dir, kind, stamp, seq, ext);
		if (len < 0 || (size_t)len >= size) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		/* "x": C11's exclusive create, so a name is never reused. */
		FILE *f = fopen(path, "wx");
		if (f || errno != EEXIST)
			return f;
	}
	errno = EEXIST;
	return NULL;
}

bool capture_has_overlay(void)
{
	profiler_result_t r;
	return source_profiler_fill_result(eng_overlay_key(), &r);
}

int capture_sources(int rows)
{
	return rows > 0 && capture_has_overlay() ? rows - 1 : rows;
}

/* The record as "key: value" lines, each after `prefix`. */
static void record(FILE *f, const capture_meta *m, const char *prefix)
{
	eng_gfx_info info;
	eng_gfx_get_info(&info);
	char started[40], written[40];
	capture_format_time(m->started, started, sizeof started);
	capture_format_time(time(NULL), written, sizeof written);
	fprintf(f, "%sprogram: srcprof-demo %s (git %s)\n", prefix, SRCPROF_VERSION,
		SRCPROF_GIT_REVISION);
	fprintf(f, "%sscene: %s, %u sources\n", prefix, m->scene, m->sources);
	fprintf(f, "%sapi: %s\n", prefix, info.api);
	fprintf(f, "%sdevice: %s%s\n", prefix, info.device, info.software ? " (software)" : "");
	if (info.raster_threads >= 0)
		fprintf(f, "%srasterizer threads: %d\n", prefix, info.raster_threads);
	fprintf(f, "%sdriver: %s\n", prefix, info.driver);
	if (m->gpu_on)
		fprintf(f, "%sgpu timing: %s, 1 frame in %u GPU-timed\n", prefix, info.gpu_timing,
			m->gpu_every);
	else
		fprintf(f, "%sgpu timing: off\n", prefix);
	fprintf(f, "%sclock: %s\n", prefix, srcprof_clock_source());
	fprintf(f, "%srun started: %s\n", prefix, started);
	fprintf(f, "%swritten: %s\n", prefix, written);
	fprintf(f, "%sframe: %llu\n", prefix, (unsigned long long)m->frame);
}

void capture_write_csv_header(FILE *f, const capture_meta *m, const char *what)
{
	fprintf(f, "# srcprof-demo %s\n", what);
	record(f, m, "# ");
	fprintf(f, "# units: each column name ends in its unit: _ns nanoseconds, _fps frames per "
		   "second, _s seconds\n");
}

/* The record's lines as a JSON object: {"program":"...",...}. */
static void record_json(FILE *f, const capture_meta *m)
{
	char buf[2048];
	FILE *mem = fmemopen(buf, sizeof buf, "w");
	if (!mem) {
		fputs("{}", f);
		return;
	}
	record(mem, m, "");
	fputc('\0', mem);
	fclose(mem);
	buf[sizeof buf - 1] = '\0';
	fputc('{', f);
	bool first = true;
	for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strstr(line, ": ");
		if (!colon)
			continue;
		*colon = '\0';
		if (!first)
			fputc(',', f);
		first = false;
		json_string(f, line);
		fputc(':', f);
		json_string(f, colon + 2);
	}
	fputc('}', f);
}

int capture_write_trace(FILE *f, const capture_meta *m)
{
	/* The profiler writes the whole JSON object; the record goes in as
	 * its first key. */
	FILE *tmp = tmpfile();
	if (!tmp)
		return source_profiler_trace_write_json(f);
	int rc = source_profiler_trace_write_json(tmp);
	if (rc == 0 && fseek(tmp, 0, SEEK_SET) == 0 && fgetc(tmp) == '{') {
		fputs("{\"metadata\":", f);
		record_json(f, m);
		fputc(',', f);
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, tmp)) > 0)
			if (fwrite(buf, 1, n, f) != n)
				rc = -1;
		if (ferror(tmp))
			rc = -1;
	} else {
		rc = -1;
	}
	fclose(tmp);
	if (fflush(f) != 0 || ferror(f))
		rc = -1;
	return rc;
}

static uint32_t crc32_png(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return c ^ 0xffffffffu;
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

bool capture_note_png(const char *path, const capture_meta *m)
{
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	/* Signature, then IHDR: length 13, type, data, CRC. */
	enum { IHDR_END = 8 + 4 + 4 + 13 + 4 };
	/* A pipe or a device (--screenshot /dev/stdout) is not read back. */
	struct stat st;
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return true;
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	bool ok = false;
	unsigned char *png = NULL, *chunk = NULL;
	long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (size < IHDR_END || fseek(f, 0, SEEK_SET) != 0 || !(png = malloc((size_t)size)) ||
	    fread(png, 1, (size_t)size, f) != (size_t)size || memcmp(png, sig, 8) != 0 ||
	    memcmp(png + 12, "IHDR", 4) != 0) {
		fclose(f);
		free(png);
		return false;
	}
	fclose(f);

	char text[2048];
	FILE *mem = fmemopen(text, sizeof text, "w");
	if (mem) {
		fputs("Comment", mem);
		fputc('\0', mem);
		fputs("srcprof-demo screenshot\n", mem);
		record(mem, m, "");
		long len = ftell(mem);
		fclose(mem);
		size_t data = len > 0 && (size_t)len < sizeof text ? (size_t)len : 0;
		chunk = data ? malloc(data + 12) : NULL;
		if (chunk) {
			put_be32(chunk, (uint32_t)data);
			memcpy(chunk + 4, "tEXt", 4);
			memcpy(chunk + 8, text, data);
			put_be32(chunk + 8 + data, crc32_png(chunk + 4, data + 4));
			/* Written beside it and renamed over it, so that a
			 * failure leaves the screenshot as it was. */
			char tmp[1100];
			snprintf(tmp, sizeof tmp, "%s.tmp", path);
			FILE *out = fopen(tmp, "wb");
			if (out) {
				ok = fwrite(png, 1, IHDR_END, out) == IHDR_END &&
				     fwrite(chunk, 1, data + 12, out) == data + 12 &&
				     fwrite(png + IHDR_END, 1, (size_t)size - IHDR_END, out) ==
					     (size_t)size - IHDR_END;
				ok = fclose(out) == 0 && ok && rename(tmp, path) == 0;
				if (!ok)
					remove(tmp);
			}
		}
	}
	free(chunk);
	free(png);
	return ok;
}
