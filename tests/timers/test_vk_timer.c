/* srcprof::vulkan on a real device (lavapipe here), always under the Khronos
 * validation layer with synchronization checks and best practices: any
 * message fails the case. The frames record timestamps only (no drawing):
 * what is tested is where stamps go, when queries are reset, and what the
 * module says when used wrongly. The rig is in vk_timer_fixture.c; renders
 * recorded on several threads, a second timer context and the work
 * counters are in test_vk_timer_threads.c (the same executable). */
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

TEST(create_without_handles_returns_null_and_says_why)
{
	log_text[0] = '\0';
	source_profiler_set_log(on_log, NULL);
	CHECK(srcprof_vk_timer_create(NULL) == NULL);
	CHECK(srcprof_vk_timer_create(&(srcprof_vk_timer_desc){.queue_family = 0}) == NULL);
	CHECK_EQ(log_count("needs an instance, a physical device and a device"), 2);
	CHECK(srcprof_vk_timer_backend(NULL) == NULL);
	CHECK_STR(srcprof_vk_timer_mode(NULL), "none");
	srcprof_vk_timer_begin_frame(NULL, VK_NULL_HANDLE); /* no-ops */
	srcprof_vk_timer_set_cmd(NULL, VK_NULL_HANDLE);
	srcprof_vk_timer_destroy(NULL);
	source_profiler_set_log(NULL, NULL);
}

TEST(a_queue_family_that_does_not_exist_has_no_timestamps)
{
	CHECK(setup(false, 2));
	CHECK(srcprof_vk_timer_create(&(srcprof_vk_timer_desc){.instance = V.instance,
								.physical_device = V.gpu,
								.device = V.device,
								.queue_family = 99}) == NULL);
	CHECK_EQ(log_count("no such family"), 1);
	CHECK_EQ(teardown(), 0);
}

TEST(auto_timing_is_flushed_on_a_cpu_device)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	CHECK_STR(srcprof_vk_timer_mode(V.timer), "vk-timestamp+flush");
	CHECK(srcprof_vk_timer_backend(V.timer)->costly);
	CHECK(srcprof_vk_timer_backend(V.timer)->subtract_empty_timer);
	CHECK_EQ(teardown(), 0);
}

/* Renders recorded into two command buffers of one frame: each source's
 * stamps go where it was recorded; queries reset with a command or from
 * the host. */
static void two_command_buffers(bool host_reset)
{
	CHECK(setup(host_reset, 2));
	CHECK(make_timer(host_reset, 0));
	for (int f = 0; f < 12; f++)
		frame((frame_opts){.sources = 8, .split = true});
	for (int i = 0; i < 8; i++)
		CHECK_EQ(gpu_samples(&sources[i]), 11);
	CHECK_EQ(stats().gpu_frames_disjoint, 0);
	CHECK_EQ(teardown(), 0);
}

TEST(renders_in_two_command_buffers_are_timed_with_queries_reset_by_command)
{
	two_command_buffers(false);
}

TEST(renders_in_two_command_buffers_are_timed_with_queries_reset_from_the_host)
{
	two_command_buffers(true);
}

TEST(three_frames_in_flight)
{
	CHECK(setup(false, 3));
	CHECK(make_timer(false, 0));
	for (int f = 0; f < 12; f++)
		frame((frame_opts){.sources = 4});
	CHECK_EQ(gpu_samples(&sources[0]), 10);
	CHECK_EQ(stats().gpu_frames_disjoint, 0);
	CHECK_EQ(teardown(), 0);
}

/* 4 good frames, 3 that misuse the module as `bad` says, 4 good ones: 10
 * collected frames, and only the 3 lose their GPU samples. */
static void three_bad_frames(frame_opts bad)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	for (int f = 0; f < 11; f++) {
		frame_opts o = f >= 4 && f < 7 ? bad : (frame_opts){0};
		o.sources = 4;
		frame(o);
	}
	CHECK_EQ(gpu_samples(&sources[0]), 7);
	CHECK_EQ(stats().gpu_disjoint_unavailable, 3);
}

TEST(a_frame_without_begin_frame_loses_its_gpu_samples_and_says_so_once)
{
	three_bad_frames((frame_opts){.no_begin = true});
	CHECK_EQ(log_count("without srcprof_vk_timer_begin_frame"), 1);
	CHECK_EQ(teardown(), 0);
}

/* The early call does not reset the queries of the frame in flight. */
TEST(begin_frame_called_before_frame_begin_is_named_as_such)
{
	three_bad_frames((frame_opts){.early_begin = true});
	CHECK_EQ(log_count("called before source_profiler_frame_begin"), 1);
	CHECK_EQ(log_count("without srcprof_vk_timer_begin_frame"), 0);
	CHECK_EQ(teardown(), 0);
}

TEST(no_command_buffer_half_way_drops_the_frame_without_recording)
{
	three_bad_frames((frame_opts){.null_cmd = true});
	CHECK_EQ(teardown(), 0);
}

static void flushed_recording(bool as_gpu)
{
	CHECK(setup(false, 2));
	memset(&R, 0, sizeof R);
	R.as_gpu = as_gpu;
	V.timer = srcprof_vk_timer_create(&(srcprof_vk_timer_desc){
		.instance = V.instance,
		.physical_device = V.gpu,
		.device = V.device,
		.queue_family = V.family,
		.get_instance_proc_addr = rec_gipa,
		.get_device_proc_addr = rec_gdpa,
		.timing = SRCPROF_GPU_TIMING_FLUSHED,
	});
	CHECK(V.timer != NULL);
	CHECK_STR(srcprof_vk_timer_mode(V.timer), "vk-timestamp+flush");
	source_profiler_set_gpu_backend(srcprof_vk_timer_backend(V.timer));
	for (int f = 0; f < 8; f++)
		frame((frame_opts){.sources = 4});
	uint32_t stamps = R.top + R.bottom;
	printf("  %s: %u stamps (%u TOP_OF_PIPE, %u BOTTOM_OF_PIPE), %u waits, %u sets, %u "
	       "events\n",
	       as_gpu ? "as a discrete GPU" : "lavapipe", stamps, R.top, R.bottom, R.waits,
	       R.sets, R.events);
	CHECK(stamps >= 8 * 10); /* frame range, empty timer and 4 timers a frame */
	CHECK_EQ(gpu_samples(&sources[0]), 7);
	if (as_gpu) {
		CHECK_EQ(R.top, 0);
		CHECK_EQ(R.waits + R.sets + R.events, 0);
	} else {
		CHECK_EQ(R.bottom, 0);
		CHECK_EQ(R.waits, stamps);
		CHECK_EQ(R.sets, 8);
		CHECK_EQ(R.events, 2);
	}
	CHECK_EQ(teardown(), 0);
}

TEST(flushed_timing_on_a_cpu_device_waits_after_each_top_of_pipe_stamp)
{
	flushed_recording(false);
}

TEST(flushed_timing_forced_on_a_gpu_closes_every_stamp_at_bottom_of_pipe_without_events)
{
	flushed_recording(true);
}

TEST(pools_grow_with_the_sources_when_queries_are_reset_by_command)
{
	CHECK(setup(false, 2));
	CHECK(make_timer(false, 0));
	/* 1 to 200 sources: the pools grow, frames that needed more than a pool
	 * held are dropped, and none writes an unreset query. */
	for (uint32_t f = 0; f < 60; f++)
		frame((frame_opts){.sources = f < 40 ? 1 + 5 * f : 200});
	for (int f = 0; f < 6; f++)
		frame((frame_opts){.sources = 200});
	CHECK(stats().gpu_timer_capacity >= 400);
	CHECK(gpu_samples(&sources[199]) >= 20);
	CHECK_EQ(teardown(), 0);
}

TEST(more_frames_in_flight_than_the_timer_has_are_said_once)
{
	CHECK(setup(false, 3));
	CHECK(make_timer(false, 2));
	for (int f = 0; f < 12; f++)
		frame((frame_opts){.sources = 2});
	/* Frames 1-10 are collected; those of slot 2 (2, 5, 8) have no GPU
	 * range. */
	CHECK_EQ(gpu_samples(&sources[0]), 7);
	CHECK_EQ(log_count("the timer was created for 2"), 1);
	CHECK_EQ(teardown(), 0);
}

/* The CPU-GPU offset. A backend wrapping the module's checks every read:
 * each stamp of a frame, placed on the profiler clock with the module's
 * offset, lies between the moment its frame range opened (before the
 * frame-begin stamp was recorded, so before the GPU could run it) and the
 * moment it was read (after the frame's fence). On lavapipe the device
 * clock is CLOCK_MONOTONIC's, so the offsets are small (about -0.1 ms);
 * on a GPU with a clock of its own a wrong offset puts stamps far out. */
static struct {
	sp_gpu_timer_backend inner, wrapped;
	uint64_t opened[4];
	uint32_t reads, early, late;
	int64_t after_open_ns, before_read_ns; /* the tightest margins seen */
	int64_t offset_ns;
} P;

static void placed_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	if (kind == SP_GPU_STAMP_FRAME_BEGIN && slot < 4)
		P.opened[slot] = srcprof_clock_ns();
	P.inner.write(user, slot, query, kind);
}

static sp_gpu_read placed_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	sp_gpu_read r = P.inner.read(user, slot, count, ns);
	if (r != SP_GPU_READ_OK || slot >= 4)
		return r;
	int64_t now = (int64_t)srcprof_clock_ns(), offset = P.inner.cpu_offset_ns(user);
	for (uint32_t i = 0; i < count; i++) {
		int64_t at = (int64_t)ns[i] + offset, after = at - (int64_t)P.opened[slot];
		int64_t before = now - at;
		P.early += after < 0;
		P.late += before < 0;
		P.after_open_ns = after < P.after_open_ns ? after : P.after_open_ns;
		P.before_read_ns = before < P.before_read_ns ? before : P.before_read_ns;
	}
	P.offset_ns = offset;
	P.reads++;
	return r;
}

static void stamps_inside_their_frames(bool calibrated)
{
	g_want_calibrated = calibrated;
	bool ok = setup(false, 2);
	g_want_calibrated = false;
	CHECK(ok);
	CHECK(make_timer(false, 0));
	memset(&P, 0, sizeof P);
	P.after_open_ns = P.before_read_ns = INT64_MAX;
	P.inner = *srcprof_vk_timer_backend(V.timer);
	CHECK(P.inner.cpu_offset_ns != NULL);
	P.wrapped = P.inner;
	P.wrapped.write = placed_write;
	P.wrapped.read = placed_read;
	P.wrapped.read_each = NULL; /* every read through placed_read */
	source_profiler_set_gpu_backend(&P.wrapped);
	for (int f = 0; f < 30; f++)
		frame((frame_opts){.sources = 4});
	printf("  %s offset %lld ns: %u frames read; stamps before their frame opened %u, after "
	       "they were read %u;\n  the tightest: %lld ns after an opening, %lld ns before a read\n",
	       V.calibrated ? "calibrated" : "measured", (long long)P.offset_ns, P.reads, P.early,
	       P.late, (long long)P.after_open_ns, (long long)P.before_read_ns);
	CHECK(P.reads >= 25);
	CHECK_EQ(P.early, 0);
	CHECK_EQ(P.late, 0);
	/* Asked for calibration on a device without it: measured, and said. */
	CHECK_EQ(log_count("the CPU-GPU offset is measured"), calibrated && !V.calibrated ? 1 : 0);
	CHECK_EQ(teardown(), 0);
}

TEST(gpu_stamps_on_the_cpu_clock_fall_inside_their_frames_with_a_measured_offset)
{
	stamps_inside_their_frames(false);
}

/* Calibrated where the device has the extension; else the desc asks for
 * it on a device without it, and the measured offset takes over. */
TEST(gpu_stamps_on_the_cpu_clock_fall_inside_their_frames_with_calibration_asked_for)
{
	stamps_inside_their_frames(true);
}
