/* engine/log.h - one log line per event, to stderr (or a hook). */
#ifndef ENGINE_LOG_H
#define ENGINE_LOG_H

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

#define eng_error(...) eng_log(ENG_LOG_ERROR, __VA_ARGS__)
#define eng_warn(...) eng_log(ENG_LOG_WARNING, __VA_ARGS__)
#define eng_info(...) eng_log(ENG_LOG_INFO, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
