// CTIFF — the C wall around libtiff (libtiff-dev) for DarkroomTIFF.
//
// A decoder reads one TIFF held in memory (it does not copy or free it): one directory
// (page) is chosen, its layout reported, and its pixels written as 8-bit RGBA in *stored*
// order (the Orientation tag is reported, not applied), with straight (unassociated) alpha.
// Every libtiff message goes to the decoder, never to standard error.
#ifndef CTIFF_H
#define CTIFF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CTIFF_OK = 0,
    CTIFF_UNSUPPORTED = 1,   // a legal layout this decoder does not read (the message says which)
    CTIFF_CORRUPT = 2,       // the structure or the pixel data is damaged
    CTIFF_TRUNCATED = 3,     // the data ends before the pixels do
    CTIFF_OUT_OF_MEMORY = 4,
    CTIFF_NO_SUCH_PAGE = 5,  // the page asked for is past the last directory
    CTIFF_LIMIT_EXCEEDED = 6 // the page, or one of its tiles, is over the pixel limit
} ctiff_status;

typedef enum {
    CTIFF_FAIL_ON_NONE = 0,
    CTIFF_FAIL_ON_TRUNCATED = 1,
    CTIFF_FAIL_ON_ERROR = 2,
    CTIFF_FAIL_ON_WARNING = 3
} ctiff_fail_on;

typedef enum {
    CTIFF_DAMAGE_NONE = 0,
    CTIFF_DAMAGE_TRUNCATED = 1,
    CTIFF_DAMAGE_ERROR = 2,
    CTIFF_DAMAGE_WARNING = 3
} ctiff_damage;

/// The chosen directory's layout, as libtiff reads it (defaults applied).
typedef struct {
    uint32_t width, height;
    uint32_t page_count;      // directories in the file
    uint16_t orientation;     // 1…8
    uint16_t photometric;
    uint16_t bits_per_sample;
    uint16_t samples_per_pixel;
    uint16_t sample_format;   // 1 unsigned, 2 signed, 3 IEEE float
    uint16_t planar;          // 1 contiguous, 2 separate planes
    uint16_t compression;
    uint16_t alpha;           // 0 none, 1 associated (premultiplied), 2 unassociated
    uint32_t tile_width, tile_height; // 0 for a stripped image
    int is_cmyk;              // separated with four inks (C, M, Y, K)
} ctiff_info;

typedef struct ctiff_decoder ctiff_decoder;

/// A decoder over `size` bytes at `data`; `max_pixels` bounds the page and every tile,
/// `max_alloc` every allocation libtiff makes. NULL when out of memory.
ctiff_decoder *ctiff_decoder_create(const uint8_t *data, size_t size, uint64_t max_pixels, uint64_t max_alloc);
void ctiff_decoder_destroy(ctiff_decoder *decoder);
void ctiff_decoder_set_fail_on(ctiff_decoder *decoder, ctiff_fail_on level);

/// Opens the file and selects directory `page` (0 is the first), filling `info`.
ctiff_status ctiff_decoder_open(ctiff_decoder *decoder, uint32_t page, ctiff_info *info);

/// Writes the page as RGBA8 rows, top row of the stored raster first, into `out`
/// (`out_size` ≥ width × height × 4). With `keep_cmyk` and a CMYK page without alpha, the
/// four bytes of each pixel are the inks C, M, Y, K (0 none … 255 full) and the fourth is
/// not alpha. Parts that cannot be read are left transparent when the fail-on level lets
/// the damage through (see ctiff_decoder_damage).
ctiff_status ctiff_decoder_read_rgba(ctiff_decoder *decoder, uint8_t *out, size_t out_size, int keep_cmyk);

/// The worst damage a read went past, and libtiff's words for the first of it.
ctiff_damage ctiff_decoder_damage(const ctiff_decoder *decoder, const char **message);

/// The page's ICC profile (tag 34675); 0 when it has none. Valid until destroy.
int ctiff_decoder_icc_profile(ctiff_decoder *decoder, const uint8_t **bytes, uint32_t *length);

/// The last error libtiff or the decoder reported ("" when none).
const char *ctiff_decoder_message(const ctiff_decoder *decoder);

// MARK: - Writing

/// A TIFF file written to memory: `data` (malloc'd; free with ctiff_output_free) holds `size`
/// bytes; `message` says why writing failed.
typedef struct {
    uint8_t *data;
    size_t size, capacity;
    uint64_t position;
    char message[256];
} ctiff_output;

/// Writes `width`×`height` RGBA8 pixels (rows `stride` bytes apart) as an 8-bit RGB TIFF, or
/// RGBA with unassociated alpha when `write_alpha`; Deflate with the horizontal predictor at
/// zlib `level` (1…9), or uncompressed at level 0; strips of about 64 KiB; BigTIFF when `big`
/// (for outputs past 4 GiB).
ctiff_status ctiff_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                               int write_alpha, int level, int big, ctiff_output *output);
void ctiff_output_free(ctiff_output *output);

#ifdef __cplusplus
}
#endif

#endif
