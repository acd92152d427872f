// CPNG — a small C wall around libpng 1.6 for DarkroomPNG.
//
// libpng reports errors with longjmp, which Swift cannot survive, so every libpng call
// lives in CPNG's .c files behind setjmp. Nothing here prints: libpng's warnings are
// silenced (the last one is kept to explain a following error) and errors come back
// as status codes with a message.
#ifndef DARKROOM_CPNG_H
#define DARKROOM_CPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Status

typedef enum {
    CPNG_OK = 0,
    /// The input ended before libpng had read everything it needed.
    CPNG_TRUNCATED = 1,
    /// libpng rejected the data (bad signature, CRC error, bad zlib stream, …).
    CPNG_CORRUPT = 2,
    /// Memory could not be allocated.
    CPNG_OUT_OF_MEMORY = 3,
    /// The caller passed something unusable (wrong call order, wrong buffer size).
    CPNG_MISUSE = 4,
    /// IHDR's width or height passes the limits given to cpng_decoder_create.
    CPNG_LIMIT_EXCEEDED = 5,
} cpng_status;

/// Room for an error message (libpng's error plus the last warning before it).
#define CPNG_MESSAGE_CAPACITY 256

// MARK: - Decoding

/// What IHDR and the chunks before the image data say.
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;   // 1, 2, 4, 8 or 16
    int color_type;  // PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
    int interlaced;  // 1 for Adam7
    int has_alpha;   // 1 when the file has an alpha channel or a tRNS chunk
} cpng_info;

/// An in-progress decode of one PNG held in memory. Opaque.
typedef struct cpng_decoder cpng_decoder;

/// Starts decoding `size` bytes at `data` (which must outlive the decoder). libpng refuses
/// any IHDR wider than `max_width` or taller than `max_height` (png_set_user_limits).
/// Returns NULL only when memory runs out.
cpng_decoder *cpng_decoder_create(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height);

/// Reads the signature and every chunk up to the image data, filling `info`.
cpng_status cpng_decoder_read_info(cpng_decoder *decoder, cpng_info *info);

/// Decodes the whole image as 8-bit straight RGBA into `pixels` (`stride` bytes per row,
/// at least width*4; `capacity` bytes in all): palette → RGB, tRNS → alpha, grey → RGB,
/// opaque alpha added, 16 → 8 bits by rounding, Adam7 de-interlaced.
/// Call after cpng_decoder_read_info. On error the buffer holds partial data: discard it.
cpng_status cpng_decoder_read_rgba(cpng_decoder *decoder, uint8_t *pixels, size_t stride, size_t capacity);

/// Like cpng_decoder_read_rgba, but shrinks on load: every `factor`×`factor` block of pixels
/// (fewer at the right and bottom edges) is averaged into one, so the output is
/// ceil(width / factor) × ceil(height / factor). Rows are decoded one at a time into a small
/// buffer, so memory is the output plus two rows. Translucent pixels are averaged weighted by
/// their alpha (no colour bleeds from transparent ones). `factor` is 1…256; files that are
/// interlaced (Adam7) need the whole image and are refused (CPNG_MISUSE) unless `factor` is 1.
cpng_status cpng_decoder_read_rgba_reduced(
    cpng_decoder *decoder, uint32_t factor, uint8_t *pixels, size_t stride, size_t capacity);

/// The message for the last non-OK status ("" when none).
/// The embedded ICC profile (`iCCP`, inflated by libpng) after cpng_decoder_read_info: sets
/// `bytes` and `length` and returns 1, or returns 0 when the file has none (or it was dropped
/// as damaged). The bytes belong to the decoder and live until cpng_decoder_destroy.
int cpng_decoder_icc_profile(const cpng_decoder *decoder, const uint8_t **bytes, size_t *length);

const char *cpng_decoder_message(const cpng_decoder *decoder);

/// How much damage stops the decode (sharp's failOn), as in CJPEG: CPNG_FAIL_ON_WARNING, the
/// default, refuses image data libpng only warns about (a wrong Adler-32, data past the image);
/// CPNG_FAIL_ON_ERROR lets those through; CPNG_FAIL_ON_TRUNCATED also a CRC error or a corrupt
/// stream part-way through the image data, keeping the rows read so far; CPNG_FAIL_ON_NONE also
/// a file that ends early. Rows never read are transparent black. Call before read_info.
typedef enum {
    CPNG_FAIL_ON_NONE = 0,
    CPNG_FAIL_ON_TRUNCATED = 1,
    CPNG_FAIL_ON_ERROR = 2,
    CPNG_FAIL_ON_WARNING = 3,
} cpng_fail_on;

/// Damage a decode went past, the worst of it.
typedef enum {
    CPNG_DAMAGE_NONE = 0,
    CPNG_DAMAGE_WARNING = 1,
    CPNG_DAMAGE_ERROR = 2,
    CPNG_DAMAGE_TRUNCATED = 3,
} cpng_damage;

/// Sets the damage level that stops the decode.
void cpng_decoder_set_fail_on(cpng_decoder *decoder, cpng_fail_on level);

/// The worst damage the decode went past and (in `message`, when not NULL) libpng's words.
cpng_damage cpng_decoder_damage(const cpng_decoder *decoder, const char **message);

/// Frees the decoder and everything libpng allocated. NULL is allowed.
void cpng_decoder_destroy(cpng_decoder *decoder);

// MARK: - Encoding

/// How to write a PNG from an 8-bit RGBA buffer.
typedef struct {
    uint32_t width;
    uint32_t height;
    size_t stride;            // bytes per row of the source, at least width*4
    int write_alpha;          // 1: colour type 6 (RGBA); 0: colour type 2 (RGB), alpha bytes dropped
    int compression_level;    // zlib level 0…9
    int interlaced;           // 1: Adam7
} cpng_encode_settings;

/// Metadata to write with a PNG; a NULL pointer (or a zero count) leaves the part out.
typedef struct {
    const uint8_t *icc;       // an ICC profile, written compressed as iCCP (libpng checks it
    size_t icc_count;         // against the colour type and drops one that does not fit, warning)
    const uint8_t *exif;      // a TIFF structure, written as eXIf
    size_t exif_count;
    const char *xmp;          // a NUL-terminated XMP packet, written as uncompressed iTXt
} cpng_metadata;

/// An encoded PNG in memory, owned by C until cpng_output_free.
typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
} cpng_output;

/// Encodes `pixels` (RGBA8, straight alpha) to `output`. On success `output` holds the file;
/// on failure it is empty and `message` (CPNG_MESSAGE_CAPACITY bytes) says why.
/// Free the output with cpng_output_free either way.
cpng_status cpng_encode_rgba(const uint8_t *pixels, const cpng_encode_settings *settings,
                             cpng_output *output, char *message);

/// As cpng_encode_rgba, writing `metadata` (NULL for none) before the image data.
cpng_status cpng_encode_rgba_with_metadata(const uint8_t *pixels, const cpng_encode_settings *settings,
                                           const cpng_metadata *metadata, cpng_output *output, char *message);

/// Frees an output's bytes and empties it.
void cpng_output_free(cpng_output *output);

#ifdef __cplusplus
}
#endif

#endif
