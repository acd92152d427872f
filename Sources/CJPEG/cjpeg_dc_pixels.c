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

/// For output coordinate `o` of a component at half resolution on this axis: the nearer
/// sample (`o / 2`) and the other neighbour, weighted 3:1 — libjpeg's "fancy" triangle
/// upsampling, which centres each sample between the two output pixels it covers. At full
/// resolution the sample is `o` with weight 4. Edges repeat the last sample.
typedef struct { int near, far, near_weight; } tap;

static inline tap tap_for(int o, int halved, int count) {
    if (!halved) return (tap){o < count ? o : count - 1, 0, 4};
    int near = o / 2;
    if (near >= count) near = count - 1;
    int far = (o & 1) ? near + 1 : near - 1;
    if (far < 0) far = 0;
    if (far >= count) far = count - 1;
    return (tap){near, far, 3};
}

/// The component's sample for output pixel (x, y), upsampled when the component is
/// subsampled: weights 3:1 on each halved axis (9/16, 3/16, 3/16, 1/16 on both), rounded.
static inline uint8_t upsampled(const uint8_t *samples, int wide, tap tx, tap ty) {
    const uint8_t *near_row = samples + (size_t)ty.near * (size_t)wide;
    const uint8_t *far_row = samples + (size_t)ty.far * (size_t)wide;
    int far_h = 4 - tx.near_weight, far_v = 4 - ty.near_weight;
    int near = tx.near_weight * near_row[tx.near] + far_h * near_row[tx.far];
    int far = tx.near_weight * far_row[tx.near] + far_h * far_row[tx.far];
    return (uint8_t)((ty.near_weight * near + far_v * far + 8) >> 4);
}

// MARK: - Output

/// One pixel per luma block: each component's sample (upsampled if subsampled), then
/// libjpeg's fixed-point YCbCr → RGB (jdcolor.c, 16 fraction bits).
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
    int halved_h[DC_MAX_COMPONENTS], halved_v[DC_MAX_COMPONENTS];
    int ok = 1;
    for (int c = 0; c < r->components && ok; c++) {
        samples[c] = component_samples(&r->comp[c]);
        halved_h[c] = r->comp[c].h != r->max_h;
        halved_v[c] = r->comp[c].v != r->max_v;
        ok = samples[c] != NULL;
    }
    for (uint32_t y = 0; y < height && ok; y++) {
        uint8_t *out = pixels + (size_t)y * stride;
        tap ty[DC_MAX_COMPONENTS];
        for (int c = 0; c < r->components; c++) ty[c] = tap_for((int)y, halved_v[c], r->comp[c].blocks_high);
        for (uint32_t x = 0; x < width; x++, out += 4) {
            uint8_t s[DC_MAX_COMPONENTS];
            for (int c = 0; c < r->components; c++) {
                const dc_component *component = &r->comp[c];
                s[c] = upsampled(samples[c], component->blocks_wide,
                                 tap_for((int)x, halved_h[c], component->blocks_wide), ty[c]);
            }
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
