/* Injected faults (engine/gfx.h's eng_fault): the one set a device runs
 * under, and how each backend asks it. gfx.c owns the set for the process
 * (eng_gfx_inject_faults writes it) and hands the device a pointer to it
 * at init, through eng_gfx_backend.init; a backend keeps that pointer in
 * its context and asks it where the fault strikes (a wait, an acquire, a
 * submit), and gives the profiler its GPU timer through eng_fault_timer,
 * which answers as a timer under the timer faults. Nothing here calls up
 * into gfx.c or into a backend. Any thread may read the set; once-faults
 * are taken (cleared) by the one call that fires them. */
#ifndef ENGINE_GFX_FAULTS_H
#define ENGINE_GFX_FAULTS_H

#include "engine/gfx.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct eng_faults {
	_Atomic uint32_t set; /* eng_fault bits */
} eng_faults;

/* Replaces the set (eng_gfx_inject_faults). */
void eng_faults_set(eng_faults *f, uint32_t set);
uint32_t eng_faults_get(const eng_faults *f);
/* Whether fault `which` is on (for faults that hold while set). */
bool eng_faults_on(const eng_faults *f, eng_fault which);
/* Whether fault `which` was on, turning it off: for faults that strike
 * once (ENG_FAULT_OUT_OF_DATE, ENG_FAULT_ISOLATED_FAILS). */
bool eng_faults_take(eng_faults *f, eng_fault which);

/* A backend's GPU timer as the profiler sees it under the faults:
 * ENG_FAULT_TIMER_POOL_SMALL caps what reserve grants at 4 timers,
 * ENG_FAULT_TIMER_UNAVAILABLE makes no stamp or count ever available.
 * Everything else goes to the backend's own timer unchanged. */
typedef struct eng_fault_timer {
	sp_gpu_timer_backend timer;        /* what the profiler is given */
	const sp_gpu_timer_backend *real; /* the backend's own */
	const eng_faults *faults;
} eng_fault_timer;

/* Fills `ft` around `real` (owned by the backend, alive as long as ft)
 * and returns &ft->timer; NULL when real is NULL (no GPU timing). Call
 * once, when the backend's timer is made; ft lives in the backend's
 * context. */
const sp_gpu_timer_backend *eng_fault_timer_wrap(eng_fault_timer *ft, const eng_faults *faults,
						 const sp_gpu_timer_backend *real);

#endif
