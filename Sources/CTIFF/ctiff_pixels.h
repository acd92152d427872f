// How one TIFF page's samples become RGBA8: the layout the reader found, and the
// conversion of a span of stored pixels (see ctiff_pixels.c).
#ifndef CTIFF_PIXELS_H
#define CTIFF_PIXELS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    CTIFF_MODEL_GREY = 0,    // min-is-black (invert for min-is-white)
    CTIFF_MODEL_PALETTE = 1,
    CTIFF_MODEL_RGB = 2,
    CTIFF_MODEL_CMYK = 3,
    CTIFF_MODEL_CIELAB = 4,  // a*, b* signed
    CTIFF_MODEL_ICCLAB = 5   // a*, b* offset by 128
} ctiff_model;

typedef struct {
    ctiff_model model;
    int invert;                // min-is-white
    uint16_t bits;             // per sample
    uint16_t format;           // 1 unsigned (4, void, too), 2 signed, 3 IEEE float
    uint16_t colours;          // colour samples per pixel
    uint16_t alpha;            // 0 none, 1 associated, 2 unassociated (the sample after the colours)
    uint16_t stride;           // samples between pixels in one row buffer (1 for separate planes)
    int separate;              // one row buffer per sample
    int keep_cmyk;             // CMYK: write the inks, not RGB (no alpha then)
    // Palette: 2^bits entries per channel; `palette_16` when the map holds 16-bit values.
    const uint16_t *palette[3];
    int palette_16;
    // CIELab: XYZ (white-relative) → linear sRGB, with the white point adapted to D65.
    double white[3];
    double to_srgb[3][3];
} ctiff_layout;

/// Sets `to_srgb` and `white` for a page whose white point has chromaticity (x, y).
void ctiff_layout_set_white_point(ctiff_layout *layout, double x, double y);

/// Converts `count` stored pixels to RGBA8 at `out`. `rows[0]` is the row (contiguous
/// samples); with separate planes `rows[s]` is sample s's row.
void ctiff_convert_span(const ctiff_layout *layout, const uint8_t *const rows[], uint32_t count, uint8_t *out);

/// Straight colours from premultiplied RGBA8, in place.
void ctiff_unpremultiply(uint8_t *pixels, size_t count);

#endif
