/* What the process does for the drivers: glibc malloc pinned for their
 * per-frame blocks (eng_pin_allocator, engine/engine.h), and in ASan builds
 * their libraries kept mapped.
 *
 * ASan builds only: drivers (the Vulkan ICD, Mesa's GL, LLVM) are loaded
 * with dlopen and unloaded at shutdown, before LeakSanitizer reports; their
 * allocations would show as "<unknown module>" and could not be told from
 * ours. Pinning every loaded library keeps them mapped, so reports name
 * the library and tests/lsan.supp can exclude third-party ones by name. */
#define _GNU_SOURCE
#include "process.h"

#include "engine/engine.h"

#include <malloc.h>
#include <stddef.h>

void eng_pin_allocator(void)
{
	/* The largest mmap threshold glibc accepts on 64-bit (32 MiB), and a
	 * heap top that is never given back. */
	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
	mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
	/* One arena for every thread: the drivers' queue and rasterizer
	 * threads otherwise get arenas of their own, which grow and shrink
	 * their heaps page by page whatever the thresholds above say, and
	 * each page given back and taken again is a page fault in the frame
	 * (docs/known-limits.md has what that cost lavapipe). Call before any
	 * thread starts. */
	mallopt(M_ARENA_MAX, 1);
}

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>

static int pin(struct dl_phdr_info *info, size_t size, void *user)
{
	(void)size;
	(void)user;
	if (info->dlpi_name && info->dlpi_name[0])
		dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
	return 0;
}

void eng_pin_loaded_libraries(void)
{
	dl_iterate_phdr(pin, NULL);
}
#else
void eng_pin_loaded_libraries(void)
{
}
#endif
