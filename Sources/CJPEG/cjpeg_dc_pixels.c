// CJPEG: the pixels of the DC-only reader (see cjpeg_dc_only.h): the 1×1 IDCT of every
// block, chroma upsampling for subsampled components, and libjpeg's YCbCr → RGB.
#include <stdlib.h>

#include "cjpeg_dc_reader.h"

// MARK: - Samples

/// libjpeg's post-IDCT range limit for 8-bit samples, including how it wraps values far
/// out of range (`range_limit[x & RANGE_MASK]` with the table jdmaster.c builds).
static inline uint8_t idct_limit(int32_t value) {
    int i = (int)(value & 1023);
    if (i < 128) return (uint8_t)(i + 128);
    if (i < 512) return 255;
    if (i < 896) return 0;
    return (uint8_t)(i - 896);
}

static inline uint8_t clamp_sample(int value) {
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

/// One component's samples on its own grid: the 1×1 IDCT of each block (dequantised DC / 8,
/// rounded), `c->blocks_wide` × `c->blocks_high`. NULL if memory runs out.
static uint8_t *component_samples(const dc_component *c) {
    uint8_t *samples = malloc((size_t)c->blocks_wide * (size_t)c->blocks_high);
    if (samples == NULL) return NULL;
    for (int y = 0; y < c->blocks_high; y++) {
        const int16_t *row = c->coefficients + (size_t)y * (size_t)c->stride;
        uint8_t *out = samples + (size_t)y * (size_t)c->blocks_wide;
        for (int x = 0; x < c->blocks_wide; x++) out[x] = idct_limit(((int32_t)row[x] * c->q0 + 4) >> 3);
    }
    return samples;
}

// MARK: - Upsampling

/// The sample of a component for output column `x`. At full resolution it is sample `x`; at
/// half resolution (4:2:2: one chroma sample per two columns) it is libjpeg's "fancy" triangle
/// upsampling, which centres each sample between the two columns it covers: 3/4 of the nearer
/// sample (`x / 2`) and 1/4 of the other neighbour, rounded, edges repeating the last sample.
static inline uint8_t sample_at(const uint8_t *row, int wide, int halved, int x) {
    if (!halved) return row[x < wide ? x : wide - 1];
    int near = x / 2;
    if (near >= wide) near = wide - 1;
    int far = (x & 1) ? near + 1 : near - 1;
    if (far < 0) far = 0;
    if (far >= wide) far = wide - 1;
    return (uint8_t)((3 * row[near] + row[far] + 2) >> 2);
}

// MARK: - Output

/// One pixel per luma block: each component's sample (upsampled if horizontally subsampled;
/// `cjpeg_dc_only_applies` admits no vertical subsampling), then libjpeg's fixed-point
/// YCbCr → RGB (jdcolor.c, 16 fraction bits).
int cjpeg_dc_write_pixels(const dc_reader *r, uint32_t width, uint32_t height, uint8_t *pixels, size_t stride) {
    enum { SCALEBITS = 16 };
    const int32_t one_half = 1 << (SCALEBITS - 1);
#define FIX(x) ((int32_t)((x) * (1L << SCALEBITS) + 0.5))
    int32_t cr_r[256], cb_b[256], cr_g[256], cb_g[256];
    for (int i = 0; i < 256; i++) {
        int32_t x = i - 128;
        cr_r[i] = (FIX(1.40200) * x + one_half) >> SCALEBITS;
        cb_b[i] = (FIX(1.77200) * x + one_half) >> SCALEBITS;
        cr_g[i] = -FIX(0.71414) * x;
        cb_g[i] = -FIX(0.34414) * x + one_half;
    }
#undef FIX
    uint8_t *samples[DC_MAX_COMPONENTS] = {NULL};
    int halved[DC_MAX_COMPONENTS];
    int ok = 1;
    for (int c = 0; c < r->components && ok; c++) {
        samples[c] = component_samples(&r->comp[c]);
        halved[c] = r->comp[c].h != r->max_h;
        ok = samples[c] != NULL;
    }
    for (uint32_t y = 0; y < height && ok; y++) {
        uint8_t *out = pixels + (size_t)y * stride;
        const uint8_t *rows[DC_MAX_COMPONENTS];
        for (int c = 0; c < r->components; c++) {
            int row = (int)y < r->comp[c].blocks_high ? (int)y : r->comp[c].blocks_high - 1;
            rows[c] = samples[c] + (size_t)row * (size_t)r->comp[c].blocks_wide;
        }
        for (uint32_t x = 0; x < width; x++, out += 4) {
            uint8_t s[DC_MAX_COMPONENTS];
            for (int c = 0; c < r->components; c++) s[c] = sample_at(rows[c], r->comp[c].blocks_wide, halved[c], (int)x);
            if (r->components == 1) {
                out[0] = out[1] = out[2] = s[0];
            } else {
                int luma = s[0], cb = s[1], cr = s[2];
                out[0] = clamp_sample(luma + cr_r[cr]);
                out[1] = clamp_sample(luma + ((cb_g[cb] + cr_g[cr]) >> SCALEBITS));
                out[2] = clamp_sample(luma + cb_b[cb]);
            }
            out[3] = 255;
        }
    }
    for (int c = 0; c < r->components; c++) free(samples[c]);
    return ok;
}
