// libtiff's functions as CTIFF calls them: through pointers resolved from
// dlopen("libtiff.so.6") on first use (ctiff_library.c), so that a process that reads no TIFF
// never maps libtiff and the libraries behind it (libLerc and its libstdc++, liblzma, libzstd,
// libjbig).
#ifndef CTIFF_LIBRARY_H
#define CTIFF_LIBRARY_H

#include <stddef.h>
#include <tiffio.h>

#define CTIFF_LIBTIFF_SONAME "libtiff.so.6"

// X(name): one libtiff function. `__typeof__(&name)` names the prototype's type only; nothing
// here links against libtiff.
#define CTIFF_FUNCTIONS(X)                                                                          \
    X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) X(TIFFOpenOptionsSetMaxSingleMemAlloc)           \
    X(TIFFOpenOptionsSetErrorHandlerExtR) X(TIFFOpenOptionsSetWarningHandlerExtR) X(TIFFClientOpenExt) \
    X(TIFFClose) X(TIFFNumberOfDirectories) X(TIFFSetDirectory) X(TIFFGetField) X(TIFFGetFieldDefaulted) \
    X(TIFFSetField) X(TIFFIsTiled) X(TIFFRGBAImageOK) X(TIFFRGBAImageBegin) X(TIFFRGBAImageGet)      \
    X(TIFFRGBAImageEnd) X(TIFFGetStrileOffsetWithErr) X(TIFFGetStrileByteCountWithErr) X(TIFFStripSize) \
    X(TIFFScanlineSize) X(TIFFComputeStrip) X(TIFFReadEncodedStrip) X(TIFFTileSize) X(TIFFTileRowSize) \
    X(TIFFComputeTile) X(TIFFReadEncodedTile) X(TIFFWriteEncodedStrip)

#define CTIFF_DECLARE_POINTER(name) __typeof__(&name) name;
struct ctiff_libtiff {
    CTIFF_FUNCTIONS(CTIFF_DECLARE_POINTER)
};
#undef CTIFF_DECLARE_POINTER

/// The resolved functions; valid once ctiff_library_ready returned 1.
extern struct ctiff_libtiff ctiff_libtiff;

/// Loads libtiff (once); 1 when every function resolved, else 0 with the reason in `why`.
int ctiff_library_ready(char *why, size_t len);

#endif
