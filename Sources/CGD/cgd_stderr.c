// C's stderr stream routed through a sink: what the codecs libgd loads print (dav1d's
// "Unknown OBU type …", libheif's and libaom's lines) reaches the call that made them print
// instead of the terminal (see CGD.h, darkroom_route_c_stderr).
#define _GNU_SOURCE
#include "CGD.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static darkroom_stderr_sink installed_sink;

// Text the sink does not take goes to file descriptor 2 whole, as it would have.
static ssize_t route(void *cookie, const char *buffer, size_t size) {
    (void)cookie;
    darkroom_stderr_sink sink = __atomic_load_n(&installed_sink, __ATOMIC_ACQUIRE);
    if (sink != NULL && sink(buffer, size)) return (ssize_t)size;
    size_t done = 0;
    while (done < size) {
        ssize_t written = write(STDERR_FILENO, buffer + done, size - done);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return done > 0 ? (ssize_t)done : -1;
        done += (size_t)written;
    }
    return (ssize_t)size;
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int installed;

static void install_stream(void) {
    cookie_io_functions_t functions = {.read = NULL, .write = route, .seek = NULL, .close = NULL};
    FILE *stream = fopencookie(NULL, "w", functions);
    if (stream == NULL) return;
    setvbuf(stream, NULL, _IONBF, 0);  // unbuffered, as stderr is: nothing waits in a buffer
    fflush(stderr);
    stderr = stream;  // glibc's stderr is a plain variable, read by every library at each use
    installed = 1;
}

int darkroom_route_c_stderr(darkroom_stderr_sink sink) {
    __atomic_store_n(&installed_sink, sink, __ATOMIC_RELEASE);
    pthread_once(&install_once, install_stream);
    return installed;
}
