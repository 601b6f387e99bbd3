/* A Vulkan renderer on volk: <volk.h> first (it defines VK_NO_PROTOTYPES
 * and includes vulkan.h), then srcprof's header, which needs only the
 * types. The other order works when VK_NO_PROTOTYPES is defined before
 * both (srcprof/vulkan.h says so). Compiled by the install test. */
#include <volk.h>

#include <srcprof/source_profiler.h>
#include <srcprof/vulkan.h>

int main(void)
{
	/* volk's vkGetInstanceProcAddr is a function pointer, set by
	 * volkInitialize; it is what the desc takes. */
	srcprof_vk_timer_desc desc = {.get_instance_proc_addr = vkGetInstanceProcAddr};
	return srcprof_vk_timer_create(&desc) == NULL ? 0 : 1;
}
