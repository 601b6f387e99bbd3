/* vulkan_threads: a small headless Vulkan renderer that records on several
 * threads and submits to two GPU timer contexts, profiled per object with
 * the installed srcprof package (srcprof::vulkan). Eight objects are
 * ticked and recorded by N worker threads, each into a secondary command
 * buffer of its own that the frame's primary executes inside its render
 * pass (a render pass object); a particle simulation is dispatched every
 * frame in a compute command buffer of its own, submitted before the
 * graphics one and timed by a second srcprof_vk_timer installed as the
 * profiler's "compute" queue. The lines marked "srcprof" are all the
 * profiling it takes; docs/integration.md ("Several threads and queues")
 * goes through them.
 *
 *     vulkan_threads [--threads N] [--frames N] [--check] [--validate]
 *                    [--gpu-timing auto|plain|flushed] [--serve [ADDR:]PORT]
 *
 * --threads: worker threads, 1 to 8 (default 2); worker w records objects
 * w, w + N, ... Each worker has a command pool per frame slot, used by it
 * alone; the workers share nothing but the job they are handed.
 * The compute work goes to a queue of its own where the device has one (a
 * family without graphics, or a second queue of the graphics family), else
 * to the graphics queue (lavapipe has one queue): a second timer context
 * on the same queue. --check, --validate and --serve as in vulkan_objects.c;
 * --validate adds synchronization validation's queue-submit checks. */
#include "common.h"
#include "vulkan_threads_gpu.h"

#include <srcprof/source_profiler.h> /* srcprof */
#include <srcprof/vulkan.h>          /* srcprof */

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define OBJECTS 8

/* Two rows of four objects of fragment cost 1 : 3 : 6 : 12 units. */
static ex_object objects[OBJECTS] = {
	{"small.1", {-0.94f, -0.9f, -0.53f, -0.06f}, {0.3f, 0.8f, 0.4f, 1}, 1, 0},
	{"medium.1", {-0.47f, -0.9f, -0.06f, -0.06f}, {0.3f, 0.5f, 0.9f, 1}, 3, 0},
	{"large.1", {0.0f, -0.9f, 0.41f, -0.06f}, {0.9f, 0.4f, 0.3f, 1}, 6, 0},
	{"huge.1", {0.47f, -0.9f, 0.88f, -0.06f}, {0.8f, 0.7f, 0.2f, 1}, 12, 0},
	{"small.2", {-0.94f, 0.06f, -0.53f, 0.9f}, {0.3f, 0.8f, 0.4f, 1}, 1, 0},
	{"medium.2", {-0.47f, 0.06f, -0.06f, 0.9f}, {0.3f, 0.5f, 0.9f, 1}, 3, 0},
	{"large.2", {0.0f, 0.06f, 0.41f, 0.9f}, {0.9f, 0.4f, 0.3f, 1}, 6, 0},
	{"huge.2", {0.47f, 0.06f, 0.88f, 0.9f}, {0.8f, 0.7f, 0.2f, 1}, 12, 0},
};

/* The compute source: its tick advances the step the dispatch integrates. */
static struct sim {
	const char *name;
	float dt;
	double t;
} sim = {"simulation", 0, 0};

#define SIM_SOURCE OBJECTS /* its index among the sources the check sees */

/* A worker thread and what it alone uses. */
typedef struct worker {
	pthread_t thread;
	uint32_t index;
	VkCommandPool pools[FIF];  /* one per frame slot: reset while the others are in flight */
	VkCommandBuffer cmds[FIF]; /* secondaries */
} worker;

static struct {
	worker workers[EX_MAX_THREADS];
	uint32_t threads;
	uint64_t frame;
	srcprof_vk_timer *timer, *compute_timer; /* srcprof */
	uint32_t compute_q, main_pass, sim_pass;   /* srcprof: queue and pass ids */
} g;

/* The job the graphics thread hands the workers each frame. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t go, done;
	uint64_t handed;   /* frames handed out */
	uint32_t finished; /* workers done with the last one */
	int slot;
	bool quit;
} jobs = {.lock = PTHREAD_MUTEX_INITIALIZER, .go = PTHREAD_COND_INITIALIZER,
	  .done = PTHREAD_COND_INITIALIZER};

/* A worker's frame: it ticks its objects, then records them into its
 * secondary for the slot, from its own pool. */
static void record(worker *w, int slot)
{
	VkCommandBuffer cmd = w->cmds[slot];
	VK(vkResetCommandPool(vt.device, w->pools[slot], 0));
	VkCommandBufferInheritanceInfo inherit = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
		.renderPass = vt.pass,
		.subpass = 0,
		.framebuffer = vt.framebuffer};
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT |
						VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
				       .pInheritanceInfo = &inherit};
	VK(vkBeginCommandBuffer(cmd, &bi));
	for (uint32_t i = w->index; i < OBJECTS; i += g.threads) {
		uint64_t t = source_profiler_source_tick_start(); /* srcprof */
		ex_tick(&objects[i]);
		source_profiler_source_tick_end(&objects[i], t); /* srcprof */
	}
	source_profiler_set_command_buffer(0, cmd); /* srcprof: this thread stamps its secondary */
	source_profiler_set_pass(g.main_pass);      /* srcprof */
	vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, vt.pipeline);
	for (uint32_t i = w->index; i < OBJECTS; i += g.threads) {
		sp_gpu_timer *timer;                                      /* srcprof */
		uint64_t t = source_profiler_source_render_begin(&timer); /* srcprof */
		vt_draw(cmd, &objects[i]);
		source_profiler_source_render_end(&objects[i], t, timer); /* srcprof */
	}
	source_profiler_set_command_buffer(0, NULL); /* srcprof: that buffer is done */
	VK(vkEndCommandBuffer(cmd));
}

/* A worker: ready, then a frame's objects each time one is handed out. */
static void *work(void *arg)
{
	worker *w = arg;
	/* A thread joins the profiler at its first call. Made before the
	 * first frame, it has the first GPU-timed frame size its timers for
	 * this thread too (else that frame runs short and loses its GPU
	 * samples, said at info level). */
	source_profiler_set_pass(g.main_pass); /* srcprof */
	uint64_t seen = 0;
	pthread_mutex_lock(&jobs.lock);
	for (;;) {
		if (++jobs.finished == g.threads)
			pthread_cond_signal(&jobs.done);
		while (!jobs.quit && jobs.handed == seen)
			pthread_cond_wait(&jobs.go, &jobs.lock);
		if (jobs.quit)
			break;
		seen = jobs.handed;
		int slot = jobs.slot;
		pthread_mutex_unlock(&jobs.lock);
		record(w, slot);
		pthread_mutex_lock(&jobs.lock);
	}
	pthread_mutex_unlock(&jobs.lock);
	return NULL;
}

static void hand_out(int slot)
{
	pthread_mutex_lock(&jobs.lock);
	jobs.slot = slot;
	jobs.finished = 0;
	jobs.handed++;
	pthread_cond_broadcast(&jobs.go);
	pthread_mutex_unlock(&jobs.lock);
}

static void wait_for_workers(void)
{
	pthread_mutex_lock(&jobs.lock);
	while (jobs.finished < g.threads)
		pthread_cond_wait(&jobs.done, &jobs.lock);
	pthread_mutex_unlock(&jobs.lock);
}

static void start_workers(void)
{
	for (uint32_t w = 0; w < g.threads; w++) {
		worker *k = &g.workers[w];
		k->index = w;
		for (int s = 0; s < FIF; s++) {
			VkCommandPoolCreateInfo pci = {
				.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
				.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
				.queueFamilyIndex = vt.family};
			VK(vkCreateCommandPool(vt.device, &pci, NULL, &k->pools[s]));
			VkCommandBufferAllocateInfo ai = {
				.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
				.commandPool = k->pools[s],
				.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
				.commandBufferCount = 1};
			VK(vkAllocateCommandBuffers(vt.device, &ai, &k->cmds[s]));
		}
		if (pthread_create(&k->thread, NULL, work, k)) {
			fprintf(stderr, "vulkan_threads: cannot start a worker thread\n");
			exit(1);
		}
	}
	wait_for_workers(); /* each has made its first call */
}

static void stop_workers(void)
{
	pthread_mutex_lock(&jobs.lock);
	jobs.quit = true;
	pthread_cond_broadcast(&jobs.go);
	pthread_mutex_unlock(&jobs.lock);
	for (uint32_t w = 0; w < g.threads; w++) {
		pthread_join(g.workers[w].thread, NULL);
		for (int s = 0; s < FIF; s++)
			vkDestroyCommandPool(vt.device, g.workers[w].pools[s], NULL);
	}
}

/* One frame: the simulation on this thread, the objects on the workers,
 * all profiled. */
static bool frame(void *user)
{
	(void)user;
	int slot = (int)(g.frame++ % FIF);
	source_profiler_frame_begin(); /* srcprof */
	uint64_t t = source_profiler_source_tick_start(); /* srcprof */
	sim.t += 1.0 / 60;
	sim.dt = (float)(0.002 * (1.0 + 0.5 * sin(sim.t)));
	source_profiler_source_tick_end(&sim, t); /* srcprof */
	VkCommandBuffer ccmd = vt_begin(&vt.compute, slot);
	VkCommandBuffer cmd = vt_begin(&vt.graphics, slot);
	srcprof_vk_timer_begin_frame(g.compute_timer, ccmd); /* srcprof: its first (only) buffer */
	srcprof_vk_timer_begin_frame(g.timer, cmd);          /* srcprof: outside the render pass */
	source_profiler_render_begin();                      /* srcprof */
	hand_out(slot); /* the workers tick and record the objects meanwhile */

	vt_sim_barrier(ccmd);
	source_profiler_set_command_buffer(g.compute_q, ccmd); /* srcprof: the compute queue's */
	source_profiler_set_pass(g.sim_pass);                  /* srcprof */
	sp_gpu_timer *timer = NULL; /* srcprof: none without a compute timer */
	t = source_profiler_source_render_begin(g.compute_q ? &timer : NULL); /* srcprof */
	vt_dispatch(ccmd, sim.dt);
	source_profiler_source_render_end(&sim, t, timer); /* srcprof */
	source_profiler_set_command_buffer(0, NULL);       /* srcprof: back to begin_frame's */

	vt_begin_pass(cmd, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	wait_for_workers();
	VkCommandBuffer secondaries[EX_MAX_THREADS];
	for (uint32_t w = 0; w < g.threads; w++)
		secondaries[w] = g.workers[w].cmds[slot];
	vkCmdExecuteCommands(cmd, g.threads, secondaries);
	vkCmdEndRenderPass(cmd);
	source_profiler_render_end(); /* srcprof */
	/* Each timer's begin_frame buffer before the buffers it stamps:
	 * compute first, then graphics (one queue here, in flushed mode). */
	vt_submit(vt.compute_queue, &vt.compute, slot);
	vt_submit(vt.queue, &vt.graphics, slot);
	/* The frame FIF - 1 back must be done on both queues before it is
	 * collected. */
	if (g.frame >= FIF) {
		int old = (slot + 1) % FIF;
		VkFence done[2] = {vt.compute.fences[old], vt.graphics.fences[old]};
		VK(vkWaitForFences(vt.device, 2, done, VK_TRUE, UINT64_MAX));
	}
	source_profiler_frame_collect(); /* srcprof */
	return true;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Source `i` in a submission of its own, with or without its work, timed
 * from submit to fence on the CPU clock: an object in a render pass, the
 * simulation's step in a compute command buffer. Not profiled. */
static bool alone(void *user, int i, bool with_work, uint64_t *ns)
{
	(void)user;
	VK(vkDeviceWaitIdle(vt.device));
	bool compute = i == SIM_SOURCE;
	vt_ring *r = compute ? &vt.compute : &vt.graphics;
	VkCommandBuffer cmd = vt_begin(r, FIF);
	if (compute) {
		vt_sim_barrier(cmd);
		if (with_work)
			vt_dispatch(cmd, sim.dt);
	} else {
		vt_begin_pass(cmd, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, vt.pipeline);
		if (with_work)
			vt_draw(cmd, &objects[i]);
		vkCmdEndRenderPass(cmd);
	}
	uint64_t t0 = now_ns();
	vt_submit(compute ? vt.compute_queue : vt.queue, r, FIF);
	VK(vkWaitForFences(vt.device, 1, &r->fences[FIF], VK_TRUE, UINT64_MAX));
	*ns = now_ns() - t0;
	return true;
}

/* Each source's GPU time per queue, and what each queue's sources add up
 * to: the time that queue was busy with them per frame (on a GPU with
 * async compute the two run at once, so the sum is not the frame's
 * length). */
static void print_queues(const ex_source *src, int n)
{
	double total[SOURCE_PROFILER_MAX_QUEUES] = {0};
	printf("per queue (GPU time summed over a frame's renders, averaged over samples):\n");
	printf("object     queue     GPU sum us  GPU samples\n");
	for (int i = 0; i < n; i++) {
		source_profiler_queue_result_t q[SOURCE_PROFILER_MAX_QUEUES];       /* srcprof */
		size_t nq = source_profiler_fill_queue_results(src[i].source, q, /* srcprof */
							       SOURCE_PROFILER_MAX_QUEUES); /* (2 lines) */
		for (size_t k = 0; k < nq && k < SOURCE_PROFILER_MAX_QUEUES; k++) {
			const char *name = source_profiler_queue_name(q[k].queue); /* srcprof */
			printf("%-10s %-8s %11.1f %12u\n", src[i].name, name ? name : "?",
			       q[k].render_gpu_sum / 1e3, q[k].gpu_samples);
			total[q[k].queue] += (double)q[k].render_gpu_sum;
		}
	}
	for (uint32_t q = 0; q < SOURCE_PROFILER_MAX_QUEUES; q++)
		if (source_profiler_queue_name(q)) /* srcprof */
			printf("queue %-8s %10.1f us per frame, its sources added up\n",
			       source_profiler_queue_name(q), total[q] / 1e3);
}

int main(int argc, char **argv)
{
	ex_options o;
	if (!ex_parse_threads(argc, argv, "vulkan_threads", &o))
		return 2;
	g.threads = o.threads;
	vt_open(o.validate);
	printf("device: %s; compute on %s\n", vt.device_name, vt.compute_where);

	source_profiler_set_frames_in_flight(FIF); /* srcprof */
	g.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){ /* srcprof (5 lines) */
		.instance = vt.instance,
		.physical_device = vt.gpu,
		.device = vt.device,
		.queue_family = vt.family,
		.timing = (srcprof_gpu_timing)o.timing}); /* (--gpu-timing; 0 is auto) */
	g.compute_timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){ /* srcprof (5 lines) */
		.instance = vt.instance,
		.physical_device = vt.gpu,
		.device = vt.device,
		.queue_family = vt.compute_family,
		.timing = (srcprof_gpu_timing)o.timing});
	source_profiler_set_gpu_backend(srcprof_vk_timer_backend(g.timer)); /* srcprof */
	g.compute_q = source_profiler_add_gpu_queue(srcprof_vk_timer_backend(g.compute_timer), /* srcprof */
						    "compute"); /* (2 lines) */
	g.main_pass = source_profiler_pass_id("main");      /* srcprof */
	g.sim_pass = source_profiler_pass_id("simulation"); /* srcprof */
	ex_source src[OBJECTS + 1];
	for (int i = 0; i < OBJECTS; i++)
		src[i] = (ex_source){&objects[i], objects[i].name, objects[i].loops, 0, 0};
	/* The target for the dispatch is tighter than the objects' (no
	 * binning to get in its way). */
	src[SIM_SOURCE] = (ex_source){&sim, sim.name, 0, 0.9, 1.1};
	for (int i = 0; i < OBJECTS + 1; i++)
		source_profiler_set_source_name(src[i].source, src[i].name); /* srcprof */
	source_profiler_enable(true);                                        /* srcprof */
	source_profiler_gpu_enable(true);                                    /* srcprof */
	struct srcprof_live *live =
		ex_serve_start(&o, "vulkan_threads", "Vulkan", vt.device_name); /* srcprof live */
	start_workers();
	printf("%u worker threads record %d objects; GPU timing %s\n", g.threads, OBJECTS,
	       srcprof_vk_timer_mode(g.timer));

	int status = 0;
	if (o.check) {
		status = ex_check_sources("vulkan", src, OBJECTS + 1, frame, alone, NULL);
	} else {
		for (uint32_t f = 0; !o.frames || f < o.frames; f++) {
			frame(NULL);
			ex_serve_frame(live); /* srcprof live: captures from the page */
		}
		ex_print_sources("vulkan", src, OBJECTS + 1);
		print_queues(src, OBJECTS + 1);
	}

	VK(vkDeviceWaitIdle(vt.device));
	stop_workers();
	if (g.compute_q)                                       /* srcprof */
		source_profiler_remove_gpu_queue(g.compute_q); /* srcprof */
	source_profiler_set_gpu_backend(NULL);                 /* srcprof */
	srcprof_vk_timer_destroy(g.compute_timer);             /* srcprof */
	srcprof_vk_timer_destroy(g.timer);                     /* srcprof */
	ex_serve_stop(live);                                   /* srcprof live */
	source_profiler_shutdown();                            /* srcprof */
	vt_close();
	if (o.validate) {
		printf("validation: %u messages (and %u of the layer's known false positive for "
		       "flushed timing in secondaries, skipped)\n",
		       atomic_load(&vt.messages), atomic_load(&vt.known));
		if (atomic_load(&vt.messages) && !status)
			status = 1;
	}
	return status;
}
