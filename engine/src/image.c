/* PNG output for screenshots (stb_image_write). */
#include "engine/log.h"
#include "engine_internal.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_UNUSED
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

/* Writes an RGBA8 image, top row first, as an opaque PNG; 1 on success. */
int eng_write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
	errno = 0;
	if (!stbi_write_png(path, (int)w, (int)h, 4, rgba, (int)w * 4)) {
		eng_error("cannot write %s: %s", path, errno ? strerror(errno) : "write failed");
		return 0;
	}
	return 1;
}
