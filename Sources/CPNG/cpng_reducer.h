// Private to CPNG: shrink-on-load, the box average of factor×factor blocks taken as rows arrive.
#ifndef DARKROOM_CPNG_REDUCER_H
#define DARKROOM_CPNG_REDUCER_H

#include <stddef.h>
#include <stdint.h>

/// Where reduced rows go: sums of the current block row, written out every `factor` rows.
typedef struct {
    /// Four per output pixel (RGBA: Σ c·a and Σ a; RGB: filled from `columns` per block row).
    uint32_t *sums;
    /// RGB only: the block row's sum of each input byte (factor ≤ 256 rows of 255 fit in 16
    /// bits), so a row costs one vector add and the columns are summed once per block row.
    uint16_t *columns;
    uint32_t width, height, out_width, factor, next_row;
    int channels;
    uint8_t *pixels;
    size_t stride;
} cpng_reducer;

/// The bytes `cpng_reducer_init` needs for an image `width` wide (its sums and columns).
size_t cpng_reducer_scratch_bytes(uint32_t width, uint32_t factor);

/// A reducer writing `(width / factor)` × `(height / factor)` (rounded up) RGBA pixels to
/// `pixels`, `stride` apart, from rows of `channels` 3 (RGB, opaque) or 4 (RGBA, averaged
/// weighted by alpha), with `scratch` (`cpng_reducer_scratch_bytes`, 16-byte aligned) as its
/// working memory.
cpng_reducer cpng_reducer_init(void *scratch, uint32_t width, uint32_t height, uint32_t factor, int channels,
                               uint8_t *pixels, size_t stride);

/// Adds the next row (top to bottom); every `factor` rows, and at the last, writes an output row
/// rounded to nearest. The signature is a `cpng_fast_row_sink`'s.
void cpng_reduce_row(void *context, const uint8_t *row);

#endif
