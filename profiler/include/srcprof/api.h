/* srcprof/api.h - what marks a declaration as part of srcprof's interface.
 *
 * SRCPROF_API stands before every function each public header declares
 * (srcprof/source_profiler.h, the timers' and the live view's headers);
 * the other headers include this one. It is not for users' own code.
 *
 * The libraries are compiled with -fvisibility=hidden, so that their
 * internal names neither show from the shared libraries nor collide with a
 * program's: what SRCPROF_API marks is exported from the shared libraries
 * (global in the static ones), everything else stays inside (the `symbols`
 * tests check both). As with sokol's SOKOL_GFX_API_DECL, a build that
 * needs another mark (a Windows DLL's dllexport / dllimport) defines
 * SRCPROF_API before including any srcprof header.
 */
#ifndef SRCPROF_API_H
#define SRCPROF_API_H

#ifndef SRCPROF_API
#if defined(__GNUC__)
#define SRCPROF_API __attribute__((visibility("default")))
#else
#define SRCPROF_API
#endif
#endif

#endif
