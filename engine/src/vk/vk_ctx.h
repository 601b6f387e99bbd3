/* The Vulkan backend's context, vk_ctx: the device, the main target, the
 * resources and the frames, made by vk_init (vk_gfx.c) and handed to every
 * function of the backend. vk_resources.c makes the objects and knows
 * which frames are done, vk_frame.c runs the frames (submit, present,
 * screenshots, isolated timing), vk_draw.c records passes and draws;
 * vk_gfx.c is the dispatch table over them. A header of its own (no
 * vk_ctx.c), so that the files share the context without calling up into
 * the table. */
#ifndef ENGINE_VK_CTX_H
#define ENGINE_VK_CTX_H

#include "../gfx/faults.h"
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
	VkDescriptorSet set; /* storage buffers: compute's set of it (vk_compute.c) */
	VkDescriptorPool set_pool;
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

/* Where draws are recorded: the frame's command buffer (the context's
 * own), or a recorder's secondary one on the thread recording it. */
typedef struct vk_rec {
	VkCommandBuffer cmd;
	bool in_pass;
	bool pipeline_bound; /* in this pass */
	bool indexed;        /* the vertices applied last came with indices */
	vk_ring *uniforms, *vertices;
} vk_rec;

/* A recorder of the passes recorded by several threads: per frame slot, a
 * pool of its own (one thread at a time uses it), reset with the frame, a
 * secondary command buffer for each such pass of the frame (a primary
 * that executed one must not see it rerecorded), and rings of its own. */
#define VK_MAX_PARALLEL_PASSES 16
typedef struct vk_recorder {
	VkCommandPool pool;
	VkCommandBuffer cmds[VK_MAX_PARALLEL_PASSES];
	uint32_t n_cmds; /* allocated */
	uint32_t used;   /* recorded in this frame */
	VkCommandBuffer cmd; /* of the pass being recorded */
	vk_ring uniforms, vertices;
	vk_rec rec;
	bool begun; /* in the pass being recorded */
} vk_recorder;

typedef struct vk_frame {
	VkCommandPool pool;
	VkCommandBuffer cmd;
	VkCommandBuffer compute_cmd; /* with compute: submitted before cmd */
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
	/* The faults this device runs under (faults.h, gfx.c's), and the
	 * timer as the profiler is given it, under them (NULL: no timer). */
	eng_faults *faults;
	eng_fault_timer fault_timer;
	const sp_gpu_timer_backend *gpu_timer;
	/* Compute (vk_compute.c): on when asked for and the queue has it;
	 * its command buffer's own timer (NULL without timestamps). */
	bool compute;
	bool compute_frame; /* the slot's compute command buffer is recording */
	bool compute_open;  /* between begin_compute and end_compute */
	srcprof_vk_timer *compute_timer;
	VkDescriptorSetLayout storage_layout;
	VkPipelineLayout compute_layout;
	VkDescriptorPool storage_pool;
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
	bool recording, isolated;
	vk_rec rec;               /* the frame's own recording */
	uint32_t swap_index;      /* swapchain image of this frame */
	vk_image_state *pass_color;
	/* The pass being recorded by several threads: how many recorders,
	 * and what their secondaries inherit. 0: recorded inline. */
	uint32_t parallel;
	VkFormat pass_format, pass_depth_format;
	VkViewport pass_viewport;
	VkRect2D pass_scissor;
	vk_recorder recorders[VK_FIF][ENG_GFX_MAX_RECORDERS];
	/* Ring chunks, memory and descriptor sets made while recorders run:
	 * one at a time. */
	pthread_mutex_t alloc_lock;
	bool screenshot_wanted;
	uint8_t *screenshot;
	uint32_t screenshot_w, screenshot_h;
	bool device_lost;
};

/* The recording of the calling thread: a recorder's between its begin and
 * end (vk_draw.c), else the frame's. */
vk_rec *vk_rec_of(vk_ctx *c);

/* The command buffer being recorded on the calling thread (vk_draw.c). */
VkCommandBuffer vk_cmd(vk_ctx *c);

/* vk_resources.c */
void vk_defer(vk_ctx *c, vk_deferred d);
void vk_destroy_now(vk_ctx *c, vk_deferred *d);
void vk_run_deferred(vk_ctx *c, uint64_t completed);
/* Frames up to `serial` are done: their deferred destructions run. */
void vk_frames_done(vk_ctx *c, uint64_t serial);
/* Waits until every frame submitted is done and marks them so; otherwise
 * the error, said (a loss also marks the device lost). */
eng_result vk_wait_idle(vk_ctx *c, const char *why);
eng_result vk_make_raw_buffer(vk_ctx *c, VkDeviceSize size, VkBufferUsageFlags usage, bool host,
			      VkBuffer *buf, vk_alloc *mem);
eng_result vk_make_buffer(void *ctx, eng_buffer h, const eng_buffer_desc *desc);
void vk_destroy_buffer(void *ctx, eng_buffer h);
eng_result vk_make_image(void *ctx, eng_image h, const eng_image_desc *desc);
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
/* The shader module of <dir>/<name>.vk.spv, made once; VK_NULL_HANDLE
 * (said) when missing or rejected. */
VkShaderModule vk_shader_module(vk_ctx *c, const char *name);

/* vk_compute.c: compute; the table entries are the backend's. */
eng_result vk_init_compute(vk_ctx *c, const eng_gfx_desc *desc);
void vk_init_compute_timer(vk_ctx *c, const srcprof_vk_timer_desc *desc);
void vk_free_compute(vk_ctx *c);
eng_result vk_compute_frame_begin(vk_ctx *c);
VkCommandBuffer vk_compute_frame_end(vk_ctx *c);
bool vk_has_compute(void *ctx);
const sp_gpu_timer_backend *vk_compute_timer(void *ctx);
eng_result vk_make_storage(void *ctx, eng_buffer h, const eng_buffer_desc *desc);
eng_result vk_make_compute(void *ctx, eng_pipeline h, const char *cs);
bool vk_begin_compute(void *ctx);
void vk_dispatch(void *ctx, eng_pipeline pip, eng_buffer a, eng_buffer b, const void *push,
		 size_t size, uint32_t groups);
void vk_end_compute(void *ctx);
void *vk_compute_cmd(void *ctx);

/* vk_frame.c: frames; the table entries are the backend's. */
eng_result vk_init_frames(vk_ctx *c);
void vk_free_frames(vk_ctx *c);
bool vk_begin_frame(void *ctx);
eng_result vk_end_frame(void *ctx);
eng_result vk_wait_frame(void *ctx, uint32_t frames_back);
void vk_request_screenshot(void *ctx);
const uint8_t *vk_read_screenshot(void *ctx, uint32_t *width, uint32_t *height);
eng_result vk_time_isolated(void *ctx, void (*fn)(void *user), void *user, uint64_t *ns);
eng_result vk_count_isolated(void *ctx, void (*fn)(void *user), void *user, uint32_t counted,
			     uint64_t *counts);

/* vk_draw.c: passes, draws and uploads. */
void vk_begin_pass(void *ctx, const eng_pass_desc *desc);
void vk_end_pass(void *ctx);
void vk_apply_pipeline(void *ctx, eng_pipeline pip);
void vk_apply_uniforms(void *ctx, const void *data, size_t size);
void vk_apply_vertices(void *ctx, eng_buffer vertices, eng_buffer indices);
void vk_apply_transient_vertices(void *ctx, const void *data, size_t size);
void vk_apply_image(void *ctx, eng_image h);
void vk_draw(void *ctx, uint32_t first, uint32_t count, uint32_t instances);
uint32_t vk_recorders(void *ctx);
void vk_recorder_begin(void *ctx, uint32_t i);
void vk_recorder_end(void *ctx, uint32_t i);
void *vk_recorder_cmd(void *ctx, uint32_t i);
void vk_update_image(void *ctx, eng_image h, const void *rgba);

#endif
