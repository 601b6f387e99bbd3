/* Process-wide settings the drivers need (process.c), a platform leaf: it
 * knows the C library and the dynamic loader, nothing of the engine.
 * eng_pin_allocator is public (engine/engine.h); this is the rest. */
#ifndef ENGINE_PLATFORM_PROCESS_H
#define ENGINE_PLATFORM_PROCESS_H

/* In ASan builds, keeps every loaded library mapped until exit
 * (LeakSanitizer then names the driver a leak is in); elsewhere nothing.
 * Called after each device init, when the drivers are loaded. */
void eng_pin_loaded_libraries(void);

#endif
