// CLibraryLoader: see include/library_loader.h.
#include "library_loader.h"

#include <dlfcn.h>
#include <stdio.h>

// MARK: - Text

static void copy_text(char *to, size_t len, const char *text) {
    if (to == NULL || len == 0) return;
    snprintf(to, len, "%s", text);
}

// MARK: - Opening and resolving

void *dr_library_open(struct dr_loaded_library *library, const char *soname) {
    library->soname = soname;
    library->handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == NULL) {
        const char *reason = dlerror();
        if (reason != NULL) {
            copy_text(library->error, sizeof library->error, reason);
        } else {
            snprintf(library->error, sizeof library->error, "%s could not be loaded", soname);
        }
    }
    return library->handle;
}

void *dr_library_function(struct dr_loaded_library *library, const char *name) {
    // dlsym on a handle searches the library and the libraries it loaded.
    void *function = library->handle != NULL ? dlsym(library->handle, name) : NULL;
    if (function == NULL) snprintf(library->error, sizeof library->error, "%s has no function %s", library->soname, name);
    return function;
}

int dr_library_report(const struct dr_loaded_library *library, char *why, size_t len) {
    copy_text(why, len, library->loaded ? "" : library->error);
    return library->loaded;
}

int dr_library_probe(const char *soname, char *why, size_t len) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        copy_text(why, len, reason != NULL ? reason : "could not be loaded");
        return 0;
    }
    dlclose(handle);
    copy_text(why, len, "");
    return 1;
}
