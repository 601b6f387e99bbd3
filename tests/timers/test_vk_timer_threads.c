/* srcprof::vulkan on a real device under the validation layer: renders
 * recorded on several threads into secondaries, a second timer context,
 * and the work counters. The rest of test_vk_timer's cases are in
 * test_vk_timer.c (the same executable). */
#include "check.h"
#include "vk_timer_fixture.h"

#include "srcprof/clock.h"
#include "srcprof/source_profiler.h"
#include "srcprof/vulkan.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <vulkan/vulkan.h>

/* --- renders recorded on several threads ------------------------------------
 * Two threads record half the sources each into a secondary command buffer
 * executed inside a render pass (a render pass object: the engine's own
 * tests cover dynamic rendering), each naming its command buffer with
 * source_profiler_set_command_buffer. */

#define THREADS 2

static struct {
	VkImage image;
	VkDeviceMemory memory;
	VkImageView view;
	VkRenderPass pass;
	VkFramebuffer framebuffer;
	VkCommandPool pools[4][THREADS];
	VkCommandBuffer secondary[4][THREADS];
} T;

static bool make_pass(void)
{
	VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
				.imageType = VK_IMAGE_TYPE_2D,
				.format = VK_FORMAT_R8G8B8A8_UNORM,
				.extent = {1024, 1024, 1}, /* 4 MiB: a dedicated allocation */
				.mipLevels = 1,
				.arrayLayers = 1,
				.samples = VK_SAMPLE_COUNT_1_BIT,
				.tiling = VK_IMAGE_TILING_OPTIMAL,
				.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT};
	if (vkCreateImage(V.device, &ii, NULL, &T.image) != VK_SUCCESS)
		return false;
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(V.device, T.image, &req);
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(V.gpu, &mp);
	uint32_t type = 0;
	while (type < mp.memoryTypeCount && !(req.memoryTypeBits & (1u << type)))
		type++;
	VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				   .allocationSize = req.size,
				   .memoryTypeIndex = type};
	if (vkAllocateMemory(V.device, &ai, NULL, &T.memory) != VK_SUCCESS ||
	    vkBindImageMemory(V.device, T.image, T.memory, 0) != VK_SUCCESS)
		return false;
	VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
				    .image = T.image,
				    .viewType = VK_IMAGE_VIEW_TYPE_2D,
				    .format = VK_FORMAT_R8G8B8A8_UNORM,
				    .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
	if (vkCreateImageView(V.device, &vi, NULL, &T.view) != VK_SUCCESS)
		return false;
	VkAttachmentDescription att = {.format = VK_FORMAT_R8G8B8A8_UNORM,
				       .samples = VK_SAMPLE_COUNT_1_BIT,
				       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
				       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
				       .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
				       .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
				       .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
				       .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
				    .colorAttachmentCount = 1,
				    .pColorAttachments = &ref};
	/* Each frame clears what the last wrote. */
	VkSubpassDependency dep = {.srcSubpass = VK_SUBPASS_EXTERNAL,
				   .dstSubpass = 0,
				   .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
				   .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
				   .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
				   .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};
	VkRenderPassCreateInfo rpi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
				      .attachmentCount = 1,
				      .pAttachments = &att,
				      .subpassCount = 1,
				      .pSubpasses = &sub,
				      .dependencyCount = 1,
				      .pDependencies = &dep};
	if (vkCreateRenderPass(V.device, &rpi, NULL, &T.pass) != VK_SUCCESS)
		return false;
	VkFramebufferCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
				      .renderPass = T.pass,
				      .attachmentCount = 1,
				      .pAttachments = &T.view,
				      .width = 1024,
				      .height = 1024,
				      .layers = 1};
	if (vkCreateFramebuffer(V.device, &fi, NULL, &T.framebuffer) != VK_SUCCESS)
		return false;
	for (uint32_t s = 0; s < V.fif; s++)
		for (int w = 0; w < THREADS; w++) {
			VkCommandPoolCreateInfo pci = {
				.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
				.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
				.queueFamilyIndex = V.family};
			VkCommandBufferAllocateInfo cai = {
				.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
				.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
				.commandBufferCount = 1};
			if (vkCreateCommandPool(V.device, &pci, NULL, &T.pools[s][w]) != VK_SUCCESS)
				return false;
			cai.commandPool = T.pools[s][w];
			if (vkAllocateCommandBuffers(V.device, &cai, &T.secondary[s][w]) != VK_SUCCESS)
				return false;
		}
	return true;
}

static void drop_pass(void)
{
	vkDeviceWaitIdle(V.device);
	for (uint32_t s = 0; s < V.fif; s++)
		for (int w = 0; w < THREADS; w++)
			if (T.pools[s][w])
				vkDestroyCommandPool(V.device, T.pools[s][w], NULL);
	vkDestroyFramebuffer(V.device, T.framebuffer, NULL);
	vkDestroyRenderPass(V.device, T.pass, NULL);
	vkDestroyImageView(V.device, T.view, NULL);
	vkDestroyImage(V.device, T.image, NULL);
	vkFreeMemory(V.device, T.memory, NULL);
	memset(&T, 0, sizeof T);
}

typedef struct record_job {
	VkCommandBuffer cmd;
	VkCommandPool pool;
	uint32_t first, count; /* sources */
} record_job;

static void *record_secondary(void *p)
{
	record_job *j = p;
	vkResetCommandPool(V.device, j->pool, 0);
	VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
					      .renderPass = T.pass,
					      .subpass = 0,
					      .framebuffer = T.framebuffer};
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT |
						VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
				       .pInheritanceInfo = &inh};
	vkBeginCommandBuffer(j->cmd, &bi);
	source_profiler_set_command_buffer(0, j->cmd);
	source_profiler_set_pass(source_profiler_pass_id("main"));
	for (uint32_t i = j->first; i < j->first + j->count; i++) {
		sp_gpu_timer *timer;
		uint64_t t = source_profiler_source_render_begin(&timer);
		source_profiler_source_render_end(&sources[i], t, timer);
	}
	source_profiler_set_command_buffer(0, NULL);
	vkEndCommandBuffer(j->cmd);
	return NULL;
}

/* One frame: the sources ticked, recorded by THREADS threads into
 * secondaries; `executed` of them executed in the render pass. */
static void threaded_frame(uint32_t n, int executed)
{
	uint32_t slot = (uint32_t)(V.frame++ % V.fif);
	VkCommandBuffer cmd = V.cmds[slot][0];
	source_profiler_frame_begin();
	for (uint32_t i = 0; i < n; i++) {
		uint64_t t = source_profiler_source_tick_start();
		source_profiler_source_tick_end(&sources[i], t);
	}
	vkWaitForFences(V.device, 1, &V.fences[slot], VK_TRUE, UINT64_MAX);
	vkResetFences(V.device, 1, &V.fences[slot]);
	vkResetCommandPool(V.device, V.pools[slot], 0);
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	vkBeginCommandBuffer(cmd, &bi);
	srcprof_vk_timer_begin_frame(V.timer, cmd);
	source_profiler_render_begin();
	VkClearValue clear = {{{0, 0, 0, 1}}};
	VkRenderPassBeginInfo rbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
				     .renderPass = T.pass,
				     .framebuffer = T.framebuffer,
				     .renderArea = {{0, 0}, {1024, 1024}},
				     .clearValueCount = 1,
				     .pClearValues = &clear};
	vkCmdBeginRenderPass(cmd, &rbi, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	pthread_t threads[THREADS];
	record_job jobs[THREADS];
	VkCommandBuffer secs[THREADS];
	for (int w = 0; w < THREADS; w++) {
		jobs[w] = (record_job){T.secondary[slot][w], T.pools[slot][w], w * (n / THREADS),
				       n / THREADS};
		secs[w] = jobs[w].cmd;
		pthread_create(&threads[w], NULL, record_secondary, &jobs[w]);
	}
	for (int w = 0; w < THREADS; w++)
		pthread_join(threads[w], NULL);
	vkCmdExecuteCommands(cmd, (uint32_t)executed, secs);
	vkCmdEndRenderPass(cmd);
	source_profiler_render_end();
	vkEndCommandBuffer(cmd);
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .commandBufferCount = 1,
			   .pCommandBuffers = &cmd};
	vkQueueSubmit(V.queue, 1, &si, V.fences[slot]);
	if (V.frame >= V.fif)
		vkWaitForFences(V.device, 1, &V.fences[(slot + 1) % V.fif], VK_TRUE, UINT64_MAX);
	source_profiler_frame_collect();
}

static void threads_into_secondaries(srcprof_gpu_timing timing)
{
	CHECK(setup(false, 2));
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){.instance = V.instance,
								    .physical_device = V.gpu,
								    .device = V.device,
								    .queue_family = V.family,
								    .timing = timing});
	CHECK(V.timer);
	source_profiler_set_gpu_backend(srcprof_vk_timer_backend(V.timer));
	CHECK(make_pass());
	for (int f = 0; f < 12; f++)
		threaded_frame(8, THREADS);
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(gpu_samples(&sources[i]), 11);
		profiler_result_t r;
		CHECK(source_profiler_fill_result(&sources[i], &r));
	}
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(st.gpu_timers_unavailable + st.gpu_timers_misplaced + st.records_late, 0);
	CHECK_EQ(log_count("warning"), 0);
	drop_pass();
	CHECK_EQ(teardown(), 0);
}

TEST(two_threads_recording_secondaries_in_a_render_pass_are_timed_flushed)
{
	threads_into_secondaries(SRCPROF_GPU_TIMING_FLUSHED);
}

TEST(two_threads_recording_secondaries_in_a_render_pass_are_timed_plain)
{
	threads_into_secondaries(SRCPROF_GPU_TIMING_PLAIN);
}

/* The second thread's secondary is recorded but not executed in frames 5
 * to 7: only its sources lose those frames' GPU samples, said once. */
TEST(a_secondary_never_executed_costs_only_its_own_renders)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	CHECK(make_pass());
	for (int f = 0; f < 12; f++)
		threaded_frame(8, f >= 4 && f < 7 ? 1 : THREADS);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(gpu_samples(&sources[i]), 11);
	for (int i = 4; i < 8; i++)
		CHECK_EQ(gpu_samples(&sources[i]), 8);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK(st.gpu_timers_unavailable >= 12); /* 3 frames x 4 renders, and empty timers */
	CHECK_EQ(log_count("were not there when frame"), 1);
	drop_pass();
	CHECK_EQ(teardown(), 0);
}

/* A second timer on the same queue for a command buffer of its own (what
 * an engine without an async compute queue does with its dispatches): a
 * queue of its own for the profiler. Sources render on both. */
TEST(a_second_timer_context_times_its_own_command_buffer)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	srcprof_vk_timer *t2 = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance, .physical_device = V.gpu, .device = V.device,
		.queue_family = V.family});
	CHECK(t2);
	CHECK_EQ(source_profiler_add_gpu_queue(srcprof_vk_timer_backend(t2), "compute"), 1);
	for (int f = 0; f < 10; f++) {
		uint32_t slot = (uint32_t)(V.frame++ % V.fif);
		VkCommandBuffer *cmd = V.cmds[slot]; /* [1]: the compute one, submitted first */
		source_profiler_frame_begin();
		for (int i = 0; i < 4; i++) {
			uint64_t t = source_profiler_source_tick_start();
			source_profiler_source_tick_end(&sources[i], t);
		}
		vkWaitForFences(V.device, 1, &V.fences[slot], VK_TRUE, UINT64_MAX);
		vkResetFences(V.device, 1, &V.fences[slot]);
		vkResetCommandPool(V.device, V.pools[slot], 0);
		VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
					       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
		vkBeginCommandBuffer(cmd[1], &bi);
		vkBeginCommandBuffer(cmd[0], &bi);
		srcprof_vk_timer_begin_frame(t2, cmd[1]);
		srcprof_vk_timer_begin_frame(V.timer, cmd[0]);
		source_profiler_render_begin();
		source_profiler_set_command_buffer(1, cmd[1]);
		for (int i = 0; i < 4; i++) {
			sp_gpu_timer *timer;
			uint64_t t = source_profiler_source_render_begin(&timer);
			source_profiler_source_render_end(&sources[i], t, timer);
		}
		source_profiler_set_command_buffer(0, NULL);
		for (int i = 0; i < 2; i++) {
			sp_gpu_timer *timer;
			uint64_t t = source_profiler_source_render_begin(&timer);
			source_profiler_source_render_end(&sources[i], t, timer);
		}
		source_profiler_render_end();
		vkEndCommandBuffer(cmd[1]);
		vkEndCommandBuffer(cmd[0]);
		VkCommandBuffer order[2] = {cmd[1], cmd[0]};
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				   .commandBufferCount = 2,
				   .pCommandBuffers = order};
		vkQueueSubmit(V.queue, 1, &si, V.fences[slot]);
		if (V.frame >= V.fif)
			vkWaitForFences(V.device, 1, &V.fences[(slot + 1) % V.fif], VK_TRUE,
					UINT64_MAX);
		source_profiler_frame_collect();
	}
	source_profiler_queue_result_t qr[4];
	CHECK_EQ(source_profiler_fill_queue_results(&sources[0], qr, 4), 2);
	CHECK_EQ(qr[0].queue, 0);
	CHECK_EQ(qr[1].queue, 1);
	CHECK_EQ(qr[1].gpu_samples, 9);
	CHECK_EQ(source_profiler_fill_queue_results(&sources[3], qr, 4), 1);
	CHECK_EQ(qr[0].queue, 1);
	source_profiler_stats_t st = stats();
	CHECK_EQ(st.gpu_frames_disjoint, 0);
	CHECK_EQ(st.gpu_timers_unavailable, 0);
	CHECK_EQ(st.gpu_queues, 2);
	vkDeviceWaitIdle(V.device);
	source_profiler_remove_gpu_queue(1);
	srcprof_vk_timer_destroy(t2);
	CHECK_EQ(teardown(), 0);
}

/* --- work counters ------------------------------------------------------------ */

/* Work counted on a device with pipelineStatisticsQuery, under validation:
 * every render bracketed (no draws between: every count 0, never n/a),
 * in one and in two command buffers, queries reset by command and from
 * the host. */
static void work_counted(bool host_reset, bool split)
{
	g_want_stats = true;
	CHECK(setup(host_reset, 2));
	g_want_stats = false;
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance,
		.physical_device = V.gpu,
		.device = V.device,
		.queue_family = V.family,
		.frames_in_flight = 2,
		.host_query_reset = host_reset,
		.work_counters = true,
	});
	CHECK(V.timer != NULL);
	const sp_gpu_timer_backend *b = srcprof_vk_timer_backend(V.timer);
	CHECK_EQ(b->work_counters, (1u << SOURCE_PROFILER_COUNTERS) - 1);
	source_profiler_set_gpu_backend(b);
	source_profiler_work_enable(true);
	for (int f = 0; f < 12; f++)
		frame((frame_opts){.sources = 6, .split = split});
	for (int i = 0; i < 6; i++) {
		source_profiler_work_t w;
		CHECK(source_profiler_fill_work(&sources[i], &w));
		CHECK_EQ(w.counted, (1u << SOURCE_PROFILER_COUNTERS) - 1);
		CHECK_EQ(w.samples, 11); /* every frame collected */
		for (int c = 0; c < SOURCE_PROFILER_COUNTERS; c++)
			CHECK_EQ(w.max[c], 0);
	}
	source_profiler_work_t t;
	CHECK(source_profiler_frame_work(&t));
	CHECK_EQ(t.samples, 11);
	CHECK_EQ(log_count("work counters"), 0);
	CHECK_EQ(teardown(), 0);
}

TEST(work_counters_bracket_every_render_with_queries_reset_by_command)
{
	work_counted(false, false);
}

TEST(work_counters_in_two_command_buffers_with_queries_reset_from_the_host)
{
	work_counted(true, true);
}

/* A device without pipelineStatisticsQuery: one line, nothing counted,
 * no query of that type made (validation would say), timing unchanged. */
TEST(work_counters_on_a_device_without_them_say_so_once_and_count_nothing)
{
	CHECK(setup(false, 2));
	memset(&R, 0, sizeof R);
	R.no_stats = true;
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance,
		.physical_device = V.gpu,
		.device = V.device,
		.queue_family = V.family,
		.get_instance_proc_addr = rec_gipa,
		.get_device_proc_addr = rec_gdpa,
		.work_counters = true,
	});
	CHECK(V.timer != NULL);
	CHECK_EQ(log_count("no pipeline statistics queries (pipelineStatisticsQuery); work counters "
			   "are n/a"),
		 1);
	const sp_gpu_timer_backend *b = srcprof_vk_timer_backend(V.timer);
	CHECK_EQ(b->work_counters, 0);
	source_profiler_set_gpu_backend(b);
	source_profiler_work_enable(true);
	for (int f = 0; f < 8; f++)
		frame((frame_opts){.sources = 4});
	source_profiler_work_t w;
	CHECK(!source_profiler_fill_work(&sources[0], &w));
	CHECK(!source_profiler_frame_work(&w));
	CHECK_EQ(gpu_samples(&sources[0]), 7);
	CHECK_EQ(teardown(), 0);
}
