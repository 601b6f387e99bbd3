/* Compiled without SRCPROF_ENABLE_PROFILER: the macros are nothing. The
 * ctest next to this one checks the object file references no perf_block_
 * symbol at all. */
#include "check.h"
#include "srcprof/perf_block.h"

#ifdef SRCPROF_ENABLE_PROFILER
#error "this test must be compiled with the block profiler off"
#endif

static int g_side_effects;

__attribute__((unused)) static const char *named(void)
{
	g_side_effects++;
	return "x";
}

static int work(void)
{
	PERF_FUNCTION();
	PERF_BLOCK(named());
	PERF_BLOCK_END;
	return 42;
}

TEST(macros_compile_to_nothing)
{
	CHECK_EQ(work(), 42);
	CHECK_EQ(g_side_effects, 0); /* the name expression is not even evaluated */
}
