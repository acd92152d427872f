// Encoding an RGBA8 buffer to a PNG in memory with libpng.
//
// libpng writes the signature, the header and the metadata. The image data of a non-interlaced
// image is filtered and deflated here (cpng_image_data.h, libdeflate) and written as IDAT chunks;
// interlaced and very large images go through libpng's rows, which are pointers into the
// caller's buffer (for an opaque image libpng drops the alpha byte itself, png_set_filler).
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpng_errors.h"
#include "cpng_image_data.h"

// MARK: - State

typedef struct {
    /// First member: libpng's error and memory pointer.
    cpng_report report;
    cpng_output *output;
    png_structp png;
    png_infop info;
    png_bytepp rows;
    const uint8_t *pixels;
    /// The deflated image data while it is written (freed by the caller, even after an error).
    uint8_t *image_data;
    const cpng_metadata *metadata;
} cpng_encoder;

// MARK: - Writing to memory

static void cpng_write_memory(png_structp png, png_bytep data, size_t length) {
    cpng_encoder *encoder = (cpng_encoder *)png_get_io_ptr(png);
    cpng_output *output = encoder->output;
    if (length > SIZE_MAX - output->count) png_error(png, "the encoded PNG is too large for memory");
    size_t needed = output->count + length;
    if (needed > output->capacity) {
        size_t capacity = output->capacity < 65536 ? 65536 : output->capacity;
        while (capacity < needed) capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        uint8_t *bytes = (uint8_t *)realloc(output->bytes, capacity);
        if (bytes == NULL) {
            encoder->report.out_of_memory = 1;
            png_error(png, "out of memory for the encoded PNG");
        }
        output->bytes = bytes;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->count, data, length);
    output->count = needed;
}

static void cpng_flush_memory(png_structp png) {
    (void)png;
}

void cpng_output_free(cpng_output *output) {
    if (output == NULL) return;
    free(output->bytes);
    output->bytes = NULL;
    output->count = 0;
    output->capacity = 0;
}

// MARK: - Metadata

/// Hands the metadata to libpng, which writes it with png_write_info (before IDAT).
static void cpng_set_metadata(png_structp png, png_infop info, const cpng_metadata *metadata) {
    if (metadata == NULL) return;
    if (metadata->icc != NULL && metadata->icc_count > 0 && metadata->icc_count <= UINT32_MAX) {
        // A profile that does not fit the colour type (or is damaged) is a warning, and left out,
        // not a failed encode: the pixels matter more than their tag.
        png_set_benign_errors(png, 1);
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, metadata->icc,
                     (png_uint_32)metadata->icc_count);
    }
    if (metadata->exif != NULL && metadata->exif_count > 0 && metadata->exif_count <= UINT32_MAX) {
        // libpng's API is not const-correct; it copies the bytes.
        png_set_eXIf_1(png, info, (png_uint_32)metadata->exif_count, (png_bytep)(uintptr_t)metadata->exif);
    }
    if (metadata->xmp != NULL) {
        png_text text;
        memset(&text, 0, sizeof text);
        text.compression = PNG_ITXT_COMPRESSION_NONE;
        text.key = (png_charp) "XML:com.adobe.xmp";
        text.text = (png_charp)(uintptr_t)metadata->xmp;
        text.lang = (png_charp) "";
        text.lang_key = (png_charp) "";
        png_set_text(png, info, &text, 1);
    }
}

// MARK: - Image data

/// Writes the image data filtered and deflated by CPNG (cpng_image_data.h) as IDAT chunks of
/// at most 1 MiB, then IEND: libpng has written everything before them, and writes nothing
/// after (png_write_end is not called; every chunk went out before the image data).
static void cpng_write_image_data(cpng_encoder *encoder, const cpng_encode_settings *settings, int channels) {
    png_structp png = encoder->png;
    size_t length = 0;
    encoder->image_data = cpng_deflate_image(encoder->pixels, settings->stride, settings->width,
                                             settings->height, channels, settings->compression_level, &length);
    if (encoder->image_data == NULL) {
        encoder->report.out_of_memory = 1;
        png_error(png, "out of memory for the PNG image data");
    }
    static const size_t chunk_limit = (size_t)1 << 20;
    for (size_t offset = 0; offset < length; offset += chunk_limit) {
        size_t count = length - offset < chunk_limit ? length - offset : chunk_limit;
        png_write_chunk(png, (png_const_bytep) "IDAT", encoder->image_data + offset, count);
    }
    png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
}

// MARK: - Encoding

/// Runs libpng; every libpng error longjmps back here. Returns CPNG_OK or the failure.
static cpng_status cpng_run_encoder(cpng_encoder *encoder, const cpng_encode_settings *settings) {
    png_structp png = encoder->png;
    png_infop info = encoder->info;
    if (setjmp(png_jmpbuf(png))) {
        return cpng_failure_status(&encoder->report);
    }
    png_set_write_fn(png, encoder, cpng_write_memory, cpng_flush_memory);
    png_set_IHDR(png, info, settings->width, settings->height, 8,
                 settings->write_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 settings->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, settings->compression_level);
    // Level 0 stores the data, so row filters would only cost time. Otherwise libpng
    // chooses per row among all five filters (the minimum-sum heuristic): the smallest
    // files for photos and gradients, at a cost that is small next to deflate itself.
    if (settings->compression_level == 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    cpng_set_metadata(png, info, encoder->metadata);
    png_write_info(png, info);
    // After png_write_info (it needs the colour type): the source rows carry a 4th byte
    // that libpng strips when writing RGB.
    if (!settings->write_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
    int channels = settings->write_alpha ? 4 : 3;
    if (!settings->interlaced
        && ((size_t)settings->width * (size_t)channels + 1) * settings->height <= CPNG_IMAGE_DATA_MAX_BYTES) {
        cpng_write_image_data(encoder, settings, channels);
        return CPNG_OK;
    }
    png_write_image(png, encoder->rows);
    // No info here: every chunk went out before the image data, and libpng 1.6.39 would write
    // eXIf a second time after it.
    png_write_end(png, NULL);
    return CPNG_OK;
}

cpng_status cpng_encode_rgba(const uint8_t *pixels, const cpng_encode_settings *settings,
                             cpng_output *output, char *message) {
    return cpng_encode_rgba_with_metadata(pixels, settings, NULL, output, message);
}

cpng_status cpng_encode_rgba_with_metadata(const uint8_t *pixels, const cpng_encode_settings *settings,
                                           const cpng_metadata *metadata, cpng_output *output, char *message) {
    message[0] = '\0';
    output->bytes = NULL;
    output->count = 0;
    output->capacity = 0;
    if (pixels == NULL || settings->width == 0 || settings->height == 0
        || settings->stride < (size_t)settings->width * 4
        || settings->compression_level < 0 || settings->compression_level > 9) {
        strncpy(message, "invalid encoder settings", CPNG_MESSAGE_CAPACITY - 1);
        message[CPNG_MESSAGE_CAPACITY - 1] = '\0';
        return CPNG_MISUSE;
    }
    cpng_encoder *encoder = (cpng_encoder *)calloc(1, sizeof *encoder);
    if (encoder == NULL) {
        strcpy(message, "out of memory");
        return CPNG_OUT_OF_MEMORY;
    }
    encoder->output = output;
    encoder->pixels = pixels;
    encoder->metadata = metadata;
    cpng_status status = CPNG_OUT_OF_MEMORY;
    cpng_set_message(&encoder->report, "out of memory");

    encoder->rows = (png_bytepp)malloc((size_t)settings->height * sizeof(png_bytep));
    encoder->png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &encoder->report, cpng_on_error,
                                             cpng_on_warning, &encoder->report, cpng_malloc, cpng_free);
    if (encoder->png != NULL) encoder->info = png_create_info_struct(encoder->png);
    if (encoder->rows != NULL && encoder->info != NULL) {
        for (uint32_t y = 0; y < settings->height; y++) {
            // libpng only reads the rows; its API is not const-correct.
            encoder->rows[y] = (png_bytep)(uintptr_t)(pixels + (size_t)y * settings->stride);
        }
        encoder->report.message[0] = '\0';
        status = cpng_run_encoder(encoder, settings);
    }
    if (status != CPNG_OK) {
        memcpy(message, encoder->report.message, CPNG_MESSAGE_CAPACITY);
        cpng_output_free(output);
    }
    png_destroy_write_struct(&encoder->png, &encoder->info);
    free(encoder->rows);
    free(encoder->image_data);
    free(encoder);
    return status;
}
