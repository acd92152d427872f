// CJPEG — a small C wall around libjpeg-turbo for DarkroomJPEG.
//
// libjpeg reports errors with longjmp, which Swift cannot survive, so every libjpeg call
// lives in CJPEG's .c files behind setjmp. Nothing here prints: libjpeg's messages are
// formatted into the handle, warnings that mean damaged data become errors (unless the
// decoder's fail-on level lets them through), and errors
// come back as status codes with a message.
#ifndef DARKROOM_CJPEG_H
#define DARKROOM_CJPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Status

typedef enum {
    CJPEG_OK = 0,
    /// The data ends before the image is complete ("Premature end of JPEG file").
    CJPEG_TRUNCATED = 1,
    /// libjpeg rejected the data (bad marker, bad Huffman code, corrupt scan, …).
    CJPEG_CORRUPT = 2,
    /// Valid JPEG that this build cannot decode (arithmetic coding, 12-bit, odd colour space).
    CJPEG_UNSUPPORTED = 3,
    /// Memory could not be allocated.
    CJPEG_OUT_OF_MEMORY = 4,
    /// The caller passed something unusable (wrong call order, small buffer, bad argument).
    CJPEG_MISUSE = 5,
} cjpeg_status;

/// Room for an error message (libjpeg's own are at most 200 bytes).
#define CJPEG_MESSAGE_CAPACITY 256

// MARK: - Decoding

/// The colour model of the stored JPEG.
typedef enum {
    CJPEG_COLOR_GRAY = 0,
    /// YCbCr or RGB: three components.
    CJPEG_COLOR_RGB = 1,
    /// CMYK or YCCK: four components, converted to RGB here.
    CJPEG_COLOR_CMYK = 2,
} cjpeg_color_model;

/// What the frame header says, as libjpeg read it.
typedef struct {
    uint32_t width;
    uint32_t height;
    cjpeg_color_model color_model;
    int progressive;  // 1 for a progressive (multi-scan) JPEG
} cjpeg_info;

/// Speed/quality trade-offs of the decode. All zero = libjpeg's defaults (best quality).
typedef struct {
    /// Replicate chroma instead of interpolating it (only matters when chroma is
    /// subsampled and not already expanded by a scaled IDCT).
    int fast_upsampling;
    /// At scale 1/8 on a progressive JPEG that ends in an EOI marker, stop reading once the
    /// scans the 1/8 output uses are in (DC coefficients; for chroma expanded by a 2×2 IDCT,
    /// also its first AC scans) and skip the rest of the file. The output may lack the low
    /// bits later refinement scans add (measured ≥ 41 dB PSNR against the full read).
    int early_stop_at_eighth;
    /// At scale 1/4 on a progressive JPEG that ends in an EOI marker, stop reading once every
    /// coefficient has arrived with its DC exact and at most the last bit of each AC
    /// coefficient missing: the final AC refinement scans (often a third of the file) are
    /// skipped. Measured 42–54 dB PSNR against the full 1/4 read (lower at low quality).
    int early_stop_at_quarter;
} cjpeg_decode_options;

/// An in-progress decode of one JPEG held in memory. Opaque.
typedef struct cjpeg_decoder cjpeg_decoder;

/// Starts decoding `size` bytes at `data` (which must outlive the decoder).
/// Returns NULL only when memory runs out.
cjpeg_decoder *cjpeg_decoder_create(const uint8_t *data, size_t size);

/// Reads the markers up to the first scan and fills `info`.
cjpeg_status cjpeg_decoder_read_header(cjpeg_decoder *decoder, cjpeg_info *info);

/// Chooses the DCT scale 1/`denominator` (1, 2, 4 or 8) and the decode options, and
/// reports the output size (libjpeg rounds up: ceil(width / denominator)).
/// Call after cjpeg_decoder_read_header.
cjpeg_status cjpeg_decoder_set_scale(
    cjpeg_decoder *decoder, int denominator, cjpeg_decode_options options,
    uint32_t *output_width, uint32_t *output_height);

/// Decodes the whole image as opaque RGBA8 into `pixels` (`stride` bytes per row, at least
/// output_width*4; `capacity` bytes in all). Grey is expanded to RGB and CMYK/YCCK is
/// converted to RGB. On error the buffer holds partial data: discard it.
cjpeg_status cjpeg_decoder_read_rgba(cjpeg_decoder *decoder, uint8_t *pixels, size_t stride, size_t capacity);

/// With `keeps` = 1, a CMYK/YCCK image is read as ink amounts (C, M, Y, K; 255 = full ink,
/// whether or not the file is Adobe-inverted) instead of being converted to RGBA, for a
/// colour-managed conversion by the caller. No effect on other images.
void cjpeg_decoder_keep_cmyk(cjpeg_decoder *decoder, int keeps);

/// The message of the last error ("" when none).
const char *cjpeg_decoder_message(const cjpeg_decoder *decoder);

/// How much damage stops the decode (sharp's failOn): the default, CJPEG_FAIL_ON_WARNING,
/// stops on every warning that means damaged pixels. Lower levels decode past what they allow:
/// at CJPEG_FAIL_ON_ERROR corrupt entropy data libjpeg resynchronises after; at
/// CJPEG_FAIL_ON_TRUNCATED also an error part-way through the pixels (the rows read so far are
/// kept, the rest grey); at CJPEG_FAIL_ON_NONE also a file that ends early (libjpeg fills the
/// missing part grey). Errors in the header always fail.
typedef enum {
    CJPEG_FAIL_ON_NONE = 0,
    CJPEG_FAIL_ON_TRUNCATED = 1,
    CJPEG_FAIL_ON_ERROR = 2,
    CJPEG_FAIL_ON_WARNING = 3,
} cjpeg_fail_on;

/// Damage a decode went past, the worst of it (CJPEG_DAMAGE_NONE when the data was intact).
typedef enum {
    CJPEG_DAMAGE_NONE = 0,
    CJPEG_DAMAGE_WARNING = 1,
    CJPEG_DAMAGE_ERROR = 2,
    CJPEG_DAMAGE_TRUNCATED = 3,
} cjpeg_damage;

/// Sets the damage level that stops the decode. Call before cjpeg_decoder_read_header.
void cjpeg_decoder_set_fail_on(cjpeg_decoder *decoder, cjpeg_fail_on level);

/// The worst damage the decode went past, and (in `message`, when not NULL) libjpeg's words for
/// it; "" and CJPEG_DAMAGE_NONE when there was none.
cjpeg_damage cjpeg_decoder_damage(const cjpeg_decoder *decoder, const char **message);

/// Frees the decoder. Accepts NULL.
void cjpeg_decoder_destroy(cjpeg_decoder *decoder);

// MARK: - Encoding

/// How to encode.
typedef struct {
    /// 1…100.
    int quality;
    /// 1 = progressive (libjpeg's standard scan script).
    int progressive;
    /// 1 = compute optimal Huffman tables (smaller file, a little slower). Progressive
    /// files always get them.
    int optimize_coding;
    /// 1 = 4:2:0 chroma subsampling, 0 = 4:4:4 (no subsampling).
    int subsample_chroma;
} cjpeg_encode_options;

/// Encodes `width`×`height` RGBA8 pixels (`stride` bytes per row; alpha is ignored) as a
/// baseline or progressive YCbCr JPEG. On success `*output` is a malloc'ed buffer of
/// `*output_size` bytes for the caller to release with cjpeg_free; on failure `*output` is
/// NULL and `message` (CJPEG_MESSAGE_CAPACITY bytes) says why.
cjpeg_status cjpeg_encode_rgba(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
    cjpeg_encode_options options, uint8_t **output, size_t *output_size, char *message);

/// Frees a buffer returned by cjpeg_encode_rgba. Accepts NULL.
void cjpeg_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
