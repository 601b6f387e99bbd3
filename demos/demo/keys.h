/* The demo's hotkeys as data: their names (--script) and what each does
 * (--help, the overlay's F1 help, the README). What a key does is the
 * app's (app.c); this table knows no state. */
#ifndef DEMOS_KEYS_H
#define DEMOS_KEYS_H

#include <stddef.h>
#include <stdio.h>

/* Key names for --script: "P", "+", "F1", "SPACE", ... (any case) -> eng_key
 * (engine/keys.h), or -1. */
int keys_from_name(const char *name);
/* The names keys_from_name knows, NULL-terminated, and their count. */
const char *const *keys_script_names(void);
size_t keys_script_count(void);
/* "P G M ... ESC": the names, for messages. */
void keys_names(char *buf, size_t size);
/* The hotkeys and what they do, as --help prints them. */
void keys_print(FILE *f);
/* The same as lines "KEYS  what", for the overlay's help. */
size_t keys_help_count(void);
void keys_help(size_t i, const char **keys, const char **what);

#endif
