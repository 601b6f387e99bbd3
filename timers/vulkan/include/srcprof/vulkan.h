/*
 * srcprof/vulkan.h - GPU timers for the source profiler in any Vulkan
 * renderer (library srcprof::vulkan, pkg-config srcprof-vulkan).
 *
 * It implements the profiler's GPU timer interface (srcprof/gpu_timer.h)
 * with timestamp queries: a query pool per frame slot, reset at the start of
 * the slot's next frame, read back frames later with availability and never
 * waiting. It needs nothing from the renderer but its device handles and a
 * way to load Vulkan functions (the loader, volk, or the renderer's own
 * dispatch), and it records into the command buffer the renderer names.
 *
 * It does not submit, wait on the host, create command buffers, or touch the
 * renderer's dispatch tables (flushed mode on a CPU device records
 * vkCmdWaitEvents, below). It does not enable device features or
 * extensions: say in the desc what the device was created with.
 *
 * It needs only Vulkan's types: with volk, include <volk.h> first (or
 * define VK_NO_PROTOTYPES before this header), as volk asks of anything
 * that includes vulkan.h before it.
 *
 * Use (the lines a renderer adds):
 *
 *     srcprof_vk_timer *t = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
 *             .instance = instance, .physical_device = gpu, .device = device,
 *             .queue_family = graphics_family});
 *     source_profiler_set_gpu_backend(srcprof_vk_timer_backend(t));
 *     source_profiler_enable(true);
 *     source_profiler_gpu_enable(true);
 *
 *     every frame: source_profiler_frame_begin(); ticks ...
 *                  vkBeginCommandBuffer(cmd, ...);
 *                  srcprof_vk_timer_begin_frame(t, cmd);   // outside any render pass
 *                  source_profiler_render_begin();
 *                  ... render_begin / draw / render_end per source, in or out of
 *                      render passes, in this or (after set_cmd) other primary
 *                      command buffers (not in a multiview subpass or
 *                      multiview dynamic rendering: a stamp there takes one
 *                      query per view and would overwrite the next stamp's)
 *                  source_profiler_render_end();
 *                  submit; wait for the frame (frames in flight - 1) back;
 *                  source_profiler_frame_collect();
 *
 *     at the end:  source_profiler_set_gpu_backend(NULL); srcprof_vk_timer_destroy(t);
 *
 * Timing modes (srcprof_gpu_timing): plain writes TOP_OF_PIPE stamps where
 * a timer begins and BOTTOM_OF_PIPE stamps where it ends. Flushed (auto's
 * choice on VK_PHYSICAL_DEVICE_TYPE_CPU devices such as lavapipe) writes
 * every stamp at TOP_OF_PIPE followed by a vkCmdWaitEvents on an event that
 * begin_frame sets (one per frame slot): lavapipe bins recorded work into
 * scenes that its rasterizer threads run after a flush, and executes the
 * wait as a flush and a wait for those threads, so each stamp reads when
 * the work before it is done and the work after it starts only then. Each
 * wait costs a fixed amount, which the profiler measures with empty timers
 * and subtracts, and flushed timers are costly, so the profiler GPU-times
 * one frame in N (source_profiler_gpu_set_budget). docs/gpu-timing.md has
 * the measurements behind this. Those waits mean something only on a CPU
 * device, and need a queue family with graphics or compute: flushed mode
 * forced elsewhere writes every stamp at BOTTOM_OF_PIPE, without events
 * (each stamp then reads after the work before it, as on any GPU).
 *
 * Order matters in flushed mode: the command buffer given to begin_frame
 * sets the event that later stamps wait on, so it must be submitted first,
 * on the one queue all the frame's stamps are submitted to. Submitted after
 * a command buffer with stamps (or on another queue), that command buffer
 * waits on an event no one has set yet: the queue stalls (a device loss on
 * a GPU, a hang on lavapipe).
 *
 * Threads and queues. A renderer that records on several threads names, on
 * each thread, the command buffer its renders' stamps go into with
 * source_profiler_set_command_buffer(queue, cmd): a primary command buffer
 * of its own, or a secondary one executed inside a render pass (a render
 * pass object or dynamic rendering). Stamps are written from all of those
 * threads at once, each into its own command buffer, and read one by one:
 * a command buffer submitted late, or never, costs only its own renders
 * their GPU samples for that frame. Submit every command buffer with
 * stamps after the one given to begin_frame, on this timer's queue. In
 * flushed mode the stamps wait on the frame's event in secondary command
 * buffers too (a CPU device runs them inline). For another queue (async
 * compute; transfer where timestampValidBits is above 0) create a timer
 * with that queue's family, install it with source_profiler_add_gpu_queue
 * (srcprof/gpu_timer.h), call srcprof_vk_timer_begin_frame for it each
 * frame with the first command buffer submitted to that queue, and name
 * that queue's command buffers with the number add_gpu_queue returned. A
 * second timer for command buffers of their own on the same queue (compute
 * dispatches before the graphics work) is such a queue for the profiler.
 * Create, begin_frame and destroy run on the graphics thread; the
 * profiler calls the rest.
 *
 * The Khronos validation layer of Debian 12 (1.3.239) reports flushed
 * mode's waits in secondary command buffers as
 * VUID-vkCmdWaitEvents-srcStageMask-parameter ("... but instead is 0x0"):
 * it does not carry the stage mask of an event set in the primary into the
 * secondaries executed after it (Vulkan-ValidationLayers issue 4544; the
 * check was rewritten upstream in 2026, as VUID-...-01158). The wait is
 * valid; a debug messenger may skip that message id,
 * SRCPROF_VK_FALSE_POSITIVE_WAIT_EVENTS, as this project's engine and
 * tests do (only flushed timing, only software devices, records it).
 */
#ifndef SRCPROF_VULKAN_H
#define SRCPROF_VULKAN_H

#include "srcprof/api.h"
#include "srcprof/gpu_timer.h"

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The validation layer's message id for the false positive above. */
#define SRCPROF_VK_FALSE_POSITIVE_WAIT_EVENTS 0x3cbdb1dbu

/* Zero means default for every field. */
typedef struct srcprof_vk_timer_desc {
	VkInstance instance;              /* required */
	VkPhysicalDevice physical_device; /* required */
	VkDevice device;                  /* required */
	uint32_t queue_family;            /* the family of the queue the frames are submitted to */
	/* How to load Vulkan functions. 0: the loader's vkGetInstanceProcAddr
	 * (from the process, else libvulkan.so.1). With volk, pass
	 * vkGetInstanceProcAddr after volkInitialize(). */
	PFN_vkGetInstanceProcAddr get_instance_proc_addr;
	/* 0: loaded through get_instance_proc_addr. */
	PFN_vkGetDeviceProcAddr get_device_proc_addr;
	/* Frame slots; 0: source_profiler_frames_in_flight() at create. Must
	 * match what the profiler runs with. */
	uint32_t frames_in_flight;
	srcprof_gpu_timing timing; /* 0: auto (flushed on CPU devices, else plain) */
	/* The device was created with hostQueryReset enabled (Vulkan 1.2's
	 * VkPhysicalDeviceVulkan12Features or VK_EXT_host_query_reset): queries
	 * are then reset from the host. Else (0) begin_frame records
	 * vkCmdResetQueryPool. Either way begin_frame stays outside a render
	 * pass: in flushed mode it records vkCmdSetEvent, which a render pass
	 * does not allow either (VUID-vkCmdSetEvent-renderpass). */
	bool host_query_reset;
	/* The device was created with VK_EXT_calibrated_timestamps (or the KHR
	 * one) enabled, which the renderer does itself: the extension in
	 * VkDeviceCreateInfo, on an instance of Vulkan 1.1 or more (or 1.0
	 * with VK_KHR_get_physical_device_properties2, which it depends on).
	 * GPU stamps are then placed on the CPU clock for traces with it (the
	 * tightest of 5 tries, refreshed once a second): a trace's GPU events
	 * sit under the CPU work that recorded them. It changes no duration.
	 * Else (0) the offset is measured from the frames' own stamps: the
	 * smallest that puts every GPU frame start after its CPU render_begin,
	 * which places GPU events up to the frame's recording time early. */
	bool calibrated_timestamps;
	const VkAllocationCallbacks *allocator; /* 0: the driver's */
	/* Work counters (source_profiler_work_enable in srcprof/source_profiler.h):
	 * the device was created with VkPhysicalDeviceFeatures'
	 * pipelineStatisticsQuery enabled, which the renderer does itself.
	 * Each render is then bracketed by a pipeline statistics query
	 * (vkCmdBeginQuery / vkCmdEndQuery, right inside its timestamps) on a
	 * pool per frame slot, reset with the timestamps and read without
	 * waiting: input vertices and primitives, vertex shader invocations,
	 * clipping invocations and primitives, fragment and compute shader
	 * invocations - on a compute-only queue family compute invocations
	 * alone (the others need a graphics queue). A device without the
	 * feature: one line, nothing counted. Rules the renderer keeps while
	 * work is counted (Vulkan's for queries): a render begun inside a
	 * render pass instance ends inside it (and one begun outside ends
	 * outside); no multiview render pass (it would need a query per
	 * view); a render on the graphics thread does not span set_cmd or
	 * vkCmdExecuteCommands (an active query there needs inheritedQueries):
	 * record into a secondary with source_profiler_set_command_buffer
	 * instead. 0: no queries besides the timestamps. */
	bool work_counters;
} srcprof_vk_timer_desc;

typedef struct srcprof_vk_timer srcprof_vk_timer;

/* Creates a timer for the device. NULL, with one line in the profiler's log
 * saying why, when the device or queue family has no timestamps
 * (timestampPeriod 0, timestampValidBits 0), a required handle is missing,
 * or functions cannot be loaded: then pass NULL on (every function below
 * accepts it) and GPU timing stays off while CPU profiling goes on. */
SRCPROF_API srcprof_vk_timer *srcprof_vk_timer_create(const srcprof_vk_timer_desc *desc);

/* Call once per frame after source_profiler_frame_begin() and before
 * source_profiler_render_begin(), with the frame's first command buffer in
 * the recording state, outside any render pass: it resets this frame slot's
 * queries (a command in `cmd` unless host reset is on), in flushed mode
 * sets the slot's event when the frame is GPU-timed (vkCmdSetEvent), and
 * makes `cmd` the command buffer stamps go into. A frame that skipped it
 * has no GPU samples (said once in the log). */
SRCPROF_API void srcprof_vk_timer_begin_frame(srcprof_vk_timer *t, VkCommandBuffer cmd);

/* The graphics thread's stamps from now on go into `cmd` (recording renders
 * into several primary command buffers on that thread; any thread can name
 * its own with source_profiler_set_command_buffer, which this predates).
 * Submit them in recording order on one queue, after the one given to
 * begin_frame (see "Order matters" above). VK_NULL_HANDLE: stamps are left
 * out until the next set_cmd, and the frame's GPU samples are dropped. */
SRCPROF_API void srcprof_vk_timer_set_cmd(srcprof_vk_timer *t, VkCommandBuffer cmd);

/* The backend to pass to source_profiler_set_gpu_backend(); NULL for a NULL
 * timer. Valid until destroy. */
SRCPROF_API const sp_gpu_timer_backend *srcprof_vk_timer_backend(const srcprof_vk_timer *t);

/* "vk-timestamp" (plain) or "vk-timestamp+flush" (flushed); "none" for NULL.
 * Reports show it beside GPU figures. */
SRCPROF_API const char *srcprof_vk_timer_mode(const srcprof_vk_timer *t);

/* Destroys the query pools. Uninstall the backend first
 * (source_profiler_set_gpu_backend(NULL)) and let the device finish the
 * frames that used it. NULL is ignored. */
SRCPROF_API void srcprof_vk_timer_destroy(srcprof_vk_timer *t);

#ifdef __cplusplus
}
#endif

#endif
