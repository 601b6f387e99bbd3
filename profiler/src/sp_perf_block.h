/* perf_block.c: what the trace asks of CPU blocks. Not installed. */
#ifndef SRCPROF_SP_PERF_BLOCK_H
#define SRCPROF_SP_PERF_BLOCK_H

/* The calling thread's routine name, for trace tracks. */
const char *sp_perf_routine(void);

#endif
