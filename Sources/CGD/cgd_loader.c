// Loads libgd with dlopen on first use and forwards each dr_ wrapper to it (see CGD.h).
#include "CGD.h"

#include <dlfcn.h>
#include <library_loader.h>
#include <pthread.h>

// MARK: - The functions Darkroom calls
// X(name): one libgd or libtiff function. `__typeof__(&name)` only names the prototype's
// type; it does not reference the symbol, so nothing here links against libgd.

#define DARKROOM_GD_FUNCTIONS(X)                                                                   \
    X(gdSetErrorMethod) X(gdSupportsFileType) X(gdFree) X(gdImageCreate) X(gdImageCreateTrueColor) \
    X(gdImageDestroy) X(gdImageCreateFromJpegPtrEx) X(gdImageCreateFromPngPtr)                     \
    X(gdImageCreateFromGifPtr) X(gdImageCreateFromWebpPtr) X(gdImageCreateFromAvifPtr)             \
    X(gdImageCreateFromHeifPtr) X(gdImageCreateFromTiffPtr) X(gdImageCreateFromBmpPtr)             \
    X(gdImageCreateFromTgaPtr) X(gdImageJpegPtr) X(gdImagePngPtrEx) X(gdImageWebpPtrEx)            \
    X(gdImageAvifPtrEx) X(gdImageGifPtr) X(gdImageBmpPtr) X(gdImageTiffPtr)                        \
    X(gdImageGifAnimBeginPtr) X(gdImageGifAnimAddPtr) X(gdImageGifAnimEndPtr)                      \
    X(gdImageAlphaBlending) X(gdImageSaveAlpha) X(gdImageInterlace) X(gdImageColorAllocate)        \
    X(gdImageColorTransparent) X(gdImageTrueColorToPalette) X(TIFFSetErrorHandler)                 \
    X(TIFFSetWarningHandler)

#define DECLARE_POINTER(name) __typeof__(&name) name;
static struct {
    DARKROOM_GD_FUNCTIONS(DECLARE_POINTER)
} api;

// MARK: - Loading, once

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
// RTLD_LOCAL: libgd's dependencies stay out of the global namespace (they would otherwise
// interpose on, e.g., the libjpeg/libpng Darkroom links itself).
static struct dr_loaded_library libgd;

static void load_libgd(void) {
    if (dr_library_open(&libgd, DARKROOM_LIBGD_SONAME) == NULL) return;
    // Found in libgd or the libraries it loaded (libtiff included).
#define RESOLVE(name)                                                 \
    api.name = (__typeof__(&name))dr_library_function(&libgd, #name); \
    if (api.name == NULL) return;
    DARKROOM_GD_FUNCTIONS(RESOLVE)
#undef RESOLVE
    libgd.loaded = 1;
}

static int ready(void) {
    pthread_once(&load_once, load_libgd);
    return libgd.loaded;
}

int darkroom_gd_available(char *why, size_t len) {
    ready();
    return dr_library_report(&libgd, why, len);
}

int darkroom_gd_probe_library(const char *soname, char *why, size_t len) { return dr_library_probe(soname, why, len); }

void *darkroom_gd_symbol(const char *name) {
    if (!ready()) return NULL;
    return dlsym(libgd.handle, name);
}

// MARK: - Wrappers
// Each forwards to libgd when it is loaded; otherwise returns 0 / NULL or does nothing.

#define FORWARD(name, ...) return ready() ? api.name(__VA_ARGS__) : 0
#define FORWARD_VOID(name, ...) \
    if (ready()) api.name(__VA_ARGS__)

void dr_gdSetErrorMethod(gdErrorMethod method) { FORWARD_VOID(gdSetErrorMethod, method); }
int dr_gdSupportsFileType(const char *filename, int writing) { FORWARD(gdSupportsFileType, filename, writing); }
void dr_gdFree(void *data) { FORWARD_VOID(gdFree, data); }

gdImagePtr dr_gdImageCreate(int sx, int sy) { FORWARD(gdImageCreate, sx, sy); }
gdImagePtr dr_gdImageCreateTrueColor(int sx, int sy) { FORWARD(gdImageCreateTrueColor, sx, sy); }
void dr_gdImageDestroy(gdImagePtr im) { FORWARD_VOID(gdImageDestroy, im); }

gdImagePtr dr_gdImageCreateFromJpegPtrEx(int size, void *data, int ignore_warning) {
    FORWARD(gdImageCreateFromJpegPtrEx, size, data, ignore_warning);
}
gdImagePtr dr_gdImageCreateFromPngPtr(int size, void *data) { FORWARD(gdImageCreateFromPngPtr, size, data); }
gdImagePtr dr_gdImageCreateFromGifPtr(int size, void *data) { FORWARD(gdImageCreateFromGifPtr, size, data); }
gdImagePtr dr_gdImageCreateFromWebpPtr(int size, void *data) { FORWARD(gdImageCreateFromWebpPtr, size, data); }
gdImagePtr dr_gdImageCreateFromAvifPtr(int size, void *data) { FORWARD(gdImageCreateFromAvifPtr, size, data); }
gdImagePtr dr_gdImageCreateFromHeifPtr(int size, void *data) { FORWARD(gdImageCreateFromHeifPtr, size, data); }
gdImagePtr dr_gdImageCreateFromTiffPtr(int size, void *data) { FORWARD(gdImageCreateFromTiffPtr, size, data); }
gdImagePtr dr_gdImageCreateFromBmpPtr(int size, void *data) { FORWARD(gdImageCreateFromBmpPtr, size, data); }
gdImagePtr dr_gdImageCreateFromTgaPtr(int size, void *data) { FORWARD(gdImageCreateFromTgaPtr, size, data); }

void *dr_gdImageJpegPtr(gdImagePtr im, int *size, int quality) { FORWARD(gdImageJpegPtr, im, size, quality); }
void *dr_gdImagePngPtrEx(gdImagePtr im, int *size, int level) { FORWARD(gdImagePngPtrEx, im, size, level); }
void *dr_gdImageWebpPtrEx(gdImagePtr im, int *size, int quality) { FORWARD(gdImageWebpPtrEx, im, size, quality); }
void *dr_gdImageAvifPtrEx(gdImagePtr im, int *size, int quality, int speed) {
    FORWARD(gdImageAvifPtrEx, im, size, quality, speed);
}
void *dr_gdImageGifPtr(gdImagePtr im, int *size) { FORWARD(gdImageGifPtr, im, size); }
void *dr_gdImageGifAnimBeginPtr(gdImagePtr im, int *size, int globalCM, int loops) {
    FORWARD(gdImageGifAnimBeginPtr, im, size, globalCM, loops);
}
void *dr_gdImageGifAnimAddPtr(gdImagePtr im, int *size, int localCM, int leftOfs, int topOfs, int delay, int disposal,
                              gdImagePtr previm) {
    FORWARD(gdImageGifAnimAddPtr, im, size, localCM, leftOfs, topOfs, delay, disposal, previm);
}
void *dr_gdImageGifAnimEndPtr(int *size) { FORWARD(gdImageGifAnimEndPtr, size); }
void *dr_gdImageBmpPtr(gdImagePtr im, int *size, int compression) { FORWARD(gdImageBmpPtr, im, size, compression); }
void *dr_gdImageTiffPtr(gdImagePtr im, int *size) { FORWARD(gdImageTiffPtr, im, size); }

void dr_gdImageAlphaBlending(gdImagePtr im, int blending) { FORWARD_VOID(gdImageAlphaBlending, im, blending); }
void dr_gdImageSaveAlpha(gdImagePtr im, int save) { FORWARD_VOID(gdImageSaveAlpha, im, save); }
void dr_gdImageInterlace(gdImagePtr im, int interlace) { FORWARD_VOID(gdImageInterlace, im, interlace); }
int dr_gdImageColorAllocate(gdImagePtr im, int r, int g, int b) { FORWARD(gdImageColorAllocate, im, r, g, b); }
void dr_gdImageColorTransparent(gdImagePtr im, int color) { FORWARD_VOID(gdImageColorTransparent, im, color); }
int dr_gdImageTrueColorToPalette(gdImagePtr im, int dither, int colors) {
    FORWARD(gdImageTrueColorToPalette, im, dither, colors);
}

TIFFErrorHandler dr_TIFFSetErrorHandler(TIFFErrorHandler handler) { FORWARD(TIFFSetErrorHandler, handler); }
TIFFErrorHandler dr_TIFFSetWarningHandler(TIFFErrorHandler handler) { FORWARD(TIFFSetWarningHandler, handler); }
