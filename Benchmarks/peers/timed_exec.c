// timed_exec OUTPUT COMMAND [ARGUMENT...]
//
// Runs COMMAND (searched in PATH) with the caller's stdin, stdout and stderr, waits for it, and
// writes "SECONDS PEAK-RSS-KIB\n" to OUTPUT: the wall time from just before the process is
// spawned to just after it is reaped (CLOCK_MONOTONIC), and its peak resident set from wait4.
// Exits with COMMAND's status (128 + signal when it was killed, 127 when it could not start).
//
// Benchmarks/peers.sh times every tool with it. Timing with `date` around `/usr/bin/time`
// instead adds ~2.5 ms of fork and exec of those helpers to every measurement, which is noise
// for a 0.5 s run and a tenth of a 20 ms one.
#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: timed_exec OUTPUT COMMAND [ARGUMENT...]\n");
        return 2;
    }
    FILE *output = fopen(argv[1], "w");
    if (output == NULL) {
        fprintf(stderr, "timed_exec: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child;
    int failure = posix_spawnp(&child, argv[2], NULL, NULL, argv + 2, environ);
    if (failure != 0) {
        fprintf(stderr, "timed_exec: %s: %s\n", argv[2], strerror(failure));
        return 127;
    }
    int status = 0;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "timed_exec: wait4: %s\n", strerror(errno));
            return 2;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    fprintf(output, "%.6f %ld\n", seconds, usage.ru_maxrss);
    fclose(output);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
