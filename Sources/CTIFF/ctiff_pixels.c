// Stored TIFF samples → RGBA8: every integer depth from 1 to 32 bits, signed or not,
// 16/32/64-bit floats, grey, palette, RGB, CMYK and CIELab, with associated or
// unassociated alpha.
#include "ctiff_pixels.h"

#include <math.h>
#include <string.h>

// MARK: - Reading one sample

/// The raw bits of sample `index` in `row`. libtiff has already put 16-, 24-, 32- and
/// 64-bit samples in host byte order; other depths are packed most significant bit first.
static uint64_t raw_sample(const uint8_t *row, size_t index, uint16_t bits) {
    switch (bits) {
    case 8: return row[index];
    case 16: { uint16_t v; memcpy(&v, row + index * 2, 2); return v; }
    case 32: { uint32_t v; memcpy(&v, row + index * 4, 4); return v; }
    case 64: { uint64_t v; memcpy(&v, row + index * 8, 8); return v; }
    case 24: {
        const uint8_t *p = row + index * 3;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16;
#else
        return (uint64_t)p[2] | (uint64_t)p[1] << 8 | (uint64_t)p[0] << 16;
#endif
    }
    default: {
        uint64_t bit = (uint64_t)index * bits, value = 0;
        for (uint16_t i = 0; i < bits; i++, bit++) {
            value = value << 1 | ((row[bit >> 3] >> (7 - (bit & 7))) & 1);
        }
        return value;
    }
    }
}

static double half_to_double(uint16_t h) {
    int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (exponent == 0) return sign * ldexp(mantissa, -24);
    if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
    return sign * ldexp(mantissa + 1024, exponent - 25);
}

/// A sample as a fraction 0…1: unsigned integers over their range, signed ones with
/// negatives as 0, floats clamped (NaN is 0).
static double fraction(uint64_t raw, uint16_t bits, uint16_t format) {
    if (format == 3) {
        double v;
        if (bits == 16) v = half_to_double((uint16_t)raw);
        else if (bits == 32) { float f; uint32_t r = (uint32_t)raw; memcpy(&f, &r, 4); v = f; }
        else { memcpy(&v, &raw, 8); }
        if (!(v > 0)) return 0;
        return v < 1 ? v : 1;
    }
    if (format == 2) {
        uint64_t sign = (uint64_t)1 << (bits - 1);
        if (raw & sign) return 0;
        return (double)raw / (double)(sign - 1);
    }
    if (bits == 64) return (double)raw / 18446744073709551615.0;
    return (double)raw / (double)(((uint64_t)1 << bits) - 1);
}

static uint8_t byte_of(double fraction) { return (uint8_t)(fraction * 255.0 + 0.5); }

/// A sample scaled to 0…255.
static inline uint8_t sample8(const ctiff_layout *l, uint64_t raw) {
    if (l->format != 3 && l->format != 2) {
        if (l->bits == 8) return (uint8_t)raw;
        if (l->bits == 16) return (uint8_t)((raw * 255 + 32767) / 65535);
        if (l->bits < 8) return (uint8_t)((raw * 255 + ((1u << l->bits) - 1) / 2) / ((1u << l->bits) - 1));
    }
    return byte_of(fraction(raw, l->bits, l->format));
}

/// A signed sample of `bits` bits as an integer.
static int64_t signed_sample(uint64_t raw, uint16_t bits) {
    uint64_t sign = (uint64_t)1 << (bits - 1);
    return (raw & sign) ? (int64_t)raw - (int64_t)(sign << 1) : (int64_t)raw;
}

// MARK: - CIELab

static double lab_inverse(double t) {
    const double delta = 6.0 / 29.0;
    return t > delta ? t * t * t : 3 * delta * delta * (t - 4.0 / 29.0);
}

static uint8_t srgb_byte(double linear) {
    if (!(linear > 0)) return 0;
    if (linear >= 1) return 255;
    double v = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055;
    return byte_of(v);
}

void ctiff_layout_set_white_point(ctiff_layout *layout, double x, double y) {
    if (!(y > 0) || !(x > 0) || x + y >= 1) { x = 0.3457; y = 0.3585; }  // D50, as libtiff defaults
    double white[3] = {x / y, 1.0, (1 - x - y) / y};
    static const double d65[3] = {0.95047, 1.0, 1.08883};
    // Bradford: cone responses of both whites, scaled, and back.
    static const double bradford[3][3] = {
        {0.8951, 0.2664, -0.1614}, {-0.7502, 1.7135, 0.0367}, {0.0389, -0.0685, 1.0296}};
    static const double inverse[3][3] = {
        {0.9869929, -0.1470543, 0.1599627}, {0.4323053, 0.5183603, 0.0492912}, {-0.0085287, 0.0400428, 0.9684867}};
    static const double xyz_to_srgb[3][3] = {
        {3.2404542, -1.5371385, -0.4985314}, {-0.9692660, 1.8760108, 0.0415560}, {0.0556434, -0.2040259, 1.0572252}};
    double source[3], target[3], adapt[3][3], scaled[3][3];
    for (int i = 0; i < 3; i++) {
        source[i] = target[i] = 0;
        for (int k = 0; k < 3; k++) { source[i] += bradford[i][k] * white[k]; target[i] += bradford[i][k] * d65[k]; }
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) scaled[i][j] = bradford[i][j] * target[i] / source[i];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            adapt[i][j] = 0;
            for (int k = 0; k < 3; k++) adapt[i][j] += inverse[i][k] * scaled[k][j];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            layout->to_srgb[i][j] = 0;
            for (int k = 0; k < 3; k++) layout->to_srgb[i][j] += xyz_to_srgb[i][k] * adapt[k][j];
        }
    memcpy(layout->white, white, sizeof white);
}

/// L*, a*, b* of one pixel from its three raw samples.
static void lab_of(const ctiff_layout *l, const uint64_t raw[3], double lab[3]) {
    double range = l->bits == 8 ? 255.0 : 65535.0;
    lab[0] = (double)raw[0] * 100.0 / range;
    for (int c = 1; c < 3; c++) {
        if (l->model == CTIFF_MODEL_CIELAB) {
            lab[c] = l->bits == 8 ? (double)signed_sample(raw[c], 8) : (double)signed_sample(raw[c], 16) / 256.0;
        } else {
            lab[c] = l->bits == 8 ? (double)raw[c] - 128.0 : (double)raw[c] / 256.0 - 128.0;
        }
    }
}

static void lab_to_rgb(const ctiff_layout *l, const double lab[3], uint8_t *out) {
    double fy = (lab[0] + 16) / 116, fx = fy + lab[1] / 500, fz = fy - lab[2] / 200;
    double xyz[3] = {l->white[0] * lab_inverse(fx), l->white[1] * lab_inverse(fy), l->white[2] * lab_inverse(fz)};
    for (int i = 0; i < 3; i++) {
        out[i] = srgb_byte(l->to_srgb[i][0] * xyz[0] + l->to_srgb[i][1] * xyz[1] + l->to_srgb[i][2] * xyz[2]);
    }
}

// MARK: - Spans

/// The common case, 8-bit unsigned grey or RGB in one row buffer with no alpha or straight
/// alpha: bytes copied, no per-sample conversion. Returns 0 for any other layout.
static int convert_span_8bit(const ctiff_layout *l, const uint8_t *row, uint32_t count, uint8_t *out) {
    if (l->separate || l->bits != 8 || l->format != 1 || l->alpha == 1) return 0;
    int grey = l->model == CTIFF_MODEL_GREY && !l->invert;
    if (!grey && l->model != CTIFF_MODEL_RGB) return 0;
    for (uint32_t x = 0; x < count; x++, out += 4, row += l->stride) {
        if (grey) out[0] = out[1] = out[2] = row[0];
        else { out[0] = row[0]; out[1] = row[1]; out[2] = row[2]; }
        out[3] = l->alpha ? row[l->colours] : 255;
    }
    return 1;
}

void ctiff_convert_span(const ctiff_layout *l, const uint8_t *const rows[], uint32_t count, uint8_t *out) {
    if (convert_span_8bit(l, rows[0], count, out)) return;
    uint16_t samples = (uint16_t)(l->colours + (l->alpha ? 1 : 0));
    for (uint32_t x = 0; x < count; x++, out += 4) {
        uint64_t raw[5] = {0, 0, 0, 0, 0};
        for (uint16_t s = 0; s < samples; s++) {
            raw[s] = l->separate ? raw_sample(rows[s], x, l->bits) : raw_sample(rows[0], (size_t)x * l->stride + s, l->bits);
        }
        uint8_t alpha = l->alpha ? sample8(l, raw[l->colours]) : 255;
        switch (l->model) {
        case CTIFF_MODEL_GREY: {
            uint8_t g = sample8(l, raw[0]);
            if (l->invert) g = 255 - g;
            out[0] = out[1] = out[2] = g;
            break;
        }
        case CTIFF_MODEL_PALETTE: {
            for (int c = 0; c < 3; c++) {
                uint16_t v = l->palette[c][raw[0]];
                out[c] = l->palette_16 ? (uint8_t)((v * 255u + 32767u) / 65535u) : (uint8_t)v;
            }
            break;
        }
        case CTIFF_MODEL_RGB:
            for (int c = 0; c < 3; c++) out[c] = sample8(l, raw[c]);
            break;
        case CTIFF_MODEL_CMYK: {
            uint8_t ink[4];
            for (int c = 0; c < 4; c++) ink[c] = sample8(l, raw[c]);
            if (l->keep_cmyk) { memcpy(out, ink, 4); continue; }
            for (int c = 0; c < 3; c++) out[c] = (uint8_t)(((255 - ink[c]) * (255 - ink[3]) + 127) / 255);
            break;
        }
        case CTIFF_MODEL_CIELAB:
        case CTIFF_MODEL_ICCLAB: {
            double lab[3];
            lab_of(l, raw, lab);
            lab_to_rgb(l, lab, out);
            break;
        }
        }
        out[3] = alpha;
        if (l->alpha == 1 && alpha < 255) {
            for (int c = 0; c < 3; c++) out[c] = alpha == 0 ? 0 : (uint8_t)(out[c] * 255u / alpha > 255 ? 255 : (out[c] * 255u + alpha / 2) / alpha);
        }
    }
}

void ctiff_unpremultiply(uint8_t *p, size_t count) {
    for (size_t i = 0; i < count; i++, p += 4) {
        unsigned a = p[3];
        if (a == 255) continue;
        for (int c = 0; c < 3; c++) {
            unsigned v = a == 0 ? 0 : (p[c] * 255u + a / 2) / a;
            p[c] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
}
