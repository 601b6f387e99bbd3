/* Screenshots: asked of the backend with the frame, written as PNG (stb)
 * once the frame finished. */
#include "core.h"

#include "engine/log.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_UNUSED
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

/* Writes an RGBA8 image, top row first, as an opaque PNG; 1 on success,
 * 0 with the reason logged. */
static int write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
	errno = 0;
	if (!stbi_write_png(path, (int)w, (int)h, 4, rgba, (int)w * 4)) {
		eng_error("cannot write %s: %s", path, errno ? strerror(errno) : "write failed");
		return 0;
	}
	return 1;
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
