/* table.c: pointer -> entry index, one writer, lock-free readers. Not
 * installed. */
#ifndef SRCPROF_SP_TABLE_H
#define SRCPROF_SP_TABLE_H

#include "sp_common.h"

uint32_t sp_table_find(uintptr_t key);           /* any thread, inside RCU */
bool sp_table_insert(uintptr_t key, uint32_t v); /* graphics thread */
void sp_table_remove(uintptr_t key);             /* graphics thread */
void sp_table_clear(void);                       /* graphics thread */

#endif
