/* The main render target: a swapchain (windowed) or an offscreen image
 * (headless), plus the depth buffer. vk_target.c. */
#ifndef ENGINE_VK_TARGET_H
#define ENGINE_VK_TARGET_H

#include "vk_internal.h"

typedef struct vk_target_image {
	vk_image_state state;
	VkImageView view;
	vk_alloc mem; /* offscreen images only */
	VkSemaphore rendered; /* swapchain images: signalled when drawn */
} vk_target_image;

typedef struct vk_target {
	bool headless;
	VkSurfaceKHR surface;
	VkSwapchainKHR swapchain;
	VkFormat format;
	VkExtent2D extent;
	VkPresentModeKHR present_mode;
	vk_target_image images[8];
	uint32_t n_images;
	vk_target_image offscreen; /* headless main target; isolated timing when windowed */
	vk_target_image depth;
	VkFormat depth_format;
	bool vsync;
	bool out_of_date;
	eng_window *window; /* NULL when headless */
} vk_target;

/* The swapchain for `window`, or the offscreen target when it is NULL. */
eng_result vk_target_init(vk_ctx *c, const eng_gfx_desc *desc, eng_window *window);
void vk_target_shutdown(vk_ctx *c);
/* Rebuilds the swapchain (and depth) for the current window size; false
 * while the window has no area. Device must be idle. */
bool vk_target_rebuild(vk_ctx *c);
/* An offscreen image of the main target's size and format (headless main
 * target, or windowed isolated timing). */
eng_result vk_target_ensure_offscreen(vk_ctx *c);
/* The color target of the frame being recorded (vk_ctx's target, the
 * swapchain image acquired or the offscreen one). */
vk_target_image *vk_main_color(vk_ctx *c);

#endif
