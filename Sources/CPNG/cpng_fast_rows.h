// Private to CPNG: reading the image data of a plain PNG without libpng's row machinery.
#ifndef DARKROOM_CPNG_FAST_ROWS_H
#define DARKROOM_CPNG_FAST_ROWS_H

#include <stddef.h>
#include <stdint.h>

/// The most filtered image bytes the fast path inflates at once (64 MiB); larger images go
/// through libpng row by row, so memory stays a few rows however large the image.
#define CPNG_FAST_ROWS_MAX_BYTES ((size_t)64 << 20)

/// Receives each unfiltered row (width × channels bytes), top to bottom.
typedef void (*cpng_fast_row_sink)(void *context, const uint8_t *row);

/// Decodes the rows of a non-interlaced 8-bit PNG of `channels` 3 (RGB) or 4 (RGBA) whose
/// first IDAT chunk (its length field) is at `first_idat`: checks every IDAT CRC, inflates the
/// whole stream at once with libdeflate (2–3× zlib's speed; it checks the Adler-32) and
/// unfilters the rows in place, handing each to `sink`.
///
/// Returns 1 when every row went to `sink`; 0 — before any row went out — when the image is
/// over ``CPNG_FAST_ROWS_MAX_BYTES`` or anything is unusual (a cut or damaged chunk, a stream too short or too long, an unknown filter, no
/// memory), so the caller can let libpng read the file and report the problem its way.
int cpng_fast_rows(const uint8_t *data, size_t size, size_t first_idat, uint32_t width, uint32_t height,
                   int channels, cpng_fast_row_sink sink, void *context);

#endif
