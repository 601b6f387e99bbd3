/* srcprof's header before <volk.h>: VK_NO_PROTOTYPES defined first, as
 * volk asks of anything that includes vulkan.h before it. Compiled by the
 * install test. */
#define VK_NO_PROTOTYPES
#include <srcprof/vulkan.h>

#include <volk.h>

int main(void)
{
	return srcprof_vk_timer_create(NULL) == NULL && vkGetInstanceProcAddr == NULL ? 0 : 1;
}
