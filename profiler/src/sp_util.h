/* util.c: counted allocation and logging. Not installed. */
#ifndef SRCPROF_SP_UTIL_H
#define SRCPROF_SP_UTIL_H

#include "sp_common.h"

void *sp_alloc(size_t size);  /* zeroed; NULL on failure (logged) */
void sp_alloc_account(size_t size, int sign);      /* counts memory from elsewhere */
void sp_free(void *p, size_t size);
char *sp_strdup(const char *s);
void sp_free_str(char *s);
uint64_t sp_alloc_count(void);
size_t sp_alloc_bytes(void);

void sp_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
