/* The engine's three kinds of failure, and the first one's check.
 *
 * 1. Programmer errors - misuse of the engine's API: a handle that is not
 *    live or of the wrong kind (a compute pipeline drawn with, a vertex
 *    buffer dispatched), a device opened twice, a desc that cannot make
 *    its object, a count out of range. ENG_MISUSE(cond, ...) names the
 *    misuse in one error line and is true, and the call then does nothing
 *    and returns its defined "none" ({0}, false, ENG_ERR_INVALID), so a
 *    release build goes on. Built with SRCPROF_ENGINE_ASSERTS (CMake
 *    option; on in the `debug` preset) it also aborts there, as assert()
 *    would, so that the misuse is found where it happens - unless
 *    eng_log_set_misuse_fatal(false) (engine/log.h) said otherwise: the
 *    test programs that misuse the API on purpose say so. NDEBUG does not
 *    decide it: the asan preset is a Debug build whose tests misuse on
 *    purpose. Not checked so: draw-state calls outside a frame or a pass,
 *    which every backend ignores (the frame may have been skipped: a
 *    minimized window, a swapchain rebuilt) and the null device counts
 *    (eng_null_record.draws_outside_pass).
 * 2. Environment failures - no driver or device, a shader missing, out of
 *    memory, a lost device, a swapchain out of date: a result code
 *    (eng_result) and one log line where detected, never an abort
 *    (VK_CHECK_RET in the Vulkan backend, vk_internal.h).
 * 3. Bad user input belongs to the programs (demos/): a message naming
 *    the input and a non-zero exit; the engine sees only descs. */
#ifndef ENGINE_MISUSE_H
#define ENGINE_MISUSE_H

#include <stdbool.h>

/* Logs the misuse as an error and traps it (eng_misuse_trap). */
void eng_misuse_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* In SRCPROF_ENGINE_ASSERTS builds where misuse is fatal: says `what` and
 * where, and aborts. Elsewhere nothing: for a misuse that is logged its
 * own way (a stale handle: counted, the first one said). */
void eng_misuse_trap(const char *file, int line, const char *what);

#define ENG_MISUSE(cond, ...)                                                      \
	(__builtin_expect(!!(cond), 0) ? (eng_misuse_at(__FILE__, __LINE__, __VA_ARGS__), true) \
				       : false)

#endif
