/* engine/log.h - one log line per event, to stderr (or a hook). */
#ifndef ENGINE_LOG_H
#define ENGINE_LOG_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { ENG_LOG_ERROR, ENG_LOG_WARNING, ENG_LOG_INFO, ENG_LOG_DEBUG };

/* Writes "srcprof: <level>: <message>" unless the level is filtered out. */
void eng_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Messages above this level are dropped (default ENG_LOG_INFO). */
void eng_log_set_level(int level);
/* Routes lines to fn instead of stderr (NULL restores stderr). */
void eng_log_set_hook(void (*fn)(int level, const char *line, void *user), void *user);
/* Misuse of the engine's API (a handle that is not live, a call in the
 * wrong state, a count out of range) is logged as an error and the call
 * does nothing; in builds with SRCPROF_ENGINE_ASSERTS (the `debug` preset)
 * it also aborts, unless this was set false (as the tests that misuse the
 * API on purpose do). Default true; any thread. */
void eng_log_set_misuse_fatal(bool fatal);

#define eng_error(...) eng_log(ENG_LOG_ERROR, __VA_ARGS__)
#define eng_warn(...) eng_log(ENG_LOG_WARNING, __VA_ARGS__)
#define eng_info(...) eng_log(ENG_LOG_INFO, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
