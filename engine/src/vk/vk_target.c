/* Swapchain and offscreen main targets. The swapchain survives resize,
 * minimize (no area: frames are skipped) and out-of-date. */
#include "vk_ctx.h"

#include "../platform/window.h"

#include <stdlib.h>
#include <string.h>

static eng_result make_image(vk_ctx *c, uint32_t w, uint32_t h, VkFormat format,
			     VkImageUsageFlags usage, VkImageAspectFlags aspect,
			     vk_target_image *out)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = format,
		.extent = {w, h, 1},
		.mipLevels = 1,
		.arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = usage,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
	memset(out, 0, sizeof *out);
	VK_CHECK_RET(vkCreateImage(c->dev.device, &ci, NULL, &out->state.image));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(c->dev.device, out->state.image, &req);
	eng_result r = vk_mem_alloc(c, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &out->mem);
	if (r != ENG_OK)
		return r;
	VK_CHECK_RET(vkBindImageMemory(c->dev.device, out->state.image, out->mem.memory, out->mem.offset));
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = out->state.image,
		.viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = format,
		.subresourceRange = {aspect, 0, 1, 0, 1},
	};
	VK_CHECK_RET(vkCreateImageView(c->dev.device, &vci, NULL, &out->view));
	out->state.aspect = aspect;
	out->state.layout = VK_IMAGE_LAYOUT_UNDEFINED;
	out->state.stage = VK_PIPELINE_STAGE_2_NONE;
	out->state.access = VK_ACCESS_2_NONE;
	return ENG_OK;
}

static void free_image(vk_ctx *c, vk_target_image *img)
{
	if (img->view)
		vkDestroyImageView(c->dev.device, img->view, NULL);
	if (img->mem.memory) {
		vkDestroyImage(c->dev.device, img->state.image, NULL);
		vk_mem_free(c, &img->mem);
	}
	if (img->rendered)
		vkDestroySemaphore(c->dev.device, img->rendered, NULL);
	memset(img, 0, sizeof *img);
}

eng_result vk_target_ensure_offscreen(vk_ctx *c)
{
	vk_target *t = &c->target;
	if (t->offscreen.view)
		return ENG_OK;
	return make_image(c, t->extent.width, t->extent.height, t->format,
			  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
				  VK_IMAGE_USAGE_SAMPLED_BIT,
			  VK_IMAGE_ASPECT_COLOR_BIT, &t->offscreen);
}

static eng_result make_depth(vk_ctx *c)
{
	vk_target *t = &c->target;
	free_image(c, &t->depth);
	return make_image(c, t->extent.width, t->extent.height, t->depth_format,
			  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
			  &t->depth);
}

static void free_swapchain_images(vk_ctx *c)
{
	vk_target *t = &c->target;
	for (uint32_t i = 0; i < t->n_images; i++) {
		vkDestroyImageView(c->dev.device, t->images[i].view, NULL);
		vkDestroySemaphore(c->dev.device, t->images[i].rendered, NULL);
		memset(&t->images[i], 0, sizeof t->images[i]);
	}
	t->n_images = 0;
}

static VkPresentModeKHR pick_present_mode(vk_ctx *c, bool vsync)
{
	vk_target *t = &c->target;
	if (vsync)
		return VK_PRESENT_MODE_FIFO_KHR;
	uint32_t n = 0;
	vkGetPhysicalDeviceSurfacePresentModesKHR(c->dev.physical, t->surface, &n, NULL);
	VkPresentModeKHR modes[16];
	n = n > 16 ? 16 : n;
	vkGetPhysicalDeviceSurfacePresentModesKHR(c->dev.physical, t->surface, &n, modes);
	VkPresentModeKHR best = VK_PRESENT_MODE_FIFO_KHR;
	for (uint32_t i = 0; i < n; i++) {
		if (modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR)
			return modes[i];
		if (modes[i] == VK_PRESENT_MODE_MAILBOX_KHR)
			best = modes[i];
	}
	return best;
}

bool vk_target_rebuild(vk_ctx *c)
{
	vk_target *t = &c->target;
	if (t->headless)
		return true;
	VkSurfaceCapabilitiesKHR caps;
	if (vkGetPhysicalDeviceSurfaceCapabilitiesKHR(c->dev.physical, t->surface, &caps) < 0)
		return false;
	VkExtent2D extent = caps.currentExtent;
	if (extent.width == UINT32_MAX)
		eng_window_framebuffer_size(t->window, &extent.width, &extent.height);
	if (extent.width == 0 || extent.height == 0)
		return false; /* minimized */
	uint32_t count = caps.minImageCount + 1;
	if (caps.maxImageCount && count > caps.maxImageCount)
		count = caps.maxImageCount;
	t->present_mode = pick_present_mode(c, t->vsync);
	VkSwapchainKHR old = t->swapchain;
	VkSwapchainCreateInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
		.surface = t->surface,
		.minImageCount = count,
		.imageFormat = t->format,
		.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
		.imageExtent = extent,
		.imageArrayLayers = 1,
		.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
		.preTransform = caps.currentTransform,
		.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
		.presentMode = t->present_mode,
		.clipped = VK_TRUE,
		.oldSwapchain = old,
	};
	VkSwapchainKHR sc;
	if (vkCreateSwapchainKHR(c->dev.device, &ci, NULL, &sc) < 0) {
		eng_error("vulkan: cannot create a %ux%u swapchain", extent.width, extent.height);
		return false;
	}
	free_swapchain_images(c);
	if (old)
		vkDestroySwapchainKHR(c->dev.device, old, NULL);
	t->swapchain = sc;
	uint32_t n = 0;
	vkGetSwapchainImagesKHR(c->dev.device, sc, &n, NULL);
	n = n > 8 ? 8 : n;
	VkImage images[8];
	vkGetSwapchainImagesKHR(c->dev.device, sc, &n, images);
	for (uint32_t i = 0; i < n; i++) {
		vk_target_image *img = &t->images[i];
		img->state = (vk_image_state){.image = images[i], .aspect = VK_IMAGE_ASPECT_COLOR_BIT};
		VkImageViewCreateInfo vci = {
			.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
			.image = images[i],
			.viewType = VK_IMAGE_VIEW_TYPE_2D,
			.format = t->format,
			.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
		};
		VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
		if (vkCreateImageView(c->dev.device, &vci, NULL, &img->view) < 0 ||
		    vkCreateSemaphore(c->dev.device, &sci, NULL, &img->rendered) < 0)
			return false;
	}
	t->n_images = n;
	bool resized = extent.width != t->extent.width || extent.height != t->extent.height;
	t->extent = extent;
	if (resized || !t->depth.view) {
		if (make_depth(c) != ENG_OK)
			return false;
		free_image(c, &t->offscreen);
	}
	t->out_of_date = false;
	return true;
}

static VkFormat pick_depth_format(vk_ctx *c)
{
	VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT,
				 VK_FORMAT_D16_UNORM};
	for (int i = 0; i < 3; i++) {
		VkFormatProperties p;
		vkGetPhysicalDeviceFormatProperties(c->dev.physical, candidates[i], &p);
		if (p.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)
			return candidates[i];
	}
	return VK_FORMAT_UNDEFINED;
}

eng_result vk_target_init(vk_ctx *c, const eng_gfx_desc *desc, eng_window *window)
{
	vk_target *t = &c->target;
	t->headless = window == NULL;
	t->vsync = desc->vsync;
	t->window = window;
	t->depth_format = pick_depth_format(c);
	if (t->depth_format == VK_FORMAT_UNDEFINED) {
		eng_error("vulkan: the device has no depth attachment format");
		return ENG_ERR_NO_DEVICE;
	}
	if (t->headless) {
		/* UNORM, like the windowed path and the GL backend, so screenshots
		 * of the two APIs compare byte for byte. */
		t->format = VK_FORMAT_R8G8B8A8_UNORM;
		t->extent = (VkExtent2D){desc->width, desc->height};
		eng_result r = vk_target_ensure_offscreen(c);
		if (r != ENG_OK)
			return r;
		return make_depth(c);
	}
	if (eng_window_vk_surface(window, c->dev.instance, &t->surface) < 0) {
		eng_error("vulkan: cannot create a surface for the window");
		return ENG_ERR_SURFACE;
	}
	VkBool32 supported = VK_FALSE;
	vkGetPhysicalDeviceSurfaceSupportKHR(c->dev.physical, c->dev.queue_family, t->surface, &supported);
	if (!supported) {
		eng_error("vulkan: the graphics queue cannot present to this window");
		return ENG_ERR_SURFACE;
	}
	uint32_t n = 0;
	vkGetPhysicalDeviceSurfaceFormatsKHR(c->dev.physical, t->surface, &n, NULL);
	VkSurfaceFormatKHR formats[32];
	n = n > 32 ? 32 : n;
	vkGetPhysicalDeviceSurfaceFormatsKHR(c->dev.physical, t->surface, &n, formats);
	t->format = VK_FORMAT_UNDEFINED;
	for (uint32_t i = 0; i < n; i++) {
		if ((formats[i].format == VK_FORMAT_B8G8R8A8_UNORM ||
		     formats[i].format == VK_FORMAT_R8G8B8A8_UNORM) &&
		    formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
			t->format = formats[i].format;
			break;
		}
	}
	if (t->format == VK_FORMAT_UNDEFINED) {
		eng_error("vulkan: the window offers no 8-bit UNORM format");
		return ENG_ERR_SURFACE;
	}
	t->extent = (VkExtent2D){desc->width, desc->height};
	if (!vk_target_rebuild(c))
		t->out_of_date = true; /* e.g. started minimized: retried each frame */
	return ENG_OK;
}

void vk_target_shutdown(vk_ctx *c)
{
	vk_target *t = &c->target;
	if (!c->dev.device)
		return;
	free_swapchain_images(c);
	if (t->swapchain)
		vkDestroySwapchainKHR(c->dev.device, t->swapchain, NULL);
	free_image(c, &t->offscreen);
	free_image(c, &t->depth);
	if (t->surface)
		vkDestroySurfaceKHR(c->dev.instance, t->surface, NULL);
	memset(t, 0, sizeof *t);
}

/* The color target of the frame being recorded: the offscreen one when
 * headless or in an isolated timing, else the acquired swapchain image. */
vk_target_image *vk_main_color(vk_ctx *c)
{
	if (c->target.headless || c->isolated)
		return &c->target.offscreen;
	return &c->target.images[c->swap_index];
}
