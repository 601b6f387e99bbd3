/* What the Vulkan timer's files share (vk_timer.c makes and destroys the
 * timer; vk_timer_record.c writes its queries into command buffers;
 * vk_timer_read.c reads them back onto the profiler's clock): the timer's
 * one struct, its function table, and the calls between the files.
 * Private to timers/vulkan: the library exports only srcprof/vulkan.h. */
#ifndef SRCPROF_VK_TIMER_INTERNAL_H
#define SRCPROF_VK_TIMER_INTERNAL_H

#include "srcprof/source_profiler.h"
#include "srcprof/vulkan.h"

#define MAX_SLOTS SOURCE_PROFILER_MAX_FRAMES_IN_FLIGHT
#define CALIBRATE_EVERY_NS 1000000000ull

typedef struct vk_fns {
	PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
	PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties;
	PFN_vkCreateQueryPool CreateQueryPool;
	PFN_vkDestroyQueryPool DestroyQueryPool;
	PFN_vkResetQueryPool ResetQueryPool; /* host reset; NULL without */
	PFN_vkCmdResetQueryPool CmdResetQueryPool;
	PFN_vkCmdWriteTimestamp CmdWriteTimestamp;
	PFN_vkGetQueryPoolResults GetQueryPoolResults;
	PFN_vkGetCalibratedTimestampsEXT GetCalibratedTimestamps; /* NULL without */
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT GetTimeDomains;
	PFN_vkCreateEvent CreateEvent;   /* flushed mode */
	PFN_vkDestroyEvent DestroyEvent;
	PFN_vkCmdSetEvent CmdSetEvent;
	PFN_vkCmdWaitEvents CmdWaitEvents;
	PFN_vkGetPhysicalDeviceFeatures GetPhysicalDeviceFeatures; /* work counters */
	PFN_vkCmdBeginQuery CmdBeginQuery;
	PFN_vkCmdEndQuery CmdEndQuery;
} vk_fns;

typedef struct vk_slot {
	VkQueryPool pool;
	uint32_t capacity;  /* stamps */
	VkEvent event;      /* flushed: set at the frame's start, waited after each stamp */
	uint64_t event_frame; /* armed_frame of the frame that last set it; 0: none */
	bool reset_pending; /* created and not reset yet (no host reset) */
	bool opened;        /* its last frame range opened: it has stamps to read */
	uint64_t cpu_open_ns; /* profiler clock when the frame range opened */
	uint64_t opened_frame; /* armed_frame of that frame */
	VkQueryPool work_pool; /* pipeline statistics, a query per timer; 0: none */
	uint32_t work_sets;    /* its queries */
} vk_slot;

struct srcprof_vk_timer {
	vk_fns fn;
	VkDevice device;
	const VkAllocationCallbacks *alloc;
	bool flushed, host_reset;
	uint32_t n_slots;
	vk_slot slots[MAX_SLOTS];
	VkCommandBuffer cmd;
	uint64_t armed_frame; /* profiler frame index begin_frame prepared + 1; 0: none */
	uint64_t opened_frame; /* frame index + 1 whose range opened last; 0: none */
	bool early;           /* begin_frame came after its frame's range opened */
	uint32_t armed_slot;
	bool frame_open;      /* stamps go into cmd */
	uint64_t *results;    /* value, availability pairs */
	uint32_t results_cap; /* stamps */
	uint64_t valid_mask;
	double period_ns;
	int64_t offset_ns;  /* GPU ns + offset = profiler clock */
	uint64_t offset_at; /* when it was last calibrated (or its window began) */
	int64_t window_max; /* uncalibrated: the largest bound this window */
	bool have_offset, have_window;
	bool warned_unarmed, warned_slots;
	/* Work counters: the statistics a query counts (work_stats, in the
	 * order of source_profiler_counter's bits in work_map), and the
	 * read-back of a slot's queries, each its values then availability. */
	VkQueryPipelineStatisticFlags work_stats;
	uint32_t work_n;                          /* statistics per query */
	uint8_t work_map[SOURCE_PROFILER_COUNTERS]; /* value i: counter work_map[i] */
	uint64_t *work_results;
	uint32_t work_results_cap; /* queries */
	sp_gpu_timer_backend backend;
};

/* --- recording (vk_timer_record.c): the sp_gpu_timer_backend calls that
 * write into command buffers ---------------------------------------------- */

uint32_t vk_timer_reserve(void *user, uint32_t slot, uint32_t queries);
void vk_timer_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind);
void vk_timer_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query, sp_gpu_stamp kind);
void vk_timer_frame_open(void *user, uint32_t slot);
void vk_timer_work_begin(void *user, void *cmd, uint32_t slot, uint32_t index);
void vk_timer_work_end(void *user, void *cmd, uint32_t slot, uint32_t index);

/* --- reading back (vk_timer_read.c): the calls that read, and the clock -- */

sp_gpu_read vk_timer_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns);
sp_gpu_read vk_timer_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
			       uint8_t *avail);
sp_gpu_read vk_timer_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
			       uint8_t *avail);
int64_t vk_timer_offset(void *user);
/* GPU -> profiler clock from calibrated (device, CLOCK_MONOTONIC) pairs;
 * on failure the offset is measured from the frames from then on. */
void vk_timer_calibrate(srcprof_vk_timer *t);
/* The device offers both domains vk_timer_calibrate reads. */
bool vk_timer_can_calibrate(const srcprof_vk_timer *t, VkPhysicalDevice gpu);

#endif
