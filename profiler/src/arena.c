/* An arena for the per-source blocks the frame loop walks every frame:
 * entry chunks and window rings. At 10,000 sources those blocks span
 * ~90 MB; carved from 4 KiB pages, every frame touched ~20,000 pages and
 * the cost per source grew by half from TLB misses alone. Carved from
 * 2 MiB-aligned regions advised as transparent huge pages, they need a few
 * dozen TLB entries. Graphics thread only. Freed blocks are kept on
 * per-size free lists (sizes depend only on the window capacity and the
 * pass count, so there are few); everything is unmapped by reset.
 *
 * A huge page is resident as a whole from its first touch: the page the
 * arena is carving from holds up to 2 MiB of zeros nobody uses (at 1,000
 * sources 1.7 KB a source, a fifth more than the profiler's own figure),
 * and so does the last page of a region left because a block did not fit.
 * Once the arena has not grown for a while (sources come in bursts: a
 * scene loads, its rings come at its first collect), the unused pages of
 * that huge page go back to the kernel and are marked for small pages, so
 * that khugepaged does not fill them again; blocks carved there later come
 * from small pages. One huge page per burst is split, not every one a
 * slowly growing arena passes. */
#define _GNU_SOURCE
#include "sp_arena.h"
#include "sp_util.h"

#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
/* Entries in the arena point at heap blocks (async windows, pass arrays);
 * LeakSanitizer must scan the arena to see them. */
#include <sanitizer/lsan_interface.h>
#define LSAN_ROOT(p, n) __lsan_register_root_region(p, n)
#define LSAN_UNROOT(p, n) __lsan_unregister_root_region(p, n)
#else
#define LSAN_ROOT(p, n) ((void)0)
#define LSAN_UNROOT(p, n) ((void)0)
#endif

#define REGION_ALIGN (2u << 20)
#define MAX_CLASSES 32

typedef struct region {
	struct region *next;
	size_t size, used;
} region;

typedef struct free_block {
	struct free_block *next;
} free_block;

static region *g_regions;
static bool g_grown;      /* blocks were carved since the last sp_arena_trim */
static uint32_t g_quiet; /* frames since, up to TRIM_AFTER_FRAMES */
#define TRIM_AFTER_FRAMES 60
static struct {
	size_t size;
	free_block *head;
} g_classes[MAX_CLASSES];
static size_t g_next_region = REGION_ALIGN;

/* Hands the pages of [from, the end of from's huge page) that nothing was
 * carved from back to the kernel (they read as zero again when touched). */
static void give_back(region *r, size_t from)
{
	size_t lo = (from + 4095) & ~(size_t)4095;
	size_t hi = (from + REGION_ALIGN - 1) & ~(size_t)(REGION_ALIGN - 1);
	if (hi > r->size)
		hi = r->size;
	if (lo >= hi)
		return;
#ifdef MADV_NOHUGEPAGE
	madvise((char *)r + lo, hi - lo, MADV_NOHUGEPAGE);
#endif
	madvise((char *)r + lo, hi - lo, MADV_DONTNEED);
}

static region *region_map(size_t want)
{
	size_t size = g_next_region;
	while (size < want + 64)
		size *= 2;
	/* Over-map by the alignment and trim, so the region is 2 MiB aligned. */
	char *raw = mmap(NULL, size + REGION_ALIGN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		sp_log(SOURCE_PROFILER_LOG_ERROR, "cannot map %zu bytes for source windows", size);
		return NULL;
	}
	uintptr_t start = ((uintptr_t)raw + REGION_ALIGN - 1) & ~(uintptr_t)(REGION_ALIGN - 1);
	if (start > (uintptr_t)raw)
		munmap(raw, start - (uintptr_t)raw);
	size_t tail = (uintptr_t)raw + size + REGION_ALIGN - (start + size);
	if (tail)
		munmap((char *)(start + size), tail);
#ifdef MADV_HUGEPAGE
	madvise((void *)start, size, MADV_HUGEPAGE);
#endif
	LSAN_ROOT((void *)start, size);
	if (g_regions)
		give_back(g_regions, g_regions->used); /* its tail is never carved */
	region *r = (region *)start;
	r->size = size;
	r->used = 64; /* the header's line */
	r->next = g_regions;
	g_regions = r;
	if (g_next_region < (64u << 20))
		g_next_region *= 2;
	return r;
}

/* Blocks are 16-byte multiples: a ring record is 12 or 16 bytes, and
 * rounding rings to cache lines cost 48 bytes a source. */
static size_t round16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

void *sp_arena_alloc(size_t size)
{
	size = round16(size ? size : 1);
	for (int i = 0; i < MAX_CLASSES && g_classes[i].size; i++) {
		if (g_classes[i].size == size && g_classes[i].head) {
			free_block *b = g_classes[i].head;
			g_classes[i].head = b->next;
			memset(b, 0, size);
			sp_alloc_account(size, 1);
			return b;
		}
	}
	region *r = g_regions;
	if (!r || r->size - r->used < size) {
		r = region_map(size);
		if (!r)
			return NULL;
	}
	void *p = (char *)r + r->used;
	r->used += size;
	g_grown = true;
	sp_alloc_account(size, 1);
	return p; /* fresh mapped memory reads as zero */
}

void sp_arena_free(void *p, size_t size)
{
	if (!p)
		return;
	size = round16(size ? size : 1);
	sp_alloc_account(size, -1);
	for (int i = 0; i < MAX_CLASSES; i++) {
		if (!g_classes[i].size)
			g_classes[i].size = size;
		if (g_classes[i].size == size) {
			free_block *b = p;
			b->next = g_classes[i].head;
			g_classes[i].head = b;
			return;
		}
	}
	/* More sizes than classes: the block is lost until reset. */
}

void sp_arena_trim(void)
{
	if (g_grown) {
		g_grown = false;
		g_quiet = 0;
	} else if (g_quiet < TRIM_AFTER_FRAMES && ++g_quiet == TRIM_AFTER_FRAMES && g_regions) {
		give_back(g_regions, g_regions->used);
	}
}

void sp_arena_reset(void)
{
	while (g_regions) {
		region *next = g_regions->next;
		LSAN_UNROOT(g_regions, g_regions->size);
		munmap(g_regions, g_regions->size);
		g_regions = next;
	}
	memset(g_classes, 0, sizeof g_classes);
	g_next_region = REGION_ALIGN;
	g_grown = false;
	g_quiet = 0;
}
