/* The Vulkan backend's resource and frame state (vk_resources.c,
 * vk_gfx.c). */
#ifndef ENGINE_VK_GFX_H
#define ENGINE_VK_GFX_H

#include "../gfx_backend.h"
#include "vk_internal.h"
#include "vk_target.h"

#define VK_MAX_BUFFERS 4096
#define VK_MAX_IMAGES 4096
#define VK_MAX_PIPELINES 64
#define VK_MAX_MODULES 64
#define VK_MAX_POOLS 16
#define VK_RING_CHUNKS 16
#define VK_UNIFORM_MAX 256 /* bytes of one draw's uniform block */
#define VK_OFFSCREEN_FORMAT VK_FORMAT_R8G8B8A8_UNORM

typedef struct vk_buffer_res {
	VkBuffer buffer;
	vk_alloc mem;
	size_t size;
	bool index;
} vk_buffer_res;

typedef struct vk_image_res {
	vk_image_state state;
	VkImageView view;
	vk_alloc mem;
	VkDescriptorSet set;
	VkDescriptorPool set_pool;
	uint32_t width, height;
	eng_image_usage usage;
	bool needs_init;
} vk_image_res;

typedef struct vk_pipeline_res {
	eng_pipeline_desc desc;
	char vs[64], fs[64];
	VkPipeline pipeline;
} vk_pipeline_res;

typedef struct vk_ring_chunk {
	VkBuffer buffer;
	vk_alloc mem;
	VkDeviceSize size, used;
	VkDescriptorSet set; /* uniform rings: the dynamic UBO set of this chunk */
} vk_ring_chunk;

/* Host-visible memory a frame writes as it records: uniforms, transient
 * vertices, upload staging. Reset when the frame slot is reused. */
typedef struct vk_ring {
	vk_ring_chunk chunks[VK_RING_CHUNKS];
	uint32_t n, cur;
	VkBufferUsageFlags usage;
	VkDeviceSize first_size;
} vk_ring;

typedef struct vk_ring_slice {
	VkBuffer buffer;
	VkDeviceSize offset;
	uint8_t *ptr;
	VkDescriptorSet set;
} vk_ring_slice;

typedef struct vk_frame {
	VkCommandPool pool;
	VkCommandBuffer cmd;
	VkFence fence;
	VkSemaphore acquired;
	uint64_t serial; /* frame number last submitted from this slot, 0 if none */
	vk_ring uniforms, vertices, staging;
	VkBuffer readback;
	vk_alloc readback_mem;
	VkDeviceSize readback_size;
	uint64_t readback_serial; /* frame whose screenshot sits in readback */
} vk_frame;

typedef struct vk_deferred {
	uint64_t serial; /* destroy once this frame has completed */
	VkImage image;
	VkImageView view;
	VkBuffer buffer;
	VkDescriptorSet set;
	VkDescriptorPool set_pool;
	vk_alloc mem;
} vk_deferred;

typedef struct vk_gfx_state {
	bool ready;
	const char *shader_dir;
	VkFormat main_format, depth_format;
	VkDescriptorSetLayout ubo_layout, image_layout;
	VkPipelineLayout pipeline_layout;
	VkPipelineCache cache;
	VkSampler sampler;
	VkDescriptorPool pools[VK_MAX_POOLS];
	uint32_t n_pools;

	vk_buffer_res buffers[VK_MAX_BUFFERS];
	uint32_t n_buffers;
	vk_image_res images[VK_MAX_IMAGES];
	uint32_t n_images;
	bool pending_inits;
	vk_pipeline_res pipelines[VK_MAX_PIPELINES];
	uint32_t n_pipelines;
	struct {
		char name[64];
		VkShaderModule module;
	} modules[VK_MAX_MODULES];
	uint32_t n_modules;

	vk_deferred *deferred;
	uint32_t n_deferred, cap_deferred;

	vk_frame frames[VK_FIF];
	uint32_t slot;            /* frame slot being recorded */
	uint64_t serial_recorded; /* frames begun */
	uint64_t serial_done;     /* frames known complete */
	bool recording, in_pass, isolated;
	uint32_t swap_index;      /* swapchain image of this frame */
	vk_image_state *pass_color;
	eng_pipeline current_pipeline;
	bool screenshot_wanted;
	uint8_t *screenshot;
	uint32_t screenshot_w, screenshot_h;
	uint64_t screenshot_serial;
	bool device_lost;
} vk_gfx_state;

extern vk_gfx_state vg;

void vk_defer(vk_deferred d);
void vk_destroy_now(vk_deferred *d);
void vk_run_deferred(uint64_t completed);
eng_result vk_make_raw_buffer(VkDeviceSize size, VkBufferUsageFlags usage, bool host,
			      VkBuffer *buf, vk_alloc *mem);
eng_buffer vk_make_buffer(const void *data, size_t size, bool index);
void vk_destroy_buffer(eng_buffer h);
eng_image vk_make_image(uint32_t width, uint32_t height, eng_image_usage usage);
void vk_destroy_image(eng_image h);
vk_image_res *vk_image_get(eng_image h);
void vk_run_pending_inits(VkCommandBuffer cmd);
eng_result vk_ring_alloc(vk_ring *ring, VkDeviceSize size, VkDeviceSize align, vk_ring_slice *out);
void vk_ring_reset(vk_ring *ring);
void vk_ring_free(vk_ring *ring);
eng_pipeline vk_make_pipeline(const eng_pipeline_desc *desc);

#endif
