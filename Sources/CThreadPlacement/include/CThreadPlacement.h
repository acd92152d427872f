// CThreadPlacement — starts threads on a chosen CPU, for Darkroom's SpreadThreads, and names
// threads.
//
// glibc's CPU-affinity API (cpu_set_t macros, pthread_attr_setaffinity_np, sched_getcpu)
// needs _GNU_SOURCE and function-like macros, neither of which Swift's Glibc module offers.
#ifndef DARKROOM_CTHREADPLACEMENT_H
#define DARKROOM_CTHREADPLACEMENT_H

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a spread thread runs: `body(context)`.
typedef void (*cthread_body)(void *context);

/// Creates a thread that runs `body(context)`: joinable, or detached when `detached` is nonzero.
///
/// When `offset` > 0 and the caller may run on more than one CPU, the thread is created
/// allowed only on the `offset`-th of the caller's CPUs counted on from the one the caller is
/// running on (wrapping round), so that the scheduler starts it there at once; the thread's
/// first act is to take back the caller's whole CPU set, so it is never left pinned. With one
/// CPU, `offset` 0, or an affinity call that fails, it is an ordinary thread.
///
/// Returns 0, or the error number pthread_create gave (nothing is started then).
int cthread_spawn(pthread_t *thread, cthread_body body, void *context, int offset, int detached);

/// Waits for a joinable thread from cthread_spawn to end. Returns 0 or an error number.
int cthread_join(pthread_t thread);

/// Names `thread` for `top -H`, `perf` and debuggers (pthread_setname_np, which needs
/// _GNU_SOURCE); only the first 15 bytes of `name` are kept. Returns 0 or an error number.
int cthread_set_name(pthread_t thread, const char *name);

/// How many CPUs the calling thread may run on (at least 1).
int cthread_allowed_cpu_count(void);

/// Where a thread from cthread_spawn was placed, as seen from inside it; every field is -1
/// when the thread was not placed (one CPU, offset 0, or not a cthread_spawn thread).
typedef struct {
    /// The CPU the spawning thread was running on.
    int spawned_from;
    /// The CPU the thread was created on.
    int target;
    /// The CPU the thread found itself on when it first ran, before taking back the whole set.
    int first_ran_on;
} cthread_placement;

/// The calling thread's placement record.
cthread_placement cthread_current_placement(void);

#ifdef __cplusplus
}
#endif

#endif
