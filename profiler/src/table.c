/* Source pointer -> entry index. Open addressing with linear probing; the
 * graphics thread is the only writer, readers on any thread probe without
 * locks inside an RCU section. A slot's value is stored before its key, so
 * a reader that sees the key sees a value that was valid for it; callers
 * re-check the entry's own key, which covers a slot reused meanwhile.
 * Growth builds a new table and retires the old one. */
#include "sp_rcu.h"
#include "sp_table.h"
#include "sp_util.h"

#define EMPTY ((uintptr_t)0)
#define TOMB UINTPTR_MAX

typedef struct slot {
	_Atomic uintptr_t key;
	_Atomic uint32_t val;
} slot;

typedef struct table {
	uint32_t mask, shift;
	uint32_t used; /* live + tombstones */
	uint32_t live;
	slot slots[];
} table;

static _Atomic(table *) g_table;

static size_t table_bytes(uint32_t cap)
{
	return sizeof(table) + (size_t)cap * sizeof(slot);
}

static inline uint32_t hash(const table *t, uintptr_t key)
{
	return (uint32_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> t->shift);
}

static table *table_new(uint32_t cap)
{
	table *t = sp_alloc(table_bytes(cap));
	if (!t)
		return NULL;
	t->mask = cap - 1;
	t->shift = 64u - (uint32_t)__builtin_ctz(cap);
	return t;
}

uint32_t sp_table_find(uintptr_t key)
{
	table *t = atomic_load_explicit(&g_table, memory_order_acquire);
	if (!t)
		return SP_NO_ENTRY;
	uint32_t i = hash(t, key);
	for (uint32_t n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		uintptr_t k = atomic_load_explicit(&t->slots[i].key, memory_order_acquire);
		if (k == key)
			return SP_LOAD(t->slots[i].val);
		if (k == EMPTY)
			break;
	}
	return SP_NO_ENTRY;
}

static void put(table *t, uintptr_t key, uint32_t v)
{
	uint32_t i = hash(t, key);
	for (;;) {
		uintptr_t k = SP_LOAD(t->slots[i].key);
		if (k == EMPTY || k == TOMB) {
			if (k == EMPTY)
				t->used++;
			t->live++;
			SP_STORE(t->slots[i].val, v);
			atomic_store_explicit(&t->slots[i].key, key, memory_order_release);
			return;
		}
		i = (i + 1) & t->mask;
	}
}

static bool rebuild(table *old, uint32_t live)
{
	/* Between 2 and 4 slots a source (it grows past half full): 32 to 64
	 * bytes of a source's ~9 KB. */
	uint32_t cap = 16;
	while (cap < live * 2u)
		cap *= 2;
	table *t = table_new(cap);
	if (!t)
		return false;
	if (old) {
		for (uint32_t i = 0; i <= old->mask; i++) {
			uintptr_t k = SP_LOAD(old->slots[i].key);
			if (k != EMPTY && k != TOMB)
				put(t, k, SP_LOAD(old->slots[i].val));
		}
	}
	atomic_store_explicit(&g_table, t, memory_order_release);
	if (old)
		sp_retire(old, table_bytes(old->mask + 1));
	return true;
}

bool sp_table_insert(uintptr_t key, uint32_t v)
{
	table *t = atomic_load_explicit(&g_table, memory_order_relaxed);
	if (!t || (t->used + 1) * 2 > t->mask + 1) {
		if (!rebuild(t, t ? t->live + 1 : 1))
			return false;
		t = atomic_load_explicit(&g_table, memory_order_relaxed);
	}
	put(t, key, v);
	return true;
}

void sp_table_remove(uintptr_t key)
{
	table *t = atomic_load_explicit(&g_table, memory_order_relaxed);
	if (!t)
		return;
	uint32_t i = hash(t, key);
	for (uint32_t n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		uintptr_t k = SP_LOAD(t->slots[i].key);
		if (k == key) {
			atomic_store_explicit(&t->slots[i].key, TOMB, memory_order_release);
			t->live--;
			return;
		}
		if (k == EMPTY)
			return;
	}
}

void sp_table_clear(void)
{
	table *t = atomic_load_explicit(&g_table, memory_order_relaxed);
	atomic_store_explicit(&g_table, NULL, memory_order_release);
	if (t)
		sp_retire(t, table_bytes(t->mask + 1));
}
