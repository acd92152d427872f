// Decoding a PNG held in memory straight into a caller's RGBA8 buffer with libpng's full API.
//
// The full API (not png_image) is used on purpose: the simplified API treats a 16-bit file
// without gAMA as linear light and re-encodes it with the sRGB curve on the way to 8 bits.
// Here 16-bit samples are only rounded to 8 bits (png_set_scale_16); no gamma is applied.
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpng_errors.h"
#include "cpng_fast_rows.h"
#include "cpng_reducer.h"

// MARK: - State

struct cpng_decoder {
    /// First member: libpng's error and memory pointer.
    cpng_report report;
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    /// One pointer per row into the caller's buffer; freed with the decoder.
    png_bytepp rows;
    int info_read;
    int pixels_read;
    /// Set once rows are being read: a failure from then on has rows to keep.
    int reading_rows;
    /// Rows handed to the reducer so far (shrink-on-load), read back after a longjmp.
    uint32_t rows_reduced;
    /// The shrink-on-load state, here rather than on the stack so it survives a longjmp.
    cpng_reducer reducer;
};

// MARK: - Reading from memory

static void cpng_read_memory(png_structp png, png_bytep out, size_t length) {
    cpng_decoder *decoder = (cpng_decoder *)png_get_io_ptr(png);
    if (length > decoder->size - decoder->offset) {
        decoder->report.ran_out_of_data = 1;
        char text[128];
        png_uint_32 chunk = png_get_io_chunk_type(png);
        if (chunk != 0) {
            char name[5] = {(char)(chunk >> 24), (char)(chunk >> 16), (char)(chunk >> 8), (char)chunk, 0};
            for (int i = 0; i < 4; i++) {
                if (!((name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= 'a' && name[i] <= 'z'))) name[i] = '?';
            }
            snprintf(text, sizeof text, "the data ends at byte %zu, in or after the %s chunk", decoder->size, name);
        } else {
            snprintf(text, sizeof text, "the data ends at byte %zu, inside the signature", decoder->size);
        }
        png_error(png, text);
    }
    memcpy(out, decoder->data + decoder->offset, length);
    decoder->offset += length;
}

// MARK: - Life cycle

cpng_decoder *cpng_decoder_create(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height) {
    cpng_decoder *decoder = (cpng_decoder *)calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &decoder->report, cpng_on_error,
                                            cpng_on_warning, &decoder->report, cpng_malloc, cpng_free);
    if (decoder->png == NULL) {
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, cpng_read_memory);
    png_set_user_limits(decoder->png, max_width, max_height);
    decoder->report.fail_on = CPNG_FAIL_ON_WARNING;
    return decoder;
}

void cpng_decoder_set_fail_on(cpng_decoder *decoder, cpng_fail_on level) {
    decoder->report.fail_on = (int)level;
    // Below CPNG_FAIL_ON_ERROR a bad CRC in the image data is a warning and the data is used
    // (ancillary chunks with bad CRCs are still skipped).
    if (level < CPNG_FAIL_ON_ERROR) png_set_crc_action(decoder->png, PNG_CRC_WARN_USE, PNG_CRC_WARN_DISCARD);
    // At CPNG_FAIL_ON_NONE the image data is read in small blocks (libpng's default is 8 KiB,
    // all or nothing from the read callback), so that a cut file loses at most the rows of its
    // last 512 bytes. (On a read struct this call sets that block size.)
    if (level < CPNG_FAIL_ON_TRUNCATED) png_set_compression_buffer_size(decoder->png, 512);
}

cpng_damage cpng_decoder_damage(const cpng_decoder *decoder, const char **message) {
    if (message != NULL) *message = decoder->report.damage_message;
    return (cpng_damage)decoder->report.damage;
}

/// After a longjmp part-way through the rows: whether the fail-on level keeps what was read
/// (a truncation below CPNG_FAIL_ON_TRUNCATED, another error in the data below
/// CPNG_FAIL_ON_ERROR), noting the damage when it does.
static int cpng_keeps_partial_image(cpng_decoder *decoder) {
    cpng_report *report = &decoder->report;
    if (!decoder->reading_rows || report->out_of_memory || report->limit_exceeded) return 0;
    int truncated = report->ran_out_of_data;
    if (report->fail_on >= (truncated ? CPNG_FAIL_ON_TRUNCATED : CPNG_FAIL_ON_ERROR)) return 0;
    cpng_note_damage(report, truncated ? CPNG_DAMAGE_TRUNCATED : CPNG_DAMAGE_ERROR, report->message);
    report->message[0] = '\0';
    return 1;
}

void cpng_decoder_destroy(cpng_decoder *decoder) {
    if (decoder == NULL) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder->rows);
    free(decoder);
}

int cpng_decoder_icc_profile(const cpng_decoder *decoder, const uint8_t **bytes, size_t *length) {
    if (!decoder->info_read) return 0;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_length = 0;
    if (png_get_iCCP(decoder->png, decoder->info, &name, &compression, &profile, &profile_length) == 0
        || profile == NULL || profile_length == 0) {
        return 0;
    }
    *bytes = profile;
    *length = profile_length;
    return 1;
}

const char *cpng_decoder_message(const cpng_decoder *decoder) {
    return decoder->report.message;
}

// MARK: - Header

cpng_status cpng_decoder_read_info(cpng_decoder *decoder, cpng_info *info) {
    if (decoder->info_read) {
        cpng_set_message(&decoder->report, "cpng_decoder_read_info called twice");
        return CPNG_MISUSE;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        return cpng_failure_status(&decoder->report);
    }
    png_read_info(decoder->png, decoder->info);
    decoder->info_read = 1;

    int color_type = png_get_color_type(decoder->png, decoder->info);
    info->width = png_get_image_width(decoder->png, decoder->info);
    info->height = png_get_image_height(decoder->png, decoder->info);
    info->bit_depth = png_get_bit_depth(decoder->png, decoder->info);
    info->color_type = color_type;
    info->interlaced = png_get_interlace_type(decoder->png, decoder->info) != PNG_INTERLACE_NONE;
    info->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0
        || png_get_valid(decoder->png, decoder->info, PNG_INFO_tRNS) != 0;
    return CPNG_OK;
}

// MARK: - Pixels

/// Asks libpng for 8-bit RGBA whatever the file holds (or, with `allow_rgb`, 8-bit RGB for
/// files without any alpha: one transform less, and a quarter fewer bytes per row).
static void cpng_request_rgba8(png_structp png, png_infop info, int allow_rgb) {
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) {
        if (bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
        png_set_gray_to_rgb(png);
    }
    // Rounds v16 to (v16·255 + 32767) / 65535, unlike png_set_strip_16, which truncates.
    if (bit_depth == 16) png_set_scale_16(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns && !allow_rgb) {
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

cpng_status cpng_decoder_read_rgba(cpng_decoder *decoder, uint8_t *pixels, size_t stride, size_t capacity) {
    if (!decoder->info_read || decoder->pixels_read) {
        cpng_set_message(&decoder->report, "cpng_decoder_read_rgba needs exactly one cpng_decoder_read_info first");
        return CPNG_MISUSE;
    }
    decoder->pixels_read = 1;
    uint32_t width = png_get_image_width(decoder->png, decoder->info);
    uint32_t height = png_get_image_height(decoder->png, decoder->info);
    size_t row_bytes = (size_t)width * 4;
    // stride·(height−1) + row_bytes ≤ capacity, without overflow.
    if (pixels == NULL || stride < row_bytes || capacity < row_bytes
        || (height > 1 && (capacity - row_bytes) / stride < (size_t)height - 1)) {
        cpng_set_message(&decoder->report, "the pixel buffer is too small for the image");
        return CPNG_MISUSE;
    }
    decoder->rows = (png_bytepp)malloc((size_t)height * sizeof(png_bytep));
    if (decoder->rows == NULL) {
        cpng_set_message(&decoder->report, "out of memory for row pointers");
        return CPNG_OUT_OF_MEMORY;
    }
    for (uint32_t y = 0; y < height; y++) decoder->rows[y] = pixels + (size_t)y * stride;

    if (setjmp(png_jmpbuf(decoder->png))) {
        return cpng_keeps_partial_image(decoder) ? CPNG_OK : cpng_failure_status(&decoder->report);
    }
    cpng_request_rgba8(decoder->png, decoder->info, 0);
    if (png_get_rowbytes(decoder->png, decoder->info) != row_bytes
        || png_get_bit_depth(decoder->png, decoder->info) != 8
        || png_get_channels(decoder->png, decoder->info) != 4) {
        png_error(decoder->png, "libpng did not produce 8-bit RGBA rows");
    }
    // Reads every row (every Adam7 pass); finishing the last row checks the final IDAT CRC
    // and zlib's checksum, and a stream that stops short is an error, not a partial image —
    // unless the fail-on level keeps partial images: then rows never reached stay zero.
    if (decoder->report.fail_on < CPNG_FAIL_ON_ERROR) {
        for (uint32_t y = 0; y < height; y++) memset(decoder->rows[y], 0, row_bytes);
    }
    decoder->reading_rows = 1;
    png_read_image(decoder->png, decoder->rows);
    cpng_refuse_damaged_image_data(decoder->png, &decoder->report);
    return CPNG_OK;
}

// MARK: - Shrink on load (box average of factor×factor blocks)

/// After a partial RGB (opaque) read: the reducer averaged the missing rows in as black and
/// wrote opaque pixels. Output rows with no input row read become transparent; a row with some
/// gets the average of those alone, with alpha for the share it covers.
static void cpng_make_missing_rows_transparent(cpng_decoder *decoder) {
    const cpng_reducer *r = &decoder->reducer;
    uint32_t out_height = (r->height + r->factor - 1) / r->factor;
    for (uint32_t oy = 0; oy < out_height; oy++) {
        uint32_t first = oy * r->factor;
        uint32_t rows = first + r->factor <= r->height ? r->factor : r->height - first;
        uint32_t read = decoder->rows_reduced <= first ? 0 : decoder->rows_reduced - first;
        if (read >= rows) continue;
        uint8_t *out = r->pixels + (size_t)oy * r->stride;
        for (uint32_t ox = 0; ox < r->out_width; ox++, out += 4) {
            for (int c = 0; c < 3; c++) out[c] = read == 0 ? 0 : (uint8_t)(out[c] * rows / read > 255 ? 255 : out[c] * rows / read);
            out[3] = (uint8_t)((255 * read + rows / 2) / rows);
        }
    }
}

cpng_status cpng_decoder_read_rgba_reduced(
    cpng_decoder *decoder, uint32_t factor, uint8_t *pixels, size_t stride, size_t capacity
) {
    if (factor == 1) return cpng_decoder_read_rgba(decoder, pixels, stride, capacity);
    if (!decoder->info_read || decoder->pixels_read || factor == 0 || factor > 256) {
        cpng_set_message(&decoder->report, "cpng_decoder_read_rgba_reduced needs one read_info first and a factor of 1…256");
        return CPNG_MISUSE;
    }
    if (png_get_interlace_type(decoder->png, decoder->info) != PNG_INTERLACE_NONE) {
        cpng_set_message(&decoder->report, "an interlaced PNG cannot be reduced while it is read");
        return CPNG_MISUSE;
    }
    decoder->pixels_read = 1;
    uint32_t width = png_get_image_width(decoder->png, decoder->info);
    uint32_t height = png_get_image_height(decoder->png, decoder->info);
    uint32_t out_width = (width + factor - 1) / factor, out_height = (height + factor - 1) / factor;
    size_t out_row_bytes = (size_t)out_width * 4;
    if (pixels == NULL || stride < out_row_bytes || capacity < out_row_bytes
        || (out_height > 1 && (capacity - out_row_bytes) / stride < (size_t)out_height - 1)) {
        cpng_set_message(&decoder->report, "the pixel buffer is too small for the reduced image");
        return CPNG_MISUSE;
    }
    // The row and the sums live in `rows` (freed with the decoder, also after a longjmp).
    size_t row_bytes = (size_t)width * 4;  // room for RGBA; opaque files are read as RGB
    size_t scratch_bytes = (cpng_reducer_scratch_bytes(width, factor) + 15) & ~(size_t)15;
    decoder->rows = (png_bytepp)malloc(row_bytes + scratch_bytes);
    if (decoder->rows == NULL) {
        cpng_set_message(&decoder->report, "out of memory for a row");
        return CPNG_OUT_OF_MEMORY;
    }
    void *scratch = decoder->rows;
    uint8_t *row = (uint8_t *)decoder->rows + scratch_bytes;

    if (setjmp(png_jmpbuf(decoder->png))) {
        if (!cpng_keeps_partial_image(decoder)) return cpng_failure_status(&decoder->report);
        // The rows never read count as transparent black in the averages.
        memset(row, 0, row_bytes);
        for (uint32_t y = decoder->rows_reduced; y < height; y++) cpng_reduce_row(&decoder->reducer, row);
        if (decoder->reducer.channels == 3) cpng_make_missing_rows_transparent(decoder);
        return CPNG_OK;
    }
    // Plain 8-bit RGB or RGBA needs no libpng transform (checked on IHDR's own values,
    // before png_read_update_info replaces them with the transformed ones).
    int stored_type = png_get_color_type(decoder->png, decoder->info);
    int plain = png_get_bit_depth(decoder->png, decoder->info) == 8
        && (stored_type == PNG_COLOR_TYPE_RGB || stored_type == PNG_COLOR_TYPE_RGB_ALPHA)
        && png_get_valid(decoder->png, decoder->info, PNG_INFO_tRNS) == 0;
    cpng_request_rgba8(decoder->png, decoder->info, 1);
    int channels = png_get_channels(decoder->png, decoder->info);
    if ((channels != 3 && channels != 4) || png_get_bit_depth(decoder->png, decoder->info) != 8
        || png_get_rowbytes(decoder->png, decoder->info) != (size_t)width * (size_t)channels) {
        png_error(decoder->png, "libpng did not produce 8-bit RGB or RGBA rows");
    }
    decoder->reducer = cpng_reducer_init(scratch, width, height, factor, channels, pixels, stride);
    // Plain files' rows are inflated and unfiltered here, faster. libpng has read up to the
    // first IDAT's data; anything unusual (found before any row is used) leaves the file to
    // libpng, which reports problems its way.
    if (plain && decoder->offset >= 8 && memcmp(decoder->data + decoder->offset - 4, "IDAT", 4) == 0
        && cpng_fast_rows(decoder->data, decoder->size, decoder->offset - 8, width, height, channels,
                          cpng_reduce_row, &decoder->reducer)) {
        return CPNG_OK;
    }
    decoder->reading_rows = 1;
    for (uint32_t y = 0; y < height; y++) {
        png_read_row(decoder->png, row, NULL);
        cpng_reduce_row(&decoder->reducer, row);
        decoder->rows_reduced = y + 1;
    }
    // Reading the last row checked the final IDAT CRC and zlib's end, as png_read_image does;
    // what libpng only warns about there is refused.
    cpng_refuse_damaged_image_data(decoder->png, &decoder->report);
    return CPNG_OK;
}
