// The libgd API as Darkroom uses it, loaded on first use. Imported by DarkroomGD only.
//
// libgd pulls some eighty shared libraries into a process (libheif, libavif and their AV1
// and HEVC codecs, libtiff, fontconfig, freetype, X11 …); mapping them costs ~15 ms at every
// start of a program linked against it. This target does not link libgd: each `dr_` function
// below resolves its libgd (or libtiff) symbol from `dlopen("libgd.so.3")` the first time any
// of them is called, and calls it. gd.h and tiffio.h are included for their types only.
//
// Callers check ``darkroom_gd_available`` first; when libgd could not be loaded every wrapper
// returns 0 / NULL (and the void ones do nothing) instead of crashing.
#ifndef DARKROOM_CGD_H
#define DARKROOM_CGD_H

#include <gd.h>
#include <stddef.h>
#include <tiffio.h>
#include <zlib.h>

// MARK: - Loading

/// The shared library the wrappers load.
#define DARKROOM_LIBGD_SONAME "libgd.so.3"

/// Loads libgd on the first call (later calls return the same answer at once). Returns 1 when
/// every function below is available; otherwise 0, with the reason (the loader's message, or
/// the missing symbol) written to `why` (NUL-terminated, truncated to `len`; `why` may be NULL).
int darkroom_gd_available(char *why, size_t len);

/// Tries `dlopen(soname)` (then closes it again) and reports why it failed, as
/// ``darkroom_gd_available`` does. For tests of the failure message; returns 1 when it loads.
int darkroom_gd_probe_library(const char *soname, char *why, size_t len);

/// A symbol of libgd or one of the libraries it loaded (libheif, libavif …), or NULL when
/// libgd is not loaded or has no such symbol.
void *darkroom_gd_symbol(const char *name);

// MARK: - libgd

void dr_gdSetErrorMethod(gdErrorMethod method);
int dr_gdSupportsFileType(const char *filename, int writing);
void dr_gdFree(void *data);

gdImagePtr dr_gdImageCreate(int sx, int sy);
gdImagePtr dr_gdImageCreateTrueColor(int sx, int sy);
void dr_gdImageDestroy(gdImagePtr im);

gdImagePtr dr_gdImageCreateFromJpegPtrEx(int size, void *data, int ignore_warning);
gdImagePtr dr_gdImageCreateFromPngPtr(int size, void *data);
gdImagePtr dr_gdImageCreateFromGifPtr(int size, void *data);
gdImagePtr dr_gdImageCreateFromWebpPtr(int size, void *data);
gdImagePtr dr_gdImageCreateFromAvifPtr(int size, void *data);
gdImagePtr dr_gdImageCreateFromHeifPtr(int size, void *data);
gdImagePtr dr_gdImageCreateFromTiffPtr(int size, void *data);
gdImagePtr dr_gdImageCreateFromBmpPtr(int size, void *data);
gdImagePtr dr_gdImageCreateFromTgaPtr(int size, void *data);

void *dr_gdImageJpegPtr(gdImagePtr im, int *size, int quality);
void *dr_gdImagePngPtrEx(gdImagePtr im, int *size, int level);
void *dr_gdImageWebpPtrEx(gdImagePtr im, int *size, int quality);
void *dr_gdImageAvifPtrEx(gdImagePtr im, int *size, int quality, int speed);
void *dr_gdImageGifPtr(gdImagePtr im, int *size);
void *dr_gdImageGifAnimBeginPtr(gdImagePtr im, int *size, int globalCM, int loops);
void *dr_gdImageGifAnimAddPtr(gdImagePtr im, int *size, int localCM, int leftOfs, int topOfs, int delay, int disposal,
                              gdImagePtr previm);
void *dr_gdImageGifAnimEndPtr(int *size);
void *dr_gdImageBmpPtr(gdImagePtr im, int *size, int compression);
void *dr_gdImageTiffPtr(gdImagePtr im, int *size);

void dr_gdImageAlphaBlending(gdImagePtr im, int blending);
void dr_gdImageSaveAlpha(gdImagePtr im, int save);
void dr_gdImageInterlace(gdImagePtr im, int interlace);
int dr_gdImageColorAllocate(gdImagePtr im, int r, int g, int b);
void dr_gdImageColorTransparent(gdImagePtr im, int color);
int dr_gdImageTrueColorToPalette(gdImagePtr im, int dither, int colors);

// MARK: - libtiff (loaded by libgd)
// libgd reads TIFF through libtiff but installs no handlers; these silence libtiff's own
// stderr printing. They return the previous handler (NULL when libgd is not loaded).

TIFFErrorHandler dr_TIFFSetErrorHandler(TIFFErrorHandler handler);
TIFFErrorHandler dr_TIFFSetWarningHandler(TIFFErrorHandler handler);

// MARK: - Palette access
// The palette arrays are fixed-size C arrays in gdImage, which Swift sees as 256-element
// tuples; these return them as plain pointers.

static inline const int *darkroom_gd_palette_red(const gdImage *im) { return im->red; }
static inline const int *darkroom_gd_palette_green(const gdImage *im) { return im->green; }
static inline const int *darkroom_gd_palette_blue(const gdImage *im) { return im->blue; }
static inline const int *darkroom_gd_palette_alpha(const gdImage *im) { return im->alpha; }

// MARK: - C's stderr

/// Takes `size` bytes a library wrote to C's `stderr`: returns 1 when it kept them, 0 to let
/// them through to file descriptor 2.
typedef int (*darkroom_stderr_sink)(const char *text, size_t size);

/// Replaces C's `stderr` stream (once; later calls only change the sink) by an unbuffered
/// stream handing every write to `sink` first. Returns 1 once the stream is in place.
/// Process-wide: executables call it at start (DarkroomTool, DarkroomServerTool), libraries never.
int darkroom_route_c_stderr(darkroom_stderr_sink sink);

#endif
