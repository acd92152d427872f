// CPNG: undoing PNG's row filters (see cpng_unfilter.h).
//
// Sub, Average and Paeth each depend on the pixel just unfiltered, so a row cannot be done
// 16 bytes at a time; what a vector register buys is the 3 or 4 bytes of one pixel at once,
// and Paeth's choice made without branches (a photo's rows mispredict them half the time).
#include <stdlib.h>
#include <string.h>

#include "cpng_unfilter.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// MARK: - Scalar

int cpng_unfilter_row_scalar(uint8_t filter, uint8_t *row, const uint8_t *previous, size_t length, size_t bpp) {
    switch (filter) {
    case 0:
        return 1;
    case 1:
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        return 1;
    case 2:
        if (previous) {
            for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + previous[i]);
        }
        return 1;
    case 3:
        for (size_t i = 0; i < length; i++) {
            int left = i >= bpp ? row[i - bpp] : 0, up = previous ? previous[i] : 0;
            row[i] = (uint8_t)(row[i] + ((left + up) >> 1));
        }
        return 1;
    case 4:
        if (previous == NULL) {  // Paeth with no row above is Sub
            for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
            return 1;
        }
        for (size_t i = 0; i < bpp; i++) row[i] = (uint8_t)(row[i] + previous[i]);
        for (size_t i = bpp; i < length; i++) {
            row[i] = (uint8_t)(row[i] + cpng_paeth_predictor(row[i - bpp], previous[i], previous[i - bpp]));
        }
        return 1;
    default:
        return 0;
    }
}

#if defined(__SSE2__)

// MARK: - One pixel in a register

/// The pixel at `p` in the low lanes: 4 bytes read, so for 3-byte pixels the fourth lane holds
/// the next byte, which is never stored (callers leave a byte readable past every row).
static inline __attribute__((always_inline)) __m128i load_pixel(const uint8_t *p) {
    uint32_t value;
    memcpy(&value, p, 4);
    return _mm_cvtsi32_si128((int)value);
}

/// Writes 4 bytes to `p`: for 3-byte pixels the fourth is overwritten by the next pixel's
/// store, or falls in the row's spare byte.
static inline __attribute__((always_inline)) void store_pixel(uint8_t *p, __m128i pixel) {
    uint32_t value = (uint32_t)_mm_cvtsi128_si32(pixel);
    memcpy(p, &value, 4);
}

static inline __m128i absolute16(__m128i x) {
    return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x));
}

/// `mask ? when_set : otherwise`, lane by lane (mask lanes all ones or all zeros).
static inline __m128i select16(__m128i mask, __m128i when_set, __m128i otherwise) {
    return _mm_or_si128(_mm_and_si128(mask, when_set), _mm_andnot_si128(mask, otherwise));
}

// MARK: - One pixel unfiltered

/// `x` (a filtered pixel) unfiltered by `filter` given its left `a`, upper `b` and upper-left
/// `c` neighbours (all 8-bit lanes). The filter is the same for a whole row, so its branch is
/// predicted.
static inline __attribute__((always_inline)) __m128i unfilter_pixel(uint8_t filter, __m128i x, __m128i a, __m128i b,
                                                                    __m128i c) {
    switch (filter) {
    case 1:
        return _mm_add_epi8(x, a);
    case 2:
        return _mm_add_epi8(x, b);
    case 3: {
        // _mm_avg_epu8 rounds up; the filter floors, so take back the odd sums' half.
        __m128i mean = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1)));
        return _mm_add_epi8(x, mean);
    }
    case 4: {
        // p = a + b − c; the distances from p to a, b and c; ties go to a, then b.
        const __m128i zero = _mm_setzero_si128();
        __m128i a16 = _mm_unpacklo_epi8(a, zero), b16 = _mm_unpacklo_epi8(b, zero), c16 = _mm_unpacklo_epi8(c, zero);
        __m128i pa = absolute16(_mm_sub_epi16(b16, c16));
        __m128i pb = absolute16(_mm_sub_epi16(a16, c16));
        __m128i pc = absolute16(_mm_add_epi16(_mm_sub_epi16(b16, c16), _mm_sub_epi16(a16, c16)));
        __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
        __m128i predictor = select16(_mm_cmpeq_epi16(smallest, pa), a16,
                                     select16(_mm_cmpeq_epi16(smallest, pb), b16, c16));
        return _mm_add_epi8(x, _mm_packus_epi16(predictor, predictor));
    }
    default:
        return x;
    }
}

// MARK: - Two rows side by side

/// The rows of `cpng_unfilter_rows`, `bpp` a constant in each inlined copy. The second row runs
/// one pixel behind the first; the first row's two latest pixels, its upper and upper-left
/// neighbours, stay in registers.
static inline __attribute__((always_inline)) void unfilter_rows(const cpng_filtered_row *first, const uint8_t *above,
                                                                const cpng_filtered_row *second, size_t length,
                                                                size_t bpp) {
    const __m128i zero = _mm_setzero_si128();
    size_t pixels = length / bpp;
    uint8_t first_filter = first->filter, second_filter = second ? second->filter : 0;
    __m128i a1 = zero, c1 = zero, a2 = zero, latest = zero, before_latest = zero;
    for (size_t k = 0; k <= pixels; k++) {
        __m128i done = zero;
        if (k < pixels) {
            size_t i = k * bpp;
            __m128i b1 = above ? load_pixel(above + i) : zero;
            done = unfilter_pixel(first_filter, load_pixel(first->filtered + i), a1, b1, c1);
            store_pixel(first->out + i, done);
            a1 = done;
            c1 = b1;
        }
        if (second && k > 0) {
            size_t i = (k - 1) * bpp;
            __m128i value = unfilter_pixel(second_filter, load_pixel(second->filtered + i), a2, latest, before_latest);
            store_pixel(second->out + i, value);
            a2 = value;
        }
        before_latest = latest;
        latest = done;
    }
}

#endif

// MARK: - Entry point

int cpng_unfilter_rows(const cpng_filtered_row *first, const uint8_t *above, const cpng_filtered_row *second,
                       size_t length, size_t bpp) {
    if (first->filter > 4 || (second && second->filter > 4)) return 0;
#if defined(__SSE2__)
    if ((bpp == 3 || bpp == 4) && length % bpp == 0) {
        if (bpp == 3) {
            unfilter_rows(first, above, second, length, 3);
        } else {
            unfilter_rows(first, above, second, length, 4);
        }
        return 1;
    }
#endif
    memcpy(first->out, first->filtered, length);
    cpng_unfilter_row_scalar(first->filter, first->out, above, length, bpp);
    if (second) {
        memcpy(second->out, second->filtered, length);
        cpng_unfilter_row_scalar(second->filter, second->out, first->out, length, bpp);
    }
    return 1;
}
