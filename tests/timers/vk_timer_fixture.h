/* What test_vk_timer's files share: a Vulkan instance and device under
 * the validation layer (any message counts), per-slot pools, command
 * buffers and fences, a srcprof_vk_timer on them, the profiler's log kept,
 * and a frame of timestamps only. */
#ifndef VK_TIMER_FIXTURE_H
#define VK_TIMER_FIXTURE_H

#include "srcprof/source_profiler.h"
#include "srcprof/vulkan.h"

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#define MAX_SRC 256

typedef struct vk_rig {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	VkPhysicalDevice gpu;
	VkDevice device;
	VkQueue queue;
	uint32_t family;
	VkCommandPool pools[4];
	VkCommandBuffer cmds[4][2]; /* per slot: two command buffers */
	VkFence fences[4];
	uint32_t fif;
	uint64_t frame;
	uint32_t messages;
	srcprof_vk_timer *timer;
	bool calibrated; /* the device was created with calibrated timestamps */
} vk_rig;

extern vk_rig V;

/* setup() enables VK_EXT/KHR_calibrated_timestamps where the device has it. */
extern bool g_want_calibrated;
extern bool g_want_stats; /* the device enables pipelineStatisticsQuery */

/* The sources frames tick and time, and what the profiler logged. */
extern int sources[MAX_SRC];
extern char log_text[8192];

/* The profiler's log callback appending to log_text; how often `needle`
 * occurs in it. */
void on_log(int level, const char *msg, void *user);
int log_count(const char *needle);

/* Instance, device (with hostQueryReset when asked), per-slot pools,
 * command buffers and fences; the profiler fresh, with `fif` frames in
 * flight. */
bool setup(bool host_reset, uint32_t fif);
/* The timer on the rig's device, installed as the profiler's backend. */
srcprof_vk_timer *make_timer(bool host_reset, uint32_t fif);
/* Tears down; returns the validation messages seen. */
uint32_t teardown(void);

typedef struct frame_opts {
	uint32_t sources;   /* ticked and timed */
	bool split;         /* the second half of the renders in a second command buffer */
	bool no_begin;      /* the renderer forgets srcprof_vk_timer_begin_frame */
	bool early_begin;   /* ... calls it before source_profiler_frame_begin */
	bool null_cmd;      /* ... points stamps at no command buffer half-way */
} frame_opts;

/* One frame of `o.sources` sources, submitted and collected. */
void frame(frame_opts o);

/* A source's GPU sample count. */
uint32_t gpu_samples(const void *s);

/* What flushed timing records, seen through the module's own function
 * loading: the stamps' stages and the event commands. On lavapipe (a CPU
 * device) every stamp is TOP_OF_PIPE and followed by a wait; told that
 * the device is a discrete GPU, flushed mode records no event and closes
 * every stamp at BOTTOM_OF_PIPE (a wait there orders nothing). */
typedef struct vk_recorder {
	PFN_vkGetPhysicalDeviceProperties props;
	PFN_vkCmdWriteTimestamp stamp;
	PFN_vkCmdWaitEvents wait;
	PFN_vkCmdSetEvent set;
	PFN_vkCreateEvent create_event;
	PFN_vkGetPhysicalDeviceFeatures features;
	bool as_gpu, no_stats;
	uint32_t top, bottom, waits, sets, events;
} vk_recorder;

extern vk_recorder R;

/* The module's function loaders (its desc's get_instance_proc_addr and
 * get_device_proc_addr) that record through R. */
PFN_vkVoidFunction VKAPI_CALL rec_gipa(VkInstance inst, const char *name);
PFN_vkVoidFunction VKAPI_CALL rec_gdpa(VkDevice dev, const char *name);

static inline source_profiler_stats_t stats(void)
{
	source_profiler_stats_t st;
	source_profiler_get_stats(&st);
	return st;
}

#endif
