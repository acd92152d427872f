// Loads libtiff with dlopen on first use (see ctiff_library.h).
#include "ctiff_library.h"

#include <library_loader.h>
#include <pthread.h>

struct ctiff_libtiff ctiff_libtiff;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct dr_loaded_library libtiff;

static void load_libtiff(void) {
    if (dr_library_open(&libtiff, CTIFF_LIBTIFF_SONAME) == NULL) return;
#define RESOLVE(name)                                                                   \
    ctiff_libtiff.name = (__typeof__(&name))dr_library_function(&libtiff, #name);       \
    if (ctiff_libtiff.name == NULL) return;
    CTIFF_FUNCTIONS(RESOLVE)
#undef RESOLVE
    libtiff.loaded = 1;
}

int ctiff_library_ready(char *why, size_t len) {
    pthread_once(&load_once, load_libtiff);
    return dr_library_report(&libtiff, why, len);
}
