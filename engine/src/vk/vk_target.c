/* Swapchain and offscreen main targets. The swapchain survives resize,
 * minimize (no area: frames are skipped) and out-of-date. */
#include "vk_target.h"

#include <stdlib.h>
#include <string.h>

#include <GLFW/glfw3.h>

vk_target vt;

static eng_result make_image(uint32_t w, uint32_t h, VkFormat format, VkImageUsageFlags usage,
			     VkImageAspectFlags aspect, vk_target_image *out)
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
	VK_CHECK_RET(vkCreateImage(vk.device, &ci, NULL, &out->state.image));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(vk.device, out->state.image, &req);
	eng_result r = vk_mem_alloc(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &out->mem);
	if (r != ENG_OK)
		return r;
	VK_CHECK_RET(vkBindImageMemory(vk.device, out->state.image, out->mem.memory, out->mem.offset));
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = out->state.image,
		.viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = format,
		.subresourceRange = {aspect, 0, 1, 0, 1},
	};
	VK_CHECK_RET(vkCreateImageView(vk.device, &vci, NULL, &out->view));
	out->state.aspect = aspect;
	out->state.layout = VK_IMAGE_LAYOUT_UNDEFINED;
	out->state.stage = VK_PIPELINE_STAGE_2_NONE;
	out->state.access = VK_ACCESS_2_NONE;
	return ENG_OK;
}

static void free_image(vk_target_image *img)
{
	if (img->view)
		vkDestroyImageView(vk.device, img->view, NULL);
	if (img->mem.memory) {
		vkDestroyImage(vk.device, img->state.image, NULL);
		vk_mem_free(&img->mem);
	}
	if (img->rendered)
		vkDestroySemaphore(vk.device, img->rendered, NULL);
	memset(img, 0, sizeof *img);
}

eng_result vk_target_ensure_offscreen(void)
{
	if (vt.offscreen.view)
		return ENG_OK;
	return make_image(vt.extent.width, vt.extent.height, vt.format,
			  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
				  VK_IMAGE_USAGE_SAMPLED_BIT,
			  VK_IMAGE_ASPECT_COLOR_BIT, &vt.offscreen);
}

static eng_result make_depth(void)
{
	free_image(&vt.depth);
	return make_image(vt.extent.width, vt.extent.height, vt.depth_format,
			  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
			  &vt.depth);
}

static void free_swapchain_images(void)
{
	for (uint32_t i = 0; i < vt.n_images; i++) {
		vkDestroyImageView(vk.device, vt.images[i].view, NULL);
		vkDestroySemaphore(vk.device, vt.images[i].rendered, NULL);
		memset(&vt.images[i], 0, sizeof vt.images[i]);
	}
	vt.n_images = 0;
}

static VkPresentModeKHR pick_present_mode(bool vsync)
{
	if (vsync)
		return VK_PRESENT_MODE_FIFO_KHR;
	uint32_t n = 0;
	vkGetPhysicalDeviceSurfacePresentModesKHR(vk.physical, vt.surface, &n, NULL);
	VkPresentModeKHR modes[16];
	n = n > 16 ? 16 : n;
	vkGetPhysicalDeviceSurfacePresentModesKHR(vk.physical, vt.surface, &n, modes);
	VkPresentModeKHR best = VK_PRESENT_MODE_FIFO_KHR;
	for (uint32_t i = 0; i < n; i++) {
		if (modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR)
			return modes[i];
		if (modes[i] == VK_PRESENT_MODE_MAILBOX_KHR)
			best = modes[i];
	}
	return best;
}

bool vk_target_rebuild(void)
{
	if (vt.headless)
		return true;
	VkSurfaceCapabilitiesKHR caps;
	if (vkGetPhysicalDeviceSurfaceCapabilitiesKHR(vk.physical, vt.surface, &caps) < 0)
		return false;
	VkExtent2D extent = caps.currentExtent;
	if (extent.width == UINT32_MAX) {
		int w, h;
		glfwGetFramebufferSize(vt.window, &w, &h);
		extent = (VkExtent2D){(uint32_t)w, (uint32_t)h};
	}
	if (extent.width == 0 || extent.height == 0)
		return false; /* minimized */
	uint32_t count = caps.minImageCount + 1;
	if (caps.maxImageCount && count > caps.maxImageCount)
		count = caps.maxImageCount;
	vt.present_mode = pick_present_mode(vt.vsync);
	VkSwapchainKHR old = vt.swapchain;
	VkSwapchainCreateInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
		.surface = vt.surface,
		.minImageCount = count,
		.imageFormat = vt.format,
		.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
		.imageExtent = extent,
		.imageArrayLayers = 1,
		.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
		.preTransform = caps.currentTransform,
		.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
		.presentMode = vt.present_mode,
		.clipped = VK_TRUE,
		.oldSwapchain = old,
	};
	VkSwapchainKHR sc;
	if (vkCreateSwapchainKHR(vk.device, &ci, NULL, &sc) < 0) {
		eng_error("vulkan: cannot create a %ux%u swapchain", extent.width, extent.height);
		return false;
	}
	free_swapchain_images();
	if (old)
		vkDestroySwapchainKHR(vk.device, old, NULL);
	vt.swapchain = sc;
	uint32_t n = 0;
	vkGetSwapchainImagesKHR(vk.device, sc, &n, NULL);
	n = n > 8 ? 8 : n;
	VkImage images[8];
	vkGetSwapchainImagesKHR(vk.device, sc, &n, images);
	for (uint32_t i = 0; i < n; i++) {
		vk_target_image *t = &vt.images[i];
		t->state = (vk_image_state){.image = images[i], .aspect = VK_IMAGE_ASPECT_COLOR_BIT};
		VkImageViewCreateInfo vci = {
			.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
			.image = images[i],
			.viewType = VK_IMAGE_VIEW_TYPE_2D,
			.format = vt.format,
			.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
		};
		VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
		if (vkCreateImageView(vk.device, &vci, NULL, &t->view) < 0 ||
		    vkCreateSemaphore(vk.device, &sci, NULL, &t->rendered) < 0)
			return false;
	}
	vt.n_images = n;
	bool resized = extent.width != vt.extent.width || extent.height != vt.extent.height;
	vt.extent = extent;
	if (resized || !vt.depth.view) {
		if (make_depth() != ENG_OK)
			return false;
		free_image(&vt.offscreen);
	}
	vt.out_of_date = false;
	return true;
}

static VkFormat pick_depth_format(void)
{
	VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT,
				 VK_FORMAT_D16_UNORM};
	for (int i = 0; i < 3; i++) {
		VkFormatProperties p;
		vkGetPhysicalDeviceFormatProperties(vk.physical, candidates[i], &p);
		if (p.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)
			return candidates[i];
	}
	return VK_FORMAT_UNDEFINED;
}

eng_result vk_target_init(const eng_gfx_desc *desc)
{
	memset(&vt, 0, sizeof vt);
	vt.headless = desc->headless;
	vt.vsync = desc->vsync;
	vt.window = desc->window;
	vt.depth_format = pick_depth_format();
	if (vt.depth_format == VK_FORMAT_UNDEFINED) {
		eng_error("vulkan: the device has no depth attachment format");
		return ENG_ERR_NO_DEVICE;
	}
	if (vt.headless) {
		/* UNORM, like the windowed path and the GL backend, so screenshots
		 * of the two APIs compare byte for byte. */
		vt.format = VK_FORMAT_R8G8B8A8_UNORM;
		vt.extent = (VkExtent2D){desc->width, desc->height};
		eng_result r = vk_target_ensure_offscreen();
		if (r != ENG_OK)
			return r;
		return make_depth();
	}
	if (glfwCreateWindowSurface(vk.instance, desc->window, NULL, &vt.surface) < 0) {
		eng_error("vulkan: cannot create a surface for the window");
		return ENG_ERR_SURFACE;
	}
	VkBool32 supported = VK_FALSE;
	vkGetPhysicalDeviceSurfaceSupportKHR(vk.physical, vk.queue_family, vt.surface, &supported);
	if (!supported) {
		eng_error("vulkan: the graphics queue cannot present to this window");
		return ENG_ERR_SURFACE;
	}
	uint32_t n = 0;
	vkGetPhysicalDeviceSurfaceFormatsKHR(vk.physical, vt.surface, &n, NULL);
	VkSurfaceFormatKHR formats[32];
	n = n > 32 ? 32 : n;
	vkGetPhysicalDeviceSurfaceFormatsKHR(vk.physical, vt.surface, &n, formats);
	vt.format = VK_FORMAT_UNDEFINED;
	for (uint32_t i = 0; i < n; i++) {
		if ((formats[i].format == VK_FORMAT_B8G8R8A8_UNORM ||
		     formats[i].format == VK_FORMAT_R8G8B8A8_UNORM) &&
		    formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
			vt.format = formats[i].format;
			break;
		}
	}
	if (vt.format == VK_FORMAT_UNDEFINED) {
		eng_error("vulkan: the window offers no 8-bit UNORM format");
		return ENG_ERR_SURFACE;
	}
	vt.extent = (VkExtent2D){desc->width, desc->height};
	if (!vk_target_rebuild())
		vt.out_of_date = true; /* e.g. started minimized: retried each frame */
	return ENG_OK;
}

void vk_target_shutdown(void)
{
	if (!vk.device)
		return;
	free_swapchain_images();
	if (vt.swapchain)
		vkDestroySwapchainKHR(vk.device, vt.swapchain, NULL);
	free_image(&vt.offscreen);
	free_image(&vt.depth);
	if (vt.surface)
		vkDestroySurfaceKHR(vk.instance, vt.surface, NULL);
	memset(&vt, 0, sizeof vt);
}
