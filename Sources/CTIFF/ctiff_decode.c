// The TIFF decoder's life cycle: libtiff over a buffer in memory, its messages, and one
// directory (page) chosen and described. Reading its pixels is ctiff_read.c.
#include "ctiff_decoder.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

// MARK: - Memory I/O

static tmsize_t read_proc(thandle_t handle, void *buffer, tmsize_t size) {
    ctiff_decoder *d = (ctiff_decoder *)handle;
    if (size <= 0 || d->position >= d->size) return 0;
    uint64_t available = d->size - d->position;
    uint64_t n = (uint64_t)size < available ? (uint64_t)size : available;
    memcpy(buffer, d->data + d->position, (size_t)n);
    d->position += n;
    return (tmsize_t)n;
}

static tmsize_t write_proc(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle; (void)buffer; (void)size;
    return -1;
}

static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    ctiff_decoder *d = (ctiff_decoder *)handle;
    uint64_t base = whence == SEEK_CUR ? d->position : whence == SEEK_END ? d->size : 0;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    d->position = base + offset;
    return d->position;
}

static int close_proc(thandle_t handle) { (void)handle; return 0; }
static toff_t size_proc(thandle_t handle) { return ((ctiff_decoder *)handle)->size; }

static int map_proc(thandle_t handle, void **base, toff_t *size) {
    ctiff_decoder *d = (ctiff_decoder *)handle;
    *base = (void *)d->data;  // libtiff reads a mapping and never writes to it
    *size = d->size;
    return 1;
}

static void unmap_proc(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

// MARK: - Messages and damage

void ctiff_note_damage(ctiff_decoder *d, ctiff_damage kind, const char *text) {
    if (d->damage == CTIFF_DAMAGE_NONE || (d->damage == CTIFF_DAMAGE_WARNING && kind != CTIFF_DAMAGE_WARNING)) {
        d->damage = kind;
        snprintf(d->damage_message, sizeof d->damage_message, "%s", text);
    }
}

/// Whether the fail-on level stops at `kind` of damage.
int ctiff_stops_at(const ctiff_decoder *d, ctiff_damage kind) {
    return d->fail_on != CTIFF_FAIL_ON_NONE && (int)d->fail_on >= (int)kind;
}

static int error_handler(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    ctiff_decoder *d = (ctiff_decoder *)user;
    char text[400];
    vsnprintf(text, sizeof text, format, args);
    snprintf(d->message, sizeof d->message, "%s%s%s", module ? module : "", module ? ": " : "", text);
    return 1;
}

/// libtiff's warnings while the directory is read describe the file (unknown tags and the
/// like); while pixels are read, a codec's warnings ("…Decode…", corrupt or premature data)
/// describe damage it went past.
static int warning_handler(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    ctiff_decoder *d = (ctiff_decoder *)user;
    if (!d->reading) return 1;
    char text[400];
    vsnprintf(text, sizeof text, format, args);
    // A codec's set-up notes (OJPEGSetupDecode's "deprecated" notice) are not damage.
    int decoding = module && strstr(module, "Decode") && !strstr(module, "Setup");
    int codec = decoding || strstr(text, "Corrupt") || strstr(text, "Premature");
    if (!codec) return 1;
    char full[512];
    snprintf(full, sizeof full, "%s%s%s", module ? module : "", module ? ": " : "", text);
    ctiff_note_damage(d, CTIFF_DAMAGE_WARNING, full);
    if (ctiff_stops_at(d, CTIFF_DAMAGE_WARNING) && !d->stop) {
        d->stop = 1;
        snprintf(d->message, sizeof d->message, "%s", full);
    }
    return 1;
}

// MARK: - Life cycle

ctiff_decoder *ctiff_decoder_create(const uint8_t *data, size_t size, uint64_t max_pixels, uint64_t max_alloc) {
    ctiff_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->data = data;
    d->size = size;
    d->max_pixels = max_pixels;
    d->max_alloc = max_alloc;
    d->fail_on = CTIFF_FAIL_ON_WARNING;
    return d;
}

void ctiff_decoder_destroy(ctiff_decoder *d) {
    if (!d) return;
    if (d->tif) ctiff_libtiff.TIFFClose(d->tif);
    free(d);
}

void ctiff_decoder_set_fail_on(ctiff_decoder *d, ctiff_fail_on level) { d->fail_on = level; }

const char *ctiff_decoder_message(const ctiff_decoder *d) { return d->message; }

ctiff_damage ctiff_decoder_damage(const ctiff_decoder *d, const char **message) {
    if (message) *message = d->damage_message;
    return d->damage;
}

int ctiff_decoder_icc_profile(ctiff_decoder *d, const uint8_t **bytes, uint32_t *length) {
    uint32_t count = 0;
    void *data = NULL;
    if (!d->tif || !ctiff_libtiff.TIFFGetField(d->tif, TIFFTAG_ICCPROFILE, &count, &data) || !data || count == 0) return 0;
    *bytes = data;
    *length = count;
    return 1;
}

// MARK: - Opening

ctiff_status ctiff_fail(ctiff_decoder *d, ctiff_status status, const char *text) {
    snprintf(d->message, sizeof d->message, "%s", text);
    return status;
}

/// The layout the own reader handles, from the directory's fields; CTIFF_UNSUPPORTED with
/// `use_rgba_reader` set when libtiff's RGBA reader is to try instead.
static ctiff_status describe_layout(ctiff_decoder *d, uint16_t extra_count, const uint16_t *extra) {
    ctiff_info *info = &d->info;
    ctiff_layout *l = &d->layout;
    memset(l, 0, sizeof *l);
    l->bits = info->bits_per_sample;
    l->format = info->sample_format == 4 ? 1 : info->sample_format;
    switch (info->photometric) {
    case PHOTOMETRIC_MINISWHITE: l->model = CTIFF_MODEL_GREY; l->invert = 1; l->colours = 1; break;
    case PHOTOMETRIC_MINISBLACK: l->model = CTIFF_MODEL_GREY; l->colours = 1; break;
    case PHOTOMETRIC_RGB: l->model = CTIFF_MODEL_RGB; l->colours = 3; break;
    case PHOTOMETRIC_PALETTE: l->model = CTIFF_MODEL_PALETTE; l->colours = 1; break;
    case PHOTOMETRIC_CIELAB: l->model = CTIFF_MODEL_CIELAB; l->colours = 3; break;
    case PHOTOMETRIC_ICCLAB: l->model = CTIFF_MODEL_ICCLAB; l->colours = 3; break;
    case PHOTOMETRIC_SEPARATED: {
        uint16_t inkset = INKSET_CMYK;
        ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_INKSET, &inkset);
        int inks = (int)info->samples_per_pixel - (int)extra_count;
        if (inkset != INKSET_CMYK || inks != 4) {
            char text[160];
            snprintf(text, sizeof text, "separated (ink) images with %d inks other than CMYK are not supported", inks);
            return ctiff_fail(d, CTIFF_UNSUPPORTED, text);
        }
        l->model = CTIFF_MODEL_CMYK;
        l->colours = 4;
        info->is_cmyk = 1;
        break;
    }
    case PHOTOMETRIC_ITULAB:
        return ctiff_fail(d, CTIFF_UNSUPPORTED, "ITU L*a*b* (PhotometricInterpretation 10) is not supported");
    default:
        d->use_rgba_reader = 1;
        return CTIFF_UNSUPPORTED;
    }
    if (info->compression == COMPRESSION_OJPEG) { d->use_rgba_reader = 1; return CTIFF_UNSUPPORTED; }
    if (info->samples_per_pixel < l->colours) {
        char text[160];
        snprintf(text, sizeof text, "SamplesPerPixel is %u, too few for PhotometricInterpretation %u",
                 info->samples_per_pixel, info->photometric);
        return ctiff_fail(d, CTIFF_CORRUPT, text);
    }
    int bits = l->bits;
    int integer_ok = bits >= 1 && (bits <= 16 || bits == 24 || bits == 32 || (bits == 64 && l->format == 1));
    int float_ok = bits == 16 || bits == 32 || bits == 64;
    if (info->sample_format > 4 || (l->format == 3 ? !float_ok : !integer_ok)) {
        char text[160];
        snprintf(text, sizeof text, "%u-bit %s samples are not supported", info->bits_per_sample,
                 info->sample_format == 3 ? "floating-point" : info->sample_format > 4 ? "complex" : "integer");
        return ctiff_fail(d, CTIFF_UNSUPPORTED, text);
    }
    if (l->model == CTIFF_MODEL_PALETTE) {
        uint16_t *r = NULL, *g = NULL, *b = NULL;
        if (bits > 16 || l->format != 1) return ctiff_fail(d, CTIFF_UNSUPPORTED, "palette images need unsigned samples of at most 16 bits");
        if (!ctiff_libtiff.TIFFGetField(d->tif, TIFFTAG_COLORMAP, &r, &g, &b) || !r || !g || !b) {
            return ctiff_fail(d, CTIFF_CORRUPT, "a palette image without a ColorMap");
        }
        l->palette[0] = r; l->palette[1] = g; l->palette[2] = b;
        // Some writers store 8-bit values in the 16-bit map (libtiff's own test).
        size_t entries = (size_t)1 << bits;
        for (size_t i = 0; i < entries && !l->palette_16; i++) l->palette_16 = r[i] >= 256 || g[i] >= 256 || b[i] >= 256;
    }
    if ((l->model == CTIFF_MODEL_CIELAB || l->model == CTIFF_MODEL_ICCLAB) && ((bits != 8 && bits != 16) || l->format == 3)) {
        return ctiff_fail(d, CTIFF_UNSUPPORTED, "L*a*b* images need 8- or 16-bit integer samples");
    }
    if (l->model == CTIFF_MODEL_CIELAB || l->model == CTIFF_MODEL_ICCLAB) {
        float *white = NULL;
        if (ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_WHITEPOINT, &white) && white) ctiff_layout_set_white_point(l, white[0], white[1]);
        else ctiff_layout_set_white_point(l, 0, 0);
    }
    if (info->samples_per_pixel > l->colours) {
        // The sample after the colours is alpha: associated when ExtraSamples says so,
        // straight when it says unassociated or nothing.
        info->alpha = extra_count > 0 && extra[0] == EXTRASAMPLE_ASSOCALPHA ? 1 : 2;
    }
    l->alpha = info->alpha;
    l->separate = info->planar == PLANARCONFIG_SEPARATE;
    l->stride = l->separate ? 1 : info->samples_per_pixel;
    return CTIFF_OK;
}

ctiff_status ctiff_decoder_open(ctiff_decoder *d, uint32_t page, ctiff_info *out) {
    char why[256];
    if (!ctiff_library_ready(why, sizeof why)) {
        char text[400];
        snprintf(text, sizeof text, "libtiff cannot be loaded (%s); install it with: apt-get install libtiff6", why);
        return ctiff_fail(d, CTIFF_UNSUPPORTED, text);
    }
    TIFFOpenOptions *options = ctiff_libtiff.TIFFOpenOptionsAlloc();
    if (!options) return ctiff_fail(d, CTIFF_OUT_OF_MEMORY, "out of memory while starting libtiff");
    ctiff_libtiff.TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)(d->max_alloc > (uint64_t)INT64_MAX ? INT64_MAX : d->max_alloc));
    ctiff_libtiff.TIFFOpenOptionsSetErrorHandlerExtR(options, error_handler, d);
    ctiff_libtiff.TIFFOpenOptionsSetWarningHandlerExtR(options, warning_handler, d);
    d->tif = ctiff_libtiff.TIFFClientOpenExt("input", "r", (thandle_t)d, read_proc, write_proc, seek_proc, close_proc, size_proc,
                               map_proc, unmap_proc, options);
    ctiff_libtiff.TIFFOpenOptionsFree(options);
    if (!d->tif) return d->message[0] ? CTIFF_CORRUPT : ctiff_fail(d, CTIFF_CORRUPT, "libtiff could not read the header");

    ctiff_info *info = &d->info;
    memset(info, 0, sizeof *info);
    info->page_count = ctiff_libtiff.TIFFNumberOfDirectories(d->tif);
    if (page >= info->page_count) {
        char text[120];
        snprintf(text, sizeof text, "page %u does not exist: the file has %u", page, info->page_count);
        return ctiff_fail(d, CTIFF_NO_SUCH_PAGE, text);
    }
    if (page > 0 && !ctiff_libtiff.TIFFSetDirectory(d->tif, (tdir_t)page)) {
        return d->message[0] ? CTIFF_CORRUPT : ctiff_fail(d, CTIFF_CORRUPT, "the page's directory cannot be read");
    }
    if (!ctiff_libtiff.TIFFGetField(d->tif, TIFFTAG_IMAGEWIDTH, &info->width) || !ctiff_libtiff.TIFFGetField(d->tif, TIFFTAG_IMAGELENGTH, &info->height)
        || info->width == 0 || info->height == 0) {
        return ctiff_fail(d, CTIFF_CORRUPT, "the image directory has no width or height");
    }
    if ((uint64_t)info->width * info->height > d->max_pixels) {
        *out = *info;
        return ctiff_fail(d, CTIFF_LIMIT_EXCEEDED, "page");
    }
    if (ctiff_libtiff.TIFFIsTiled(d->tif)) {
        ctiff_libtiff.TIFFGetField(d->tif, TIFFTAG_TILEWIDTH, &info->tile_width);
        ctiff_libtiff.TIFFGetField(d->tif, TIFFTAG_TILELENGTH, &info->tile_height);
        if (info->tile_width == 0 || info->tile_height == 0) return ctiff_fail(d, CTIFF_CORRUPT, "a tiled image with a zero tile size");
        if ((uint64_t)info->tile_width * info->tile_height > d->max_pixels) {
            *out = *info;
            return ctiff_fail(d, CTIFF_LIMIT_EXCEEDED, "tile");
        }
    }
    uint16_t orientation = ORIENTATION_TOPLEFT;
    ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_ORIENTATION, &orientation);
    info->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_BITSPERSAMPLE, &info->bits_per_sample);
    ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_SAMPLESPERPIXEL, &info->samples_per_pixel);
    ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_SAMPLEFORMAT, &info->sample_format);
    ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_PLANARCONFIG, &info->planar);
    ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_COMPRESSION, &info->compression);
    if (!ctiff_libtiff.TIFFGetField(d->tif, TIFFTAG_PHOTOMETRIC, &info->photometric)) {
        info->photometric = info->samples_per_pixel >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    }
    uint16_t extra_count = 0;
    uint16_t *extra = NULL;
    ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    if (info->compression == COMPRESSION_JPEG && info->photometric == PHOTOMETRIC_YCBCR) {
        // libjpeg turns YCbCr into RGB (and upsamples) as it decodes.
        ctiff_libtiff.TIFFSetField(d->tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        info->photometric = PHOTOMETRIC_RGB;
    }
    ctiff_status status = describe_layout(d, extra_count, extra);
    if (status != CTIFF_OK && !d->use_rgba_reader) return status;
    if (d->use_rgba_reader) {
        char reason[1024] = "";
        if (!ctiff_libtiff.TIFFRGBAImageOK(d->tif, reason)) return ctiff_fail(d, CTIFF_UNSUPPORTED, reason);
        info->alpha = info->samples_per_pixel > 3 && extra_count > 0 ? (extra[0] == EXTRASAMPLE_ASSOCALPHA ? 1 : 2) : 0;
    }
    *out = *info;
    return CTIFF_OK;
}

