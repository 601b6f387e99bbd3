/* Types shared by the Vulkan backend's files. Only engine/src/vk includes
 * volk. The backend's state is one vk_ctx (vk_ctx.h), made by vk_init and
 * handed to every function that needs it; nothing lives outside it. */
#ifndef ENGINE_VK_INTERNAL_H
#define ENGINE_VK_INTERNAL_H

#include "engine/gfx.h"
#include "engine/log.h"

#include <volk.h>

#include "srcprof/vulkan.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define VK_FIF ENG_FRAMES_IN_FLIGHT

typedef struct vk_ctx vk_ctx;
typedef struct eng_window eng_window;

/* Tiered checks (after niagara; the tiers are engine/src/misuse.h's):
 * - programmer errors (misuse of engine/gfx.h: a stale handle, a call in
 *   the wrong state, a count out of range) are caught by the dispatch
 *   layer before a backend sees them, with ENG_MISUSE: logged and refused
 *   in release builds, an abort where SRCPROF_ENGINE_ASSERTS is on (the
 *   `debug` preset);
 * - environment failures (driver, device, memory, files) are VkResults:
 *   VK_CHECK_RET logs the call and the result and returns the mapped
 *   eng_result from the calling function, never aborting;
 * - results that are states, not failures (VK_NOT_READY, VK_TIMEOUT,
 *   VK_SUBOPTIMAL_KHR, VK_ERROR_OUT_OF_DATE_KHR from acquire and present)
 *   are handled where they come back, without these macros. */
const char *vk_result_str(VkResult r);
eng_result vk_to_eng(VkResult r);
#define VK_CHECK_RET(call)                                                                \
	do {                                                                              \
		VkResult vk_r_ = (call);                                                  \
		if (vk_r_ < 0) {                                                          \
			eng_error("%s failed: %s", #call, vk_result_str(vk_r_));          \
			return vk_to_eng(vk_r_);                                          \
		}                                                                         \
	} while (0)

/* --- memory (vk_mem.c): sub-allocation from 32 MiB blocks ------------------- */

#define VK_MAX_BLOCKS 256

typedef struct vk_mem_block vk_mem_block;

typedef struct vk_alloc {
	VkDeviceMemory memory;
	VkDeviceSize offset, size;
	void *mapped; /* host-visible blocks are mapped once */
	uint32_t block;
} vk_alloc;

eng_result vk_mem_alloc(vk_ctx *c, VkMemoryRequirements req, VkMemoryPropertyFlags props,
			vk_alloc *out);
void vk_mem_free(vk_ctx *c, vk_alloc *a);
/* Frees every block (the device must be idle). */
void vk_mem_shutdown(vk_ctx *c);

/* --- images with tracked state (barriers come from the last use) -------------- */

typedef struct vk_image_state {
	VkImage image;
	VkImageAspectFlags aspect;
	VkImageLayout layout;
	VkPipelineStageFlags2 stage;
	VkAccessFlags2 access;
} vk_image_state;

/* Records a barrier moving `s` to layout/stage/access (sync2). A layout of
 * VK_IMAGE_LAYOUT_UNDEFINED as `discard` drops the contents. */
void vk_transition(VkCommandBuffer cmd, vk_image_state *s, VkImageLayout layout,
		   VkPipelineStageFlags2 stage, VkAccessFlags2 access, bool discard);

/* --- device (vk_device.c) ---------------------------------------------------- */

typedef struct vk_device {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	VkPhysicalDevice physical;
	VkPhysicalDeviceProperties props;
	VkPhysicalDeviceMemoryProperties mem_props;
	VkDevice device;
	VkQueue queue;
	uint32_t queue_family;
	uint32_t timestamp_valid_bits;
	bool calibrated_timestamps;
	bool validate;
	char driver[520];
	/* Validation messages counted (the messenger's user data points
	 * here: it also hears instance creation and destruction). */
	_Atomic uint32_t messages;
} vk_device;

/* Makes the instance (with the window system's surface extensions when
 * `window` is given), picks the device and makes the logical device. On
 * failure what was made stays in *dev for vk_device_shutdown. */
eng_result vk_device_init(vk_device *dev, const eng_gfx_desc *desc, eng_window *window);
/* The last wait before the device goes (its failure said, not returned). */
void vk_device_finish(vk_device *dev);
/* Destroys the device and instance; memory blocks must be freed before
 * (vk_device_finish, vk_mem_shutdown). The message count stays. */
void vk_device_shutdown(vk_device *dev);

#endif
