/* Screenshots: asked of the backend with the frame, written as PNG (stb)
 * once the frame finished. */
#include "core.h"

#include "engine/log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_UNUSED
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

/* Writes an RGBA8 image, top row first, as an opaque PNG; 1 on success,
 * 0 with the reason logged. The PNG is made in memory and written with
 * every call checked (stb's own file writer does not report a short
 * write): a full disk is said, and the part written is removed. */
static int write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
	int len = 0;
	unsigned char *png = stbi_write_png_to_mem(rgba, (int)w * 4, (int)w, (int)h, 4, &len);
	if (!png) {
		eng_error("cannot encode the screenshot %s (out of memory?)", path);
		return 0;
	}
	errno = 0;
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(png, 1, (size_t)len, f) == (size_t)len;
	int err = errno;
	if (f && fclose(f) != 0 && ok) {
		ok = false;
		err = errno;
	}
	STBIW_FREE(png);
	if (ok)
		return 1;
	struct stat st;
	if (f && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		remove(path); /* a cut PNG does not open */
	eng_error("cannot write %s: %s", path, err ? strerror(err) : "write failed");
	return 0;
}

void eng_screenshot_request(eng_engine *e, const char *path)
{
	snprintf(e->screenshot_path, sizeof e->screenshot_path, "%s", path);
	e->screenshot_wanted = true;
}

int eng_screenshot_poll(eng_engine *e)
{
	if (!e->screenshot_path[0])
		return 0;
	uint32_t w, h;
	const uint8_t *px = eng_gfx_read_screenshot(&w, &h);
	if (!px)
		return 0;
	int ok = write_png(e->screenshot_path, px, w, h);
	e->screenshot_path[0] = '\0';
	return ok ? 1 : -1;
}
