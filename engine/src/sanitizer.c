/* ASan builds only: drivers (the Vulkan ICD, Mesa's GL, LLVM) are loaded
 * with dlopen and unloaded at shutdown, before LeakSanitizer reports; their
 * allocations would show as "<unknown module>" and could not be told from
 * ours. Pinning every loaded library keeps them mapped, so reports name
 * the library and tests/lsan.supp can exclude third-party ones by name. */
#define _GNU_SOURCE
#include "engine_internal.h"

#include <stddef.h>

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
