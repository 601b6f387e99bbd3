/* Functions shared by the engine's own files (not its API, not a backend's
 * dispatch: see gfx_backend.h for that). */
#ifndef ENGINE_INTERNAL_H
#define ENGINE_INTERNAL_H

#include <stdint.h>

/* image.c: writes an RGBA8 image, top row first, as an opaque PNG; 1 on
 * success, 0 with the reason logged. */
int eng_write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h);

/* sanitizer.c: in ASan builds, keeps every loaded library mapped until exit
 * (LeakSanitizer then names the driver a leak is in); elsewhere nothing. */
void eng_pin_loaded_libraries(void);

#endif
