// Private to CPNG: undoing PNG's row filters (PNG spec 9.2–9.4).
#ifndef DARKROOM_CPNG_UNFILTER_H
#define DARKROOM_CPNG_UNFILTER_H

#include <stddef.h>
#include <stdint.h>

/// One row to unfilter: its filter type, its filtered bytes and where its pixels go.
typedef struct {
    uint8_t filter;
    const uint8_t *filtered;
    uint8_t *out;
} cpng_filtered_row;

/// Undoes the filters of `first` (below the unfiltered row `above`, NULL for the image's top row)
/// and of `second` (below `first`; NULL for none), `length` bytes of `bpp`-byte pixels each.
///
/// Sub, Average and Paeth each need the pixel just unfiltered, so a row cannot go 16 bytes at a
/// time. Rows of 3- and 4-byte pixels go a pixel at a time in SSE2 registers where the processor
/// has them, the two rows side by side (the second a pixel behind the first), which overlaps
/// their chains of dependent pixels. Every `filtered`, `out` and `above` row must have one byte
/// to spare past `length`, which may be read or overwritten.
///
/// Returns 0, before writing anything, when a filter type is unknown.
int cpng_unfilter_rows(const cpng_filtered_row *first, const uint8_t *above, const cpng_filtered_row *second,
                       size_t length, size_t bpp);

/// The Paeth predictor (PNG spec 9.4) of a byte from its left (`a`), upper (`b`) and upper-left
/// (`c`) neighbours: the one closest to `a + b - c`, ties going to `a`, then `b`. The encoder's
/// filter choice uses it as well.
static inline uint8_t cpng_paeth_predictor(int a, int b, int c) {
    int pa = b > c ? b - c : c - b;
    int pb = a > c ? a - c : c - a;
    int pc = a + b - 2 * c;
    pc = pc < 0 ? -pc : pc;
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

/// Undoes `filter` (0–4) on `row` in place, byte by byte: the plain version, used without SSE2.
/// Returns 0 for an unknown filter type.
int cpng_unfilter_row_scalar(uint8_t filter, uint8_t *row, const uint8_t *previous, size_t length, size_t bpp);

#endif
