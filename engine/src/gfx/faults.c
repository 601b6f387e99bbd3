/* Injected faults: the set (faults.h) and the GPU timer seen through it.
 * The backends ask the set where their faults strike; the timer faults
 * strike at the profiler's seam, the same for every backend, so they live
 * here, around whatever timer the backend made. */
#include "faults.h"

void eng_faults_set(eng_faults *f, uint32_t set)
{
	atomic_store_explicit(&f->set, set, memory_order_relaxed);
}

uint32_t eng_faults_get(const eng_faults *f)
{
	return atomic_load_explicit(&f->set, memory_order_relaxed);
}

bool eng_faults_on(const eng_faults *f, eng_fault which)
{
	return eng_faults_get(f) & (uint32_t)which;
}

bool eng_faults_take(eng_faults *f, eng_fault which)
{
	uint32_t was = atomic_fetch_and_explicit(&f->set, ~(uint32_t)which, memory_order_relaxed);
	return was & (uint32_t)which;
}

/* --- the GPU timer under ENG_FAULT_TIMER_* ------------------------------------ */

/* ENG_FAULT_TIMER_POOL_SMALL: the range's 2 stamps and 4 timers of 2. */
#define SMALL_POOL_QUERIES (2 + 2 * 4)

static uint32_t faulty_reserve(void *user, uint32_t slot, uint32_t queries)
{
	const eng_fault_timer *ft = user;
	uint32_t held = ft->real->reserve(ft->real->user, slot, queries);
	bool small = eng_faults_on(ft->faults, ENG_FAULT_TIMER_POOL_SMALL);
	return small && held > SMALL_POOL_QUERIES ? SMALL_POOL_QUERIES : held;
}

static void faulty_write(void *user, uint32_t slot, uint32_t query, sp_gpu_stamp kind)
{
	const eng_fault_timer *ft = user;
	ft->real->write(ft->real->user, slot, query, kind);
}

static sp_gpu_read faulty_read(void *user, uint32_t slot, uint32_t count, uint64_t *ns)
{
	const eng_fault_timer *ft = user;
	if (eng_faults_on(ft->faults, ENG_FAULT_TIMER_UNAVAILABLE))
		return SP_GPU_READ_NOT_READY;
	return ft->real->read(ft->real->user, slot, count, ns);
}

static void faulty_write_cmd(void *user, void *cmd, uint32_t slot, uint32_t query,
			     sp_gpu_stamp kind)
{
	const eng_fault_timer *ft = user;
	ft->real->write_cmd(ft->real->user, cmd, slot, query, kind);
}

/* ENG_FAULT_TIMER_UNAVAILABLE: no stamp is there. */
static sp_gpu_read faulty_read_each(void *user, uint32_t slot, uint32_t count, uint64_t *ns,
				    uint8_t *avail)
{
	const eng_fault_timer *ft = user;
	if (eng_faults_on(ft->faults, ENG_FAULT_TIMER_UNAVAILABLE))
		return SP_GPU_READ_OK;
	return ft->real->read_each(ft->real->user, slot, count, ns, avail);
}

static void faulty_frame_open(void *user, uint32_t slot)
{
	const eng_fault_timer *ft = user;
	ft->real->frame_open(ft->real->user, slot);
}

static void faulty_work_begin(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	const eng_fault_timer *ft = user;
	ft->real->work_begin(ft->real->user, cmd, slot, index);
}

static void faulty_work_end(void *user, void *cmd, uint32_t slot, uint32_t index)
{
	const eng_fault_timer *ft = user;
	ft->real->work_end(ft->real->user, cmd, slot, index);
}

/* ENG_FAULT_TIMER_UNAVAILABLE: no count is there either. */
static sp_gpu_read faulty_read_work(void *user, uint32_t slot, uint32_t count, uint64_t *values,
				    uint8_t *avail)
{
	const eng_fault_timer *ft = user;
	if (eng_faults_on(ft->faults, ENG_FAULT_TIMER_UNAVAILABLE))
		return SP_GPU_READ_OK;
	return ft->real->read_work(ft->real->user, slot, count, values, avail);
}

static int64_t faulty_offset(void *user)
{
	const eng_fault_timer *ft = user;
	return ft->real->cpu_offset_ns ? ft->real->cpu_offset_ns(ft->real->user) : 0;
}

const sp_gpu_timer_backend *eng_fault_timer_wrap(eng_fault_timer *ft, const eng_faults *faults,
						 const sp_gpu_timer_backend *real)
{
	if (!real)
		return NULL;
	ft->real = real;
	ft->faults = faults;
	sp_gpu_timer_backend *t = &ft->timer;
	*t = *real; /* the mode, costs and clock as they are */
	t->user = ft;
	t->reserve = faulty_reserve;
	t->write = faulty_write;
	t->read = faulty_read;
	t->cpu_offset_ns = faulty_offset;
	/* The optional ones only where the backend has them. */
	t->write_cmd = real->write_cmd ? faulty_write_cmd : NULL;
	t->read_each = real->read_each ? faulty_read_each : NULL;
	t->frame_open = real->frame_open ? faulty_frame_open : NULL;
	bool work = real->work_counters && real->work_begin && real->work_end && real->read_work;
	t->work_counters = work ? real->work_counters : 0;
	t->work_begin = work ? faulty_work_begin : NULL;
	t->work_end = work ? faulty_work_end : NULL;
	t->read_work = work ? faulty_read_work : NULL;
	return t;
}
