// Private to CPNG: a PNG's image data (IDAT) filtered and deflated by CPNG itself.
#ifndef DARKROOM_CPNG_IMAGE_DATA_H
#define DARKROOM_CPNG_IMAGE_DATA_H

#include <stddef.h>
#include <stdint.h>

/// The most filtered image bytes compressed in one go (64 MiB, as for reading); larger images
/// are left to libpng, which filters and deflates row by row.
#define CPNG_IMAGE_DATA_MAX_BYTES ((size_t)64 << 20)

/// The zlib stream of a non-interlaced 8-bit image: each row of `width` RGBA8 pixels from
/// `pixels` (`stride` bytes apart) is written as RGB (`channels` 3) or RGBA (4), filtered with
/// the filter whose output has the smallest sum of absolute values (libpng's heuristic; no
/// filter at level 0), and the whole is deflated at `level` (0–9) by libdeflate, which is 2–3×
/// as fast as zlib at the same level and usually smaller.
///
/// Returns the stream (to `free`) and its length in `*length`, or NULL when out of memory.
uint8_t *cpng_deflate_image(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                            int channels, int level, size_t *length);

#endif
