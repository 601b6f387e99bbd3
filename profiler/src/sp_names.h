/* names.c: the passes' names (set_pass_name, pass_name). Not installed. */
#ifndef SRCPROF_SP_NAMES_H
#define SRCPROF_SP_NAMES_H

/* Shutdown: frees the registered passes' names. */
void sp_passes_free(void);

#endif
