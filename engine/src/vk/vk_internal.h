/* State shared by the Vulkan backend's files. Only engine/src/vk includes
 * volk. */
#ifndef ENGINE_VK_INTERNAL_H
#define ENGINE_VK_INTERNAL_H

#include "engine/gfx.h"
#include "engine/log.h"

#include <volk.h>

#include "srcprof/vulkan.h"

#include <stdbool.h>
#include <stdint.h>

#define VK_FIF ENG_FRAMES_IN_FLIGHT

/* Tiered checks (after niagara): VK_CHECK_RET logs and returns the mapped
 * engine error from the calling function. */
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

typedef struct vk_alloc {
	VkDeviceMemory memory;
	VkDeviceSize offset, size;
	void *mapped; /* host-visible blocks are mapped once */
	uint32_t block;
} vk_alloc;

eng_result vk_mem_alloc(VkMemoryRequirements req, VkMemoryPropertyFlags props, vk_alloc *out);
void vk_mem_free(vk_alloc *a);
void vk_mem_shutdown(void);

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
} vk_device;

extern vk_device vk;

eng_result vk_device_init(const eng_gfx_desc *desc, bool need_surface);
void vk_device_shutdown(void);
uint32_t vk_messages(void);

/* --- GPU timer: the public srcprof::vulkan module ------------------------------ */

/* Created by vk_init when the queue has timestamps; NULL otherwise. */
extern srcprof_vk_timer *vk_timer;

#endif
