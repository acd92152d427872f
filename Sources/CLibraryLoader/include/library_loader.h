// CLibraryLoader: opening a C library with dlopen on first use, shared by the C walls that do
// so (CGD for libgd, CCurlShims for libcurl). Not imported by any Swift module.
#ifndef DARKROOM_LIBRARY_LOADER_H
#define DARKROOM_LIBRARY_LOADER_H

#include <stddef.h>

/// One library, opened once and never closed, and why it could not be when it could not.
/// Zero-initialise it (a static does).
struct dr_loaded_library {
    const char *soname;  // what dr_library_open was given (must outlive the struct)
    void *handle;        // the dlopen handle, or NULL
    int loaded;          // 1 once the owner resolved every function it needs
    char error[256];     // why it is not loaded ("" until something failed)
};

/// Opens `soname` with RTLD_NOW | RTLD_LOCAL (the library's own dependencies stay out of the
/// global namespace, where they could interpose on libraries Darkroom links itself). Returns
/// the handle, or NULL with dlerror()'s reason in `library->error`.
void *dr_library_open(struct dr_loaded_library *library, const char *soname);

/// The address of function `name` in the opened library (or a library it loaded), or NULL
/// with "SONAME has no function NAME" in `library->error`.
void *dr_library_function(struct dr_loaded_library *library, const char *name);

/// Copies "" (when loaded) or the reason it is not into `why` (`len` bytes, may be 0); returns
/// `library->loaded`.
int dr_library_report(const struct dr_loaded_library *library, char *why, size_t len);

/// Whether `soname` can be opened (then closed again), with the reason in `why` when not. For
/// tests of the failure message.
int dr_library_probe(const char *soname, char *why, size_t len);

#endif
