/* ASan builds only: the timer tests load the drivers themselves (the
 * Vulkan loader dlopens lavapipe, libEGL dlopens Mesa and LLVM) and the
 * loaders unload them when the instance or display goes away, before
 * LeakSanitizer reports at exit. A leak inside an unloaded library shows as
 * "<unknown module>" and cannot be told from ours or suppressed by name.
 * The engine pins its loaded libraries before shutting down
 * (engine/src/platform/process.c); these tests have no such place, so dlclose is a
 * no-op in them: every library stays mapped and reports name it. */
#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
int dlclose(void *handle);

int dlclose(void *handle)
{
	(void)handle;
	return 0;
}
#endif
