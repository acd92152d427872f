// CPNG: filtering and deflating a PNG's image data (see cpng_image_data.h).
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>

#include "cpng_image_data.h"
#include "cpng_unfilter.h"

// MARK: - Filters (PNG spec 9.2–9.4)

/// Writes `row` filtered with `filter` to `out` and returns the sum of the output bytes read
/// as signed values' magnitudes (the "minimum sum of absolute differences" heuristic).
static inline __attribute__((always_inline)) size_t filter_row(int filter, const uint8_t *row, const uint8_t *previous, size_t length, size_t bpp,
                         uint8_t *out) {
    size_t sum = 0;
    for (size_t i = 0; i < length; i++) {
        int left = i >= bpp ? row[i - bpp] : 0;
        int up = previous ? previous[i] : 0;
        int upper_left = previous && i >= bpp ? previous[i - bpp] : 0;
        int predicted;
        switch (filter) {
        case 1: predicted = left; break;
        case 2: predicted = up; break;
        case 3: predicted = (left + up) >> 1; break;
        case 4: predicted = cpng_paeth_predictor(left, up, upper_left); break;
        default: predicted = 0; break;
        }
        uint8_t value = (uint8_t)(row[i] - predicted);
        out[i] = value;
        sum += value < 128 ? value : 256 - value;
    }
    return sum;
}

// MARK: - Rows

/// The row `y` as `channels`-byte pixels in `out`.
static void pack_row(const uint8_t *rgba, uint32_t width, int channels, uint8_t *out) {
    if (channels == 4) {
        memcpy(out, rgba, (size_t)width * 4);
        return;
    }
    for (uint32_t x = 0; x < width; x++) {
        out[3 * x] = rgba[4 * x];
        out[3 * x + 1] = rgba[4 * x + 1];
        out[3 * x + 2] = rgba[4 * x + 2];
    }
}

// MARK: - Entry point

uint8_t *cpng_deflate_image(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                            int channels, int level, size_t *length) {
    size_t row_bytes = (size_t)width * (size_t)channels;
    size_t filtered_size = (row_bytes + 1) * height;
    uint8_t *filtered = malloc(filtered_size);
    uint8_t *rows = malloc(row_bytes * 3);  // this row, the one above, a candidate
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
    uint8_t *stream = NULL;
    if (filtered != NULL && rows != NULL && compressor != NULL) {
        uint8_t *current = rows, *previous = rows + row_bytes, *candidate = rows + 2 * row_bytes;
        for (uint32_t y = 0; y < height; y++) {
            pack_row(pixels + (size_t)y * stride, width, channels, current);
            uint8_t *line = filtered + (size_t)y * (row_bytes + 1);
            const uint8_t *above = y > 0 ? previous : NULL;
            line[0] = 0;
            if (level == 0) {
                memcpy(line + 1, current, row_bytes);
            } else {
                size_t best = filter_row(0, current, above, row_bytes, (size_t)channels, line + 1);
                for (int filter = 1; filter <= 4; filter++) {
                    size_t sum = filter_row(filter, current, above, row_bytes, (size_t)channels, candidate);
                    if (sum < best) {
                        best = sum;
                        line[0] = (uint8_t)filter;
                        memcpy(line + 1, candidate, row_bytes);
                    }
                }
            }
            uint8_t *swap = previous;
            previous = current;
            current = swap;
        }
        size_t bound = libdeflate_zlib_compress_bound(compressor, filtered_size);
        stream = malloc(bound);
        if (stream != NULL) {
            *length = libdeflate_zlib_compress(compressor, filtered, filtered_size, stream, bound);
            if (*length == 0) {  // cannot happen with the bound's room; treated as no memory
                free(stream);
                stream = NULL;
            }
        }
    }
    libdeflate_free_compressor(compressor);
    free(rows);
    free(filtered);
    return stream;
}
