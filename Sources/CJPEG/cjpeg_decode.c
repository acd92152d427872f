// CJPEG decoding: libjpeg-turbo straight into the caller's RGBA buffer, with DCT scaling.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cjpeg_dc_only.h"
#include "cjpeg_errors.h"

// MARK: - Limits

/// Progressive files have about ten scans; thousands of tiny scans are a known way to make
/// a small file burn CPU for minutes. Refuse files with more than this.
#define CJPEG_MAX_SCANS 500

/// Rows handed to jpeg_read_scanlines per call.
#define CJPEG_ROWS_PER_CALL 16

// MARK: - The handle

typedef enum { STATE_CREATED, STATE_HEADER_READ, STATE_SCALED, STATE_DONE } decoder_state;

struct cjpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    cjpeg_error_manager error;
    struct jpeg_progress_mgr progress;
    const uint8_t *data;
    size_t size;
    decoder_state state;
    cjpeg_color_model color_model;
    int early_stop;
    int keeps_cmyk;
    /// Set once scanlines are being read: an error from then on has rows to keep.
    int reading_rows;
};

static void check_scan_count(j_common_ptr cinfo) {
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > CJPEG_MAX_SCANS) {
        cjpeg_fail(cinfo, CJPEG_CORRUPT, "more than 500 scans (refused: likely a decompression bomb)");
    }
}

cjpeg_decoder *cjpeg_decoder_create(const uint8_t *data, size_t size) {
    cjpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->cinfo.err = cjpeg_error_manager_init(&decoder->error);
    if (setjmp(decoder->error.jump)) {
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->progress.progress_monitor = check_scan_count;
    decoder->cinfo.progress = &decoder->progress;
    decoder->state = STATE_CREATED;
    return decoder;
}

void cjpeg_decoder_destroy(cjpeg_decoder *decoder) {
    if (decoder == NULL) return;
    // jpeg_destroy only frees memory; it cannot fail, so it needs no setjmp.
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

const char *cjpeg_decoder_message(const cjpeg_decoder *decoder) {
    return decoder->error.message;
}

void cjpeg_decoder_set_fail_on(cjpeg_decoder *decoder, cjpeg_fail_on level) {
    decoder->error.fail_on = (int)level;
}

cjpeg_damage cjpeg_decoder_damage(const cjpeg_decoder *decoder, const char **message) {
    if (message != NULL) *message = decoder->error.damage_message;
    return (cjpeg_damage)decoder->error.damage;
}

static cjpeg_status misuse(cjpeg_decoder *decoder, const char *message) {
    decoder->error.status = CJPEG_MISUSE;
    snprintf(decoder->error.message, sizeof decoder->error.message, "%s", message);
    return CJPEG_MISUSE;
}

// MARK: - Header

cjpeg_status cjpeg_decoder_read_header(cjpeg_decoder *decoder, cjpeg_info *info) {
    if (decoder->state != STATE_CREATED) return misuse(decoder, "the header was already read");
    if (decoder->size == 0) {
        decoder->error.status = CJPEG_TRUNCATED;
        snprintf(decoder->error.message, sizeof decoder->error.message, "Empty input file");
        return CJPEG_TRUNCATED;
    }
    j_decompress_ptr cinfo = &decoder->cinfo;
    if (setjmp(decoder->error.jump)) return decoder->error.status;

    jpeg_mem_src(cinfo, decoder->data, (unsigned long)decoder->size);
    jpeg_read_header(cinfo, TRUE);

    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: decoder->color_model = CJPEG_COLOR_GRAY; break;
    case JCS_YCbCr:
    case JCS_RGB: decoder->color_model = CJPEG_COLOR_RGB; break;
    case JCS_CMYK:
    case JCS_YCCK: decoder->color_model = CJPEG_COLOR_CMYK; break;
    default:
        cjpeg_fail((j_common_ptr)cinfo, CJPEG_UNSUPPORTED, "unsupported colour space (component count not 1, 3 or 4)");
    }
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->color_model = decoder->color_model;
    info->progressive = cinfo->progressive_mode ? 1 : 0;
    decoder->state = STATE_HEADER_READ;
    return CJPEG_OK;
}

// MARK: - Scale and options

/// Whether an EOI marker (FF D9) appears in the last 4 KiB of the data and after the first
/// scan header (so an EXIF thumbnail's EOI does not count). An early-stopping decode never
/// reads the end of the file, so it requires this to still refuse truncated files.
static int has_end_of_image_near_end(const uint8_t *data, size_t size, size_t first_scan) {
    size_t start = size > 4096 ? size - 4096 : 0;
    if (start < first_scan) start = first_scan;
    for (size_t i = size; i >= start + 2; i--) {
        if (data[i - 2] == 0xFF && data[i - 1] == 0xD9) return 1;
    }
    return 0;
}

cjpeg_status cjpeg_decoder_set_scale(
    cjpeg_decoder *decoder, int denominator, cjpeg_decode_options options,
    uint32_t *output_width, uint32_t *output_height
) {
    if (decoder->state != STATE_HEADER_READ && decoder->state != STATE_SCALED) {
        return misuse(decoder, "set_scale needs a freshly read header");
    }
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) {
        return misuse(decoder, "the scale denominator must be 1, 2, 4 or 8");
    }
    j_decompress_ptr cinfo = &decoder->cinfo;
    if (setjmp(decoder->error.jump)) return decoder->error.status;

    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)denominator;
    // libjpeg-turbo writes RGBA directly (alpha = 255); CMYK is read as 4 bytes and converted.
    cinfo->out_color_space = decoder->color_model == CJPEG_COLOR_CMYK ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo->do_fancy_upsampling = options.fast_upsampling ? FALSE : TRUE;
    cinfo->dct_method = JDCT_ISLOW;  // with SIMD as fast as JDCT_IFAST, and accurate
    int stops = (denominator == 8 && options.early_stop_at_eighth) || (denominator == 4 && options.early_stop_at_quarter);
    decoder->early_stop = stops && cinfo->progressive_mode
        && has_end_of_image_near_end(decoder->data, decoder->size,
                                     (size_t)(cinfo->src->next_input_byte - decoder->data));
    jpeg_calc_output_dimensions(cinfo);
    *output_width = cinfo->output_width;
    *output_height = cinfo->output_height;
    decoder->state = STATE_SCALED;
    return CJPEG_OK;
}

// MARK: - Colour conversion

/// (a·b)/255, rounded, exact for 0…255 inputs.
static inline uint8_t multiply_255(unsigned a, unsigned b) {
    unsigned t = a * b + 128;
    return (uint8_t)((t + (t >> 8)) >> 8);
}

/// Converts a row of CMYK (as libjpeg returns it) to opaque RGBA in place. Adobe apps write
/// inverted CMYK (0 = full ink) and mark the file with an APP14 "Adobe" segment; without
/// that marker the values are taken as plain CMYK.
static void cmyk_row_to_rgba(uint8_t *row, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++, row += 4) {
        unsigned c = row[0], m = row[1], y = row[2], k = row[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        row[0] = multiply_255(c, k);
        row[1] = multiply_255(m, k);
        row[2] = multiply_255(y, k);
        row[3] = 255;
    }
}

/// Turns a row of CMYK as libjpeg returns it into ink amounts (255 = full ink) in place.
static void cmyk_row_to_ink(uint8_t *row, uint32_t width, int inverted) {
    if (!inverted) return;
    for (size_t i = 0; i < (size_t)width * 4; i++) row[i] = (uint8_t)(255 - row[i]);
}

void cjpeg_decoder_keep_cmyk(cjpeg_decoder *decoder, int keeps) {
    decoder->keeps_cmyk = keeps;
}

// MARK: - Reading pixels

static void read_all_scanlines(cjpeg_decoder *decoder, uint8_t *pixels, size_t stride) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    int cmyk = decoder->color_model == CJPEG_COLOR_CMYK;
    int inverted = cinfo->saw_Adobe_marker;
    JSAMPROW rows[CJPEG_ROWS_PER_CALL];
    decoder->reading_rows = 1;
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->output_height - first;
        if (count > CJPEG_ROWS_PER_CALL) count = CJPEG_ROWS_PER_CALL;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = pixels + (size_t)(first + i) * stride;
        JDIMENSION read = jpeg_read_scanlines(cinfo, rows, count);
        if (read == 0) cjpeg_fail((j_common_ptr)cinfo, CJPEG_TRUNCATED, "Premature end of JPEG file");
        if (cmyk && decoder->keeps_cmyk) {
            for (JDIMENSION i = 0; i < read; i++) cmyk_row_to_ink(rows[i], cinfo->output_width, inverted);
        } else if (cmyk) {
            for (JDIMENSION i = 0; i < read; i++) cmyk_row_to_rgba(rows[i], cinfo->output_width, inverted);
        }
    }
}

/// Whether every coefficient the 1/8 output uses has arrived (at some precision) for every
/// component. A full-resolution component becomes one pixel per block, made from the DC
/// coefficient alone; subsampled chroma is expanded by a 2×2 (or larger) IDCT, which also
/// uses AC coefficients, so those components wait for their first AC scans.
static int has_coefficients_for_eighth(j_decompress_ptr cinfo) {
    for (int c = 0; c < cinfo->num_components; c++) {
        int needed = cinfo->comp_info[c].DCT_scaled_size <= 1 ? 1 : DCTSIZE2;
        for (int k = 0; k < needed; k++) {
            if (cinfo->coef_bits[c][k] < 0) return 0;
        }
    }
    return 1;
}

/// Whether, for the 1/4 output, every coefficient of every component has arrived with its DC
/// exact and each AC coefficient missing at most its last bit: what is left are the final
/// AC refinement scans, the largest of a progressive file, whose last bit a 2×2-per-block
/// output barely shows.
static int has_coefficients_for_quarter(j_decompress_ptr cinfo) {
    for (int c = 0; c < cinfo->num_components; c++) {
        if (cinfo->coef_bits[c][0] != 0) return 0;
        for (int k = 1; k < DCTSIZE2; k++) {
            if (cinfo->coef_bits[c][k] < 0 || cinfo->coef_bits[c][k] > 1) return 0;
        }
    }
    return 1;
}

/// Buffered-image mode: consume scans until the coefficients the scaled output needs have
/// all arrived, then output the image from what was read and skip the rest of the file. The
/// readiness check runs when a scan is complete (libjpeg marks a scan's coefficients as
/// present as soon as its header is read). At 1/8, later scans would only add AC detail the
/// output never uses, and the low bits of DC coefficients sent in a refinement scan; at 1/4,
/// only the last bit of AC coefficients.
static void read_progressive_early(cjpeg_decoder *decoder, uint8_t *pixels, size_t stride) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    cinfo->buffered_image = TRUE;
    cinfo->do_block_smoothing = FALSE;
    jpeg_start_decompress(cinfo);
    for (;;) {
        int result = jpeg_consume_input(cinfo);
        check_scan_count((j_common_ptr)cinfo);
        if (result == JPEG_REACHED_EOI) break;
        if (result == JPEG_SUSPENDED) {
            cjpeg_fail((j_common_ptr)cinfo, CJPEG_TRUNCATED, "Premature end of JPEG file");
        }
        if (result == JPEG_SCAN_COMPLETED
            && (cinfo->scale_denom == 8 ? has_coefficients_for_eighth(cinfo) : has_coefficients_for_quarter(cinfo))) {
            break;
        }
    }
    jpeg_start_output(cinfo, cinfo->input_scan_number);
    read_all_scanlines(decoder, pixels, stride);
}

/// After a failure part-way through the scanlines: whether the fail-on level keeps the rows
/// read so far (an error below CJPEG_FAIL_ON_ERROR, an early end below
/// CJPEG_FAIL_ON_TRUNCATED), noting the damage when it does.
static int keeps_partial_image(cjpeg_decoder *decoder) {
    cjpeg_error_manager *error = &decoder->error;
    if (!decoder->reading_rows) return 0;
    int truncated = error->status == CJPEG_TRUNCATED;
    if (!truncated && error->status != CJPEG_CORRUPT) return 0;
    if (error->fail_on >= (truncated ? CJPEG_FAIL_ON_TRUNCATED : CJPEG_FAIL_ON_ERROR)) return 0;
    cjpeg_note_damage(error, truncated ? CJPEG_DAMAGE_TRUNCATED : CJPEG_DAMAGE_ERROR, error->message);
    error->status = CJPEG_OK;
    error->message[0] = '\0';
    return 1;
}

/// Rows `first`… of the output, opaque mid-grey: what libjpeg shows where data is missing.
static void fill_grey_from(uint8_t *pixels, size_t stride, JDIMENSION width, JDIMENSION first, JDIMENSION height) {
    for (JDIMENSION y = first; y < height; y++) {
        uint8_t *row = pixels + (size_t)y * stride;
        for (JDIMENSION x = 0; x < width; x++) {
            row[4 * x] = row[4 * x + 1] = row[4 * x + 2] = 128;
            row[4 * x + 3] = 255;
        }
    }
}

cjpeg_status cjpeg_decoder_read_rgba(cjpeg_decoder *decoder, uint8_t *pixels, size_t stride, size_t capacity) {
    if (decoder->state != STATE_SCALED) return misuse(decoder, "read_rgba needs set_scale first");
    j_decompress_ptr cinfo = &decoder->cinfo;
    size_t row_bytes = (size_t)cinfo->output_width * 4;
    if (pixels == NULL || cinfo->output_height == 0 || stride < row_bytes || capacity < stride * (cinfo->output_height - 1) + row_bytes) {
        return misuse(decoder, "the pixel buffer is too small for the output size");
    }
    decoder->state = STATE_DONE;
    if (setjmp(decoder->error.jump)) {
        if (keeps_partial_image(decoder)) {
            fill_grey_from(pixels, stride, cinfo->output_width, cinfo->output_scanline, cinfo->output_height);
            return CJPEG_OK;
        }
        return decoder->error.status;
    }

    if (decoder->early_stop) {
        // Full-resolution components need only their DC coefficients: read those scans
        // without libjpeg's whole-image coefficient buffer. Anything unexpected falls back.
        if (cinfo->scale_denom == 8 && cjpeg_dc_only_applies(cinfo)
            && cjpeg_dc_only_decode(cinfo, decoder->data, decoder->size, pixels, stride, CJPEG_MAX_SCANS)) {
            return CJPEG_OK;
        }
        read_progressive_early(decoder, pixels, stride);
    } else {
        jpeg_start_decompress(cinfo);
        read_all_scanlines(decoder, pixels, stride);
    }
    // No jpeg_finish_decompress: every pixel has been read and nothing after the last scan
    // changes them. cjpeg_decoder_destroy releases the rest.
    return CJPEG_OK;
}

// MARK: - Large blocks on huge pages

/// libjpeg's allocator for large blocks (jmemnobs.c: plain `malloc`), replaced by this
/// definition: libjpeg calls it through its PLT, so the executable's definition wins. Blocks
/// of 4 MiB and more — a progressive file's whole-image coefficient buffer, one block per
/// component (8 MB of luma for a 2560×1600 photo; its 2:1 chroma planes, 4,096,055 bytes
/// each, stay below and on small pages) — are aligned to 2 MiB and advised onto transparent
/// huge pages before libjpeg zeroes them, which saves ~2,000 page faults per such block.
/// libjpeg frees them with its own `jpeg_free_large` (`free`), which takes `posix_memalign`
/// blocks too. If the library binds its calls internally, this is simply not used.
/// (A 2 MiB threshold, catching the chroma planes, was tried and reverted: see
/// Benchmarks/README.md, session 7.)
void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject);
void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject) {
    (void)cinfo;
    const size_t huge = (size_t)2 << 20;
    if (sizeofobject < 2 * huge || sizeofobject > SIZE_MAX - huge) return malloc(sizeofobject);
    // Aligned to and rounded up to whole huge pages, so that all of it can be huge pages.
    size_t rounded = (sizeofobject + huge - 1) & ~(huge - 1);
    void *block = NULL;
    if (posix_memalign(&block, huge, rounded) != 0) return NULL;
    (void)madvise(block, rounded, MADV_HUGEPAGE);
    return block;
}
