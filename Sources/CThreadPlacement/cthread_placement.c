#define _GNU_SOURCE
#include "CThreadPlacement.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Start record

/// Everything the new thread needs; owned by the new thread once pthread_create succeeds.
struct cthread_start {
    cthread_body body;
    void *context;
    cpu_set_t allowed;
    int restores_affinity;
    cthread_placement placement;
};

static __thread cthread_placement cthread_own_placement = { -1, -1, -1 };

static void *cthread_trampoline(void *raw) {
    struct cthread_start start = *(struct cthread_start *)raw;
    free(raw);
    if (start.restores_affinity) {
        start.placement.first_ran_on = sched_getcpu();
        cthread_own_placement = start.placement;
        // Failure leaves the thread pinned to a CPU the caller may use, still correct.
        (void)pthread_setaffinity_np(pthread_self(), sizeof start.allowed, &start.allowed);
    }
    start.body(start.context);
    return NULL;
}

// MARK: - Choosing the CPU

/// The `offset`-th CPU of `allowed` after `here` in cyclic order, or -1.
static int cthread_cpu_after(const cpu_set_t *allowed, int here, int offset) {
    int count = CPU_COUNT(allowed);
    if (count < 2 || here < 0 || here >= CPU_SETSIZE || offset <= 0) return -1;
    int wanted = (offset - 1) % count + 1;
    int seen = 0;
    for (int step = 1; step <= CPU_SETSIZE; step++) {
        int cpu = (here + step) % CPU_SETSIZE;
        if (CPU_ISSET(cpu, allowed) && ++seen == wanted) return cpu;
    }
    return -1;
}

// MARK: - Spawning

int cthread_spawn(pthread_t *thread, cthread_body body, void *context, int offset, int detached) {
    struct cthread_start *start = malloc(sizeof *start);
    if (start == NULL) return ENOMEM;
    start->body = body;
    start->context = context;
    start->restores_affinity = 0;
    start->placement = (cthread_placement){ -1, -1, -1 };

    pthread_attr_t attributes;
    int status = pthread_attr_init(&attributes);
    if (status != 0) { free(start); return status; }
    if (detached) pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);

    int here = -1, target = -1;
    if (offset > 0 && sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0) {
        here = sched_getcpu();
        target = cthread_cpu_after(&start->allowed, here, offset);
    }
    if (target >= 0) {
        cpu_set_t only;
        CPU_ZERO(&only);
        CPU_SET(target, &only);
        if (pthread_attr_setaffinity_np(&attributes, sizeof only, &only) == 0) {
            start->restores_affinity = 1;
            start->placement.spawned_from = here;
            start->placement.target = target;
        }
    }
    status = pthread_create(thread, &attributes, cthread_trampoline, start);
    if (status != 0 && start->restores_affinity) {
        // The CPU may have gone away (hotplug, a cpuset change) since we read the set.
        pthread_attr_destroy(&attributes);
        pthread_attr_init(&attributes);
        if (detached) pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        start->restores_affinity = 0;
        start->placement = (cthread_placement){ -1, -1, -1 };
        status = pthread_create(thread, &attributes, cthread_trampoline, start);
    }
    pthread_attr_destroy(&attributes);
    if (status != 0) free(start);
    return status;
}

int cthread_join(pthread_t thread) {
    return pthread_join(thread, NULL);
}

// MARK: - Inspection

int cthread_allowed_cpu_count(void) {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 1;
    int count = CPU_COUNT(&allowed);
    return count > 0 ? count : 1;
}

cthread_placement cthread_current_placement(void) {
    return cthread_own_placement;
}

// MARK: - Naming

int cthread_set_name(pthread_t thread, const char *name) {
    char kept[16];
    strncpy(kept, name, sizeof kept - 1);
    kept[sizeof kept - 1] = '\0';
    return pthread_setname_np(thread, kept);
}
