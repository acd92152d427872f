// Reading a page's pixels: strips or tiles through libtiff, converted a row at a time
// (ctiff_pixels.c); libtiff's own RGBA reader for the layouts it alone understands (YCbCr with
// subsampling, old-style JPEG, LogLuv).
#include "ctiff_decoder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Reading

/// Whether strip or tile `strile` runs past the end of the data (cut short) rather than
/// holding damaged data.
static ctiff_damage damage_of(ctiff_decoder *d, uint32_t strile) {
    int error = 0;
    uint64_t offset = ctiff_libtiff.TIFFGetStrileOffsetWithErr(d->tif, strile, &error);
    uint64_t count = error ? 0 : ctiff_libtiff.TIFFGetStrileByteCountWithErr(d->tif, strile, &error);
    if (!error && (offset > d->size || count > d->size - offset)) return CTIFF_DAMAGE_TRUNCATED;
    return CTIFF_DAMAGE_ERROR;
}

/// After one strip or tile: whether to go on. A failed read is damage (left transparent
/// when the level lets it through); a codec warning may have asked to stop.
static ctiff_status after_read(ctiff_decoder *d, tmsize_t result, uint32_t strile, const char *what) {
    if (d->stop) return CTIFF_CORRUPT;
    if (result >= 0) return CTIFF_OK;
    ctiff_damage kind = damage_of(d, strile);
    char text[512];
    snprintf(text, sizeof text, "%s %u: %s", what, strile, d->message[0] ? d->message : "cannot be read");
    ctiff_note_damage(d, kind, text);
    if (!ctiff_stops_at(d, kind)) return CTIFF_OK;
    snprintf(d->message, sizeof d->message, "%s", text);
    return kind == CTIFF_DAMAGE_TRUNCATED ? CTIFF_TRUNCATED : CTIFF_CORRUPT;
}

static ctiff_status read_strips(ctiff_decoder *d, uint8_t *out, uint8_t *buffers[], uint16_t planes) {
    uint32_t width = d->info.width, height = d->info.height, rows_per_strip = height;
    ctiff_libtiff.TIFFGetFieldDefaulted(d->tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    if (rows_per_strip == 0 || rows_per_strip > height) rows_per_strip = height;
    tmsize_t strip_size = ctiff_libtiff.TIFFStripSize(d->tif), row_size = ctiff_libtiff.TIFFScanlineSize(d->tif);
    for (uint32_t row = 0; row < height; row += rows_per_strip) {
        uint32_t rows = height - row < rows_per_strip ? height - row : rows_per_strip;
        int readable = 1;
        for (uint16_t p = 0; p < planes; p++) {
            uint32_t strip = ctiff_libtiff.TIFFComputeStrip(d->tif, row, p);
            d->message[0] = 0;
            tmsize_t n = ctiff_libtiff.TIFFReadEncodedStrip(d->tif, strip, buffers[p], strip_size);
            ctiff_status status = after_read(d, n, strip, "strip");
            if (status != CTIFF_OK) return status;
            if (n < 0) readable = 0;
            else if (n < row_size * (tmsize_t)rows) memset(buffers[p] + n, 0, (size_t)(row_size * rows - n));
        }
        if (!readable) continue;
        for (uint32_t r = 0; r < rows; r++) {
            const uint8_t *spans[5];
            for (uint16_t p = 0; p < planes; p++) spans[p] = buffers[p] + (size_t)r * (size_t)row_size;
            ctiff_convert_span(&d->layout, spans, width, out + ((size_t)(row + r) * width) * 4);
        }
    }
    return CTIFF_OK;
}

static ctiff_status read_tiles(ctiff_decoder *d, uint8_t *out, uint8_t *buffers[], uint16_t planes) {
    uint32_t width = d->info.width, height = d->info.height, tw = d->info.tile_width, th = d->info.tile_height;
    tmsize_t tile_size = ctiff_libtiff.TIFFTileSize(d->tif), row_size = ctiff_libtiff.TIFFTileRowSize(d->tif);
    for (uint32_t y = 0; y < height; y += th) {
        for (uint32_t x = 0; x < width; x += tw) {
            int readable = 1;
            for (uint16_t p = 0; p < planes; p++) {
                uint32_t tile = ctiff_libtiff.TIFFComputeTile(d->tif, x, y, 0, p);
                d->message[0] = 0;
                tmsize_t n = ctiff_libtiff.TIFFReadEncodedTile(d->tif, tile, buffers[p], tile_size);
                ctiff_status status = after_read(d, n, tile, "tile");
                if (status != CTIFF_OK) return status;
                if (n < 0) readable = 0;
                else if (n < tile_size) memset(buffers[p] + n, 0, (size_t)(tile_size - n));
            }
            if (!readable) continue;
            uint32_t rows = height - y < th ? height - y : th, columns = width - x < tw ? width - x : tw;
            for (uint32_t r = 0; r < rows; r++) {
                const uint8_t *spans[5];
                for (uint16_t p = 0; p < planes; p++) spans[p] = buffers[p] + (size_t)r * (size_t)row_size;
                ctiff_convert_span(&d->layout, spans, columns, out + ((size_t)(y + r) * width + x) * 4);
            }
        }
    }
    return CTIFF_OK;
}

/// libtiff's RGBA reader, asked for the stored orientation (so it flips nothing); its
/// output is premultiplied whenever there is alpha.
static ctiff_status read_with_rgba_reader(ctiff_decoder *d, uint8_t *out) {
    TIFFRGBAImage image;
    char reason[1024] = "";
    if (!ctiff_libtiff.TIFFRGBAImageBegin(&image, d->tif, d->fail_on != CTIFF_FAIL_ON_NONE, reason)) {
        return ctiff_fail(d, CTIFF_UNSUPPORTED, reason[0] ? reason : "libtiff's RGBA reader refused the image");
    }
    image.req_orientation = image.orientation;
    d->message[0] = 0;
    int ok = ctiff_libtiff.TIFFRGBAImageGet(&image, (uint32_t *)(void *)out, d->info.width, d->info.height);
    int alpha = image.alpha;
    ctiff_libtiff.TIFFRGBAImageEnd(&image);
    if (d->stop) return CTIFF_CORRUPT;
    if (!ok || d->message[0]) {
        char text[512];
        snprintf(text, sizeof text, "%s", d->message[0] ? d->message : "the pixel data cannot be read");
        ctiff_note_damage(d, CTIFF_DAMAGE_ERROR, text);
        if (ctiff_stops_at(d, CTIFF_DAMAGE_ERROR)) return ctiff_fail(d, CTIFF_CORRUPT, text);
    }
    if (alpha) ctiff_unpremultiply(out, (size_t)d->info.width * d->info.height);
    return CTIFF_OK;
}

ctiff_status ctiff_decoder_read_rgba(ctiff_decoder *d, uint8_t *out, size_t out_size, int keep_cmyk) {
    if (!d->tif || d->info.width == 0) return ctiff_fail(d, CTIFF_CORRUPT, "no page is open");
    if (out_size / 4 / d->info.width < d->info.height) return ctiff_fail(d, CTIFF_OUT_OF_MEMORY, "the output buffer is too small");
    memset(out, 0, (size_t)d->info.width * d->info.height * 4);
    d->reading = 1;
    if (d->use_rgba_reader) {
        ctiff_status status = read_with_rgba_reader(d, out);
        d->reading = 0;
        return status;
    }
    d->layout.keep_cmyk = keep_cmyk && d->layout.model == CTIFF_MODEL_CMYK && !d->layout.alpha;
    uint16_t planes = d->layout.separate ? (uint16_t)(d->layout.colours + (d->layout.alpha ? 1 : 0)) : 1;
    tmsize_t size = d->info.tile_width ? ctiff_libtiff.TIFFTileSize(d->tif) : ctiff_libtiff.TIFFStripSize(d->tif);
    uint8_t *buffers[5] = {NULL, NULL, NULL, NULL, NULL};
    ctiff_status status = CTIFF_OK;
    for (uint16_t p = 0; p < planes; p++) {
        buffers[p] = size > 0 && (uint64_t)size <= d->max_alloc ? malloc((size_t)size) : NULL;
        if (!buffers[p]) { status = ctiff_fail(d, CTIFF_OUT_OF_MEMORY, "out of memory for a strip or tile"); break; }
    }
    if (status == CTIFF_OK) status = d->info.tile_width ? read_tiles(d, out, buffers, planes) : read_strips(d, out, buffers, planes);
    for (uint16_t p = 0; p < planes; p++) free(buffers[p]);
    d->reading = 0;
    return status;
}
