// Writing RGBA8 as a TIFF in memory through libtiff: RGB or RGBA (unassociated alpha), 8 bits,
// Deflate with the horizontal predictor.
#include "CTIFF.h"
#include "ctiff_library.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - A growing buffer as libtiff's file

static int reserve(ctiff_output *o, uint64_t end) {
    if (end <= o->capacity) return 1;
    if (end > (uint64_t)SIZE_MAX / 2) return 0;
    size_t capacity = o->capacity ? o->capacity : 65536;
    while (capacity < end) capacity *= 2;
    uint8_t *grown = realloc(o->data, capacity);
    if (!grown) return 0;
    memset(grown + o->capacity, 0, capacity - o->capacity);
    o->data = grown;
    o->capacity = capacity;
    return 1;
}

static tmsize_t write_proc(thandle_t handle, void *buffer, tmsize_t size) {
    ctiff_output *o = (ctiff_output *)handle;
    if (size < 0 || !reserve(o, o->position + (uint64_t)size)) return -1;
    memcpy(o->data + o->position, buffer, (size_t)size);
    o->position += (uint64_t)size;
    if (o->position > o->size) o->size = (size_t)o->position;
    return size;
}

static tmsize_t read_proc(thandle_t handle, void *buffer, tmsize_t size) {
    ctiff_output *o = (ctiff_output *)handle;
    if (size <= 0 || o->position >= o->size) return 0;
    uint64_t n = (uint64_t)size < o->size - o->position ? (uint64_t)size : o->size - o->position;
    memcpy(buffer, o->data + o->position, (size_t)n);
    o->position += n;
    return (tmsize_t)n;
}

static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    ctiff_output *o = (ctiff_output *)handle;
    uint64_t base = whence == SEEK_CUR ? o->position : whence == SEEK_END ? o->size : 0;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    o->position = base + offset;
    return o->position;
}

static int close_proc(thandle_t handle) { (void)handle; return 0; }
static toff_t size_proc(thandle_t handle) { return ((ctiff_output *)handle)->size; }
static int map_proc(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void unmap_proc(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int error_handler(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    ctiff_output *o = (ctiff_output *)user;
    if (o->message[0]) return 1;  // the first error is the cause
    char text[200];
    vsnprintf(text, sizeof text, format, args);
    snprintf(o->message, sizeof o->message, "%s%s%s", module ? module : "", module ? ": " : "", text);
    return 1;
}

static int warning_handler(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif; (void)user; (void)module; (void)format; (void)args;
    return 1;
}

// MARK: - Writing

static ctiff_status failed(ctiff_output *o, ctiff_status status, const char *text) {
    if (!o->message[0]) snprintf(o->message, sizeof o->message, "%s", text);
    return status;
}

ctiff_status ctiff_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                               int write_alpha, int level, int big, ctiff_output *o) {
    char why[256];
    if (!ctiff_library_ready(why, sizeof why)) {
        char text[400];
        snprintf(text, sizeof text, "libtiff cannot be loaded (%s); install it with: apt-get install libtiff6", why);
        return failed(o, CTIFF_UNSUPPORTED, text);
    }
    if (width == 0 || height == 0) return failed(o, CTIFF_CORRUPT, "an empty image");
    TIFFOpenOptions *options = ctiff_libtiff.TIFFOpenOptionsAlloc();
    if (!options) return failed(o, CTIFF_OUT_OF_MEMORY, "out of memory while starting libtiff");
    ctiff_libtiff.TIFFOpenOptionsSetErrorHandlerExtR(options, error_handler, o);
    ctiff_libtiff.TIFFOpenOptionsSetWarningHandlerExtR(options, warning_handler, o);
    TIFF *tif = ctiff_libtiff.TIFFClientOpenExt("output", big ? "w8" : "w", (thandle_t)o, read_proc, write_proc,
                                                seek_proc, close_proc, size_proc, map_proc, unmap_proc, options);
    ctiff_libtiff.TIFFOpenOptionsFree(options);
    if (!tif) return failed(o, CTIFF_OUT_OF_MEMORY, "libtiff could not start the file");

    uint16_t samples = write_alpha ? 4 : 3;
    size_t row_bytes = (size_t)width * samples;
    uint32_t rows_per_strip = row_bytes >= 65536 ? 1 : (uint32_t)(65536 / row_bytes);
    if (rows_per_strip > height) rows_per_strip = height;
    ctiff_libtiff.TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
    ctiff_libtiff.TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
    ctiff_libtiff.TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8);
    ctiff_libtiff.TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, samples);
    ctiff_libtiff.TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
    ctiff_libtiff.TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    ctiff_libtiff.TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    ctiff_libtiff.TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
    if (level > 0) {
        ctiff_libtiff.TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
        ctiff_libtiff.TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
        ctiff_libtiff.TIFFSetField(tif, TIFFTAG_ZIPQUALITY, level > 9 ? 9 : level);
    } else {
        ctiff_libtiff.TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
    }
    if (write_alpha) {
        uint16_t extra[1] = {EXTRASAMPLE_UNASSALPHA};
        ctiff_libtiff.TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, extra);
    }
    ctiff_status status = CTIFF_OK;
    uint8_t *strip = malloc(row_bytes * rows_per_strip);
    if (!strip) status = failed(o, CTIFF_OUT_OF_MEMORY, "out of memory for a strip");
    for (uint32_t row = 0, index = 0; status == CTIFF_OK && row < height; row += rows_per_strip, index++) {
        uint32_t rows = height - row < rows_per_strip ? height - row : rows_per_strip;
        for (uint32_t r = 0; r < rows; r++) {
            const uint8_t *source = pixels + (size_t)(row + r) * stride;
            uint8_t *target = strip + (size_t)r * row_bytes;
            if (write_alpha) {
                memcpy(target, source, row_bytes);
            } else {
                for (uint32_t x = 0; x < width; x++) memcpy(target + x * 3, source + x * 4, 3);
            }
        }
        if (ctiff_libtiff.TIFFWriteEncodedStrip(tif, index, strip, (tmsize_t)(row_bytes * rows)) < 0) {
            status = failed(o, CTIFF_OUT_OF_MEMORY, "a strip could not be written");
        }
    }
    free(strip);
    ctiff_libtiff.TIFFClose(tif);  // writes the directory
    if (status == CTIFF_OK && o->message[0]) status = CTIFF_CORRUPT;
    return status;
}

void ctiff_output_free(ctiff_output *o) {
    free(o->data);
    o->data = NULL;
    o->size = o->capacity = 0;
}
