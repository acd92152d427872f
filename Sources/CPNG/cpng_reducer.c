// CPNG: shrink-on-load's box average (see cpng_reducer.h).
#include <string.h>

#include "cpng_reducer.h"

// MARK: - Set-up

static size_t sums_bytes(uint32_t width, uint32_t factor) {
    size_t out_width = ((size_t)width + factor - 1) / factor;
    return out_width * 4 * sizeof(uint32_t);
}

size_t cpng_reducer_scratch_bytes(uint32_t width, uint32_t factor) {
    return sums_bytes(width, factor) + (size_t)width * 3 * sizeof(uint16_t);
}

cpng_reducer cpng_reducer_init(void *scratch, uint32_t width, uint32_t height, uint32_t factor, int channels,
                               uint8_t *pixels, size_t stride) {
    memset(scratch, 0, cpng_reducer_scratch_bytes(width, factor));
    uint32_t *sums = (uint32_t *)scratch;
    uint16_t *columns = (uint16_t *)(void *)((uint8_t *)scratch + sums_bytes(width, factor));
    return (cpng_reducer){sums, columns, width, height, (width + factor - 1) / factor, factor, 0, channels,
                          pixels, stride};
}

// MARK: - Adding rows

/// RGBA: adds the row into per-output-pixel sums, weighted by alpha: sums[0..2] = Σ c·a,
/// sums[3] = Σ a. (uint32 is enough: at most 256·256 pixels of 255·255.)
static void accumulate_weighted(const uint8_t *row, uint32_t width, uint32_t factor, uint32_t *sums) {
    uint32_t out_width = (width + factor - 1) / factor;
    for (uint32_t ox = 0; ox < out_width; ox++) {
        uint32_t first = ox * factor, last = first + factor < width ? first + factor : width;
        const uint8_t *p = row + (size_t)first * 4;
        uint32_t r = 0, g = 0, b = 0, a = 0;
        for (uint32_t x = first; x < last; x++, p += 4) {
            uint32_t alpha = p[3];
            r += p[0] * alpha;
            g += p[1] * alpha;
            b += p[2] * alpha;
            a += alpha;
        }
        uint32_t *s = sums + (size_t)ox * 4;
        s[0] += r;
        s[1] += g;
        s[2] += b;
        s[3] += a;
    }
}

/// RGB: adds each byte into its column's sum (a loop the compiler vectorises).
static void accumulate_columns(const uint8_t *restrict row, size_t count, uint16_t *restrict columns) {
    for (size_t i = 0; i < count; i++) columns[i] = (uint16_t)(columns[i] + row[i]);
}

/// RGB: sums each output pixel's columns into `sums` (R, G, B; the fourth unused).
static void sum_columns(const uint16_t *columns, uint32_t width, uint32_t factor, uint32_t *sums) {
    uint32_t out_width = (width + factor - 1) / factor;
    for (uint32_t ox = 0; ox < out_width; ox++) {
        uint32_t first = ox * factor, last = first + factor < width ? first + factor : width;
        const uint16_t *p = columns + (size_t)first * 3;
        uint32_t r = 0, g = 0, b = 0;
        for (uint32_t x = first; x < last; x++, p += 3) {
            r += p[0];
            g += p[1];
            b += p[2];
        }
        uint32_t *s = sums + (size_t)ox * 4;
        s[0] = r;
        s[1] = g;
        s[2] = b;
    }
}

// MARK: - Writing a row

/// Writes one RGBA output row from the sums of `rows` input rows, rounding to nearest.
static void emit_row(const uint32_t *sums, uint32_t width, uint32_t out_width, uint32_t factor, uint32_t rows,
                     int channels, uint8_t *out) {
    for (uint32_t ox = 0; ox < out_width; ox++) {
        const uint32_t *s = sums + (size_t)ox * 4;
        uint32_t columns = ox + 1 < out_width ? factor : width - ox * factor;
        uint32_t count = columns * rows;
        uint8_t *o = out + (size_t)ox * 4;
        if (channels == 4) {
            uint32_t alpha = s[3];
            for (int c = 0; c < 3; c++) o[c] = alpha ? (uint8_t)((s[c] + alpha / 2) / alpha) : 0;
            o[3] = (uint8_t)((alpha + count / 2) / count);
        } else {
            for (int c = 0; c < 3; c++) o[c] = (uint8_t)((s[c] + count / 2) / count);
            o[3] = 255;
        }
    }
}

// MARK: - Entry point

void cpng_reduce_row(void *context, const uint8_t *row) {
    cpng_reducer *r = (cpng_reducer *)context;
    if (r->channels == 3) {
        accumulate_columns(row, (size_t)r->width * 3, r->columns);
    } else {
        accumulate_weighted(row, r->width, r->factor, r->sums);
    }
    uint32_t y = r->next_row++;
    if (r->next_row % r->factor == 0 || r->next_row == r->height) {
        uint32_t oy = y / r->factor, rows = y - oy * r->factor + 1;
        if (r->channels == 3) {
            sum_columns(r->columns, r->width, r->factor, r->sums);
            memset(r->columns, 0, (size_t)r->width * 3 * sizeof(uint16_t));
        }
        emit_row(r->sums, r->width, r->out_width, r->factor, rows, r->channels,
                 r->pixels + (size_t)oy * r->stride);
        memset(r->sums, 0, (size_t)r->out_width * 4 * sizeof(uint32_t));
    }
}
