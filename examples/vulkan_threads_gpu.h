/* vulkan_threads' Vulkan side, none of it about profiling: the instance
 * (with validation), the device and the queue compute goes to, the
 * offscreen target and its render pass, the objects' pipeline, the
 * simulation's particle buffer and pipeline, rings of command buffers per
 * frame slot, and the commands a frame records. vulkan_threads.c records
 * them on its threads and profiles them. */
#ifndef EXAMPLES_VULKAN_THREADS_GPU_H
#define EXAMPLES_VULKAN_THREADS_GPU_H

#include "common.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <vulkan/vulkan.h>

#define FIF 3            /* frames in flight */
#define PARTICLES 65536
#define SIM_GROUP 64     /* sim.comp's local_size_x */
#define SIM_LOOPS 48     /* sub-steps per frame: about a large object's cost on lavapipe */

#define VK(call)                                                                          \
	do {                                                                              \
		VkResult r_ = (call);                                                     \
		if (r_ != VK_SUCCESS) {                                                   \
			fprintf(stderr, "vulkan_threads: %s failed (%d)\n", #call, (int)r_); \
			exit(1);                                                          \
		}                                                                         \
	} while (0)

/* Primary command buffers, their pools and fences, one per frame slot and
 * one more for work timed alone. */
typedef struct vt_ring {
	VkCommandPool pools[FIF + 1];
	VkCommandBuffer cmds[FIF + 1];
	VkFence fences[FIF + 1];
} vt_ring;

typedef struct vt_gpu {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	VkPhysicalDevice gpu;
	VkDevice device;
	VkQueue queue, compute_queue; /* the same queue where the device has one */
	uint32_t family, compute_family;
	const char *compute_where;
	VkImage image;
	VkDeviceMemory memory;
	VkImageView view;
	VkRenderPass pass;
	VkFramebuffer framebuffer;
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkBuffer particles;
	VkDeviceMemory particle_memory;
	VkDescriptorSetLayout set_layout;
	VkDescriptorPool descriptor_pool;
	VkDescriptorSet set;
	VkPipelineLayout sim_layout;
	VkPipeline sim_pipeline;
	vt_ring graphics, compute;
	atomic_uint messages; /* validation messages; the layer calls back on any thread */
	atomic_uint known;    /* SRCPROF_VK_FALSE_POSITIVE_WAIT_EVENTS, skipped */
	char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
} vt_gpu;

extern vt_gpu vt;

/* Creates everything above and clears the particles; exits with a message
 * when the machine has no Vulkan device (or, validating, no layer).
 * --validate: the Khronos layer with synchronization validation (its
 * queue-submit checks too) and best practices; every message counts. */
void vt_open(bool validate);
/* Destroys it all; the device must be idle. */
void vt_close(void);

/* Waits for the slot's last use of the ring, resets its pool, and begins
 * its command buffer (one-time submit). */
VkCommandBuffer vt_begin(vt_ring *r, int slot);
/* Ends the slot's command buffer and submits it to `queue` with its fence. */
void vt_submit(VkQueue queue, vt_ring *r, int slot);
/* Begins the render pass (cleared) on the target. */
void vt_begin_pass(VkCommandBuffer cmd, VkSubpassContents contents);
/* Draws `obj` with the objects' pipeline (bound by the caller). */
void vt_draw(VkCommandBuffer cmd, const ex_object *obj);
/* Orders the last simulation step's writes before the next step. */
void vt_sim_barrier(VkCommandBuffer cmd);
/* One simulation step of `dt`: binds the pipeline and dispatches. */
void vt_dispatch(VkCommandBuffer cmd, float dt);

#endif
