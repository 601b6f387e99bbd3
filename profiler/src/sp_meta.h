/* meta.c: names and async marks, under one mutex. Not installed. */
#ifndef SRCPROF_SP_META_H
#define SRCPROF_SP_META_H

#include "sp_common.h"

typedef struct sp_meta {
	uintptr_t key;
	char *name;
	bool async;
} sp_meta;

void sp_meta_lock(void);
void sp_meta_unlock(void);
sp_meta *sp_meta_find(uintptr_t key);   /* lock held */
sp_meta *sp_meta_get(uintptr_t key);    /* lock held; creates; NULL on OOM */
void sp_meta_delete(uintptr_t key);     /* lock held; retires the name */
void sp_meta_clear(void);               /* lock held */

#endif
