/* The Vulkan backend's context, vk_ctx: the device, the main target, the
 * resources and the frames, made by vk_init (vk_gfx.c) and handed to every
 * function of the backend. vk_resources.c makes the objects, vk_frame.c
 * runs the frames (submit, present, screenshots, isolated timing),
 * vk_draw.c records passes and draws. */
#ifndef ENGINE_VK_GFX_H
#define ENGINE_VK_GFX_H

#include "../gfx/gfx_backend.h"
#include "vk_internal.h"
#include "vk_target.h"

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

struct vk_ctx {
	vk_device dev;
	vk_mem_block *blocks[VK_MAX_BLOCKS];
	vk_target target;
	/* The public srcprof::vulkan module; NULL where the queue has no
	 * timestamps (GPU timing stays off). */
	srcprof_vk_timer *timer;
	const char *shader_dir;
	VkFormat main_format, depth_format;
	VkDescriptorSetLayout ubo_layout, image_layout;
	VkPipelineLayout pipeline_layout;
	VkPipelineCache cache;
	VkSampler sampler;
	VkDescriptorPool pools[VK_MAX_POOLS];
	uint32_t n_pools;

	/* Indexed by handle slot (eng_handle_slot); slots below the high
	 * water marks have been used. */
	vk_buffer_res buffers[ENG_GFX_MAX_BUFFERS];
	vk_image_res images[ENG_GFX_MAX_IMAGES];
	uint32_t buffer_slots, image_slots;
	bool pending_inits; /* an image waits for its first clear */
	VkPipeline pipelines[ENG_GFX_MAX_PIPELINES];
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
	bool pipeline_bound; /* in this pass */
	bool indexed;        /* the vertices applied last came with indices */
	bool screenshot_wanted;
	uint8_t *screenshot;
	uint32_t screenshot_w, screenshot_h;
	bool device_lost;
};

/* The command buffer being recorded. */
static inline VkCommandBuffer vk_cmd(const vk_ctx *c)
{
	return c->frames[c->slot].cmd;
}

/* vk_resources.c */
void vk_defer(vk_ctx *c, vk_deferred d);
void vk_destroy_now(vk_ctx *c, vk_deferred *d);
void vk_run_deferred(vk_ctx *c, uint64_t completed);
eng_result vk_make_raw_buffer(vk_ctx *c, VkDeviceSize size, VkBufferUsageFlags usage, bool host,
			      VkBuffer *buf, vk_alloc *mem);
eng_result vk_make_buffer(void *ctx, eng_buffer h, const void *data, size_t size, bool index);
void vk_destroy_buffer(void *ctx, eng_buffer h);
eng_result vk_make_image(void *ctx, eng_image h, uint32_t width, uint32_t height,
			 eng_image_usage usage);
void vk_destroy_image(void *ctx, eng_image h);
/* Every object still made (teardown), deferred until the GPU is done. */
void vk_destroy_all(vk_ctx *c);
/* The slot's image (the handle is live: gfx.c checked). */
static inline vk_image_res *vk_image_at(vk_ctx *c, eng_image h)
{
	return &c->images[eng_handle_slot(h.id)];
}
void vk_run_pending_inits(vk_ctx *c, VkCommandBuffer cmd);
eng_result vk_ring_alloc(vk_ctx *c, vk_ring *ring, VkDeviceSize size, VkDeviceSize align,
			 vk_ring_slice *out);
void vk_ring_reset(vk_ring *ring);
void vk_ring_free(vk_ctx *c, vk_ring *ring);
eng_result vk_make_pipeline(void *ctx, eng_pipeline h, const eng_pipeline_desc *desc);

/* vk_frame.c: frames; the table entries are the backend's. */
eng_result vk_init_frames(vk_ctx *c);
void vk_free_frames(vk_ctx *c);
/* Waits until every frame submitted is done and marks them so; otherwise
 * the error, said (a loss also marks the device lost). */
eng_result vk_wait_idle(vk_ctx *c, const char *why);
bool vk_begin_frame(void *ctx);
eng_result vk_end_frame(void *ctx);
eng_result vk_wait_frame(void *ctx, uint32_t frames_back);
void vk_request_screenshot(void *ctx);
const uint8_t *vk_read_screenshot(void *ctx, uint32_t *width, uint32_t *height);
eng_result vk_time_isolated(void *ctx, void (*fn)(void *user), void *user, uint64_t *ns);
/* The color target of the frame being recorded. */
vk_target_image *vk_main_color(vk_ctx *c);

/* vk_draw.c: passes, draws and uploads. */
void vk_begin_pass(void *ctx, const eng_pass_desc *desc);
void vk_end_pass(void *ctx);
void vk_apply_pipeline(void *ctx, eng_pipeline pip);
void vk_apply_uniforms(void *ctx, const void *data, size_t size);
void vk_apply_vertices(void *ctx, eng_buffer vertices, eng_buffer indices);
void vk_apply_transient_vertices(void *ctx, const void *data, size_t size);
void vk_apply_image(void *ctx, eng_image h);
void vk_draw(void *ctx, uint32_t first, uint32_t count, uint32_t instances);
void vk_update_image(void *ctx, eng_image h, const void *rgba);

#endif
