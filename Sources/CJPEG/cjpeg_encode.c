// CJPEG encoding: libjpeg-turbo straight from the caller's RGBA buffer into memory.
#include <stdlib.h>
#include <string.h>

#include "cjpeg_errors.h"

// MARK: - A growable memory destination

/// Like jpeg_mem_dest, but this wall owns the buffer at every moment, so an error part-way
/// frees it exactly once (jpeg_mem_dest's internal buffer leaks when a compression aborts),
/// and the first allocation is sized from the image so most encodes never reallocate.
typedef struct {
    struct jpeg_destination_mgr pub;
    uint8_t *buffer;
    size_t capacity;
    size_t size;
} memory_destination;

static void init_destination(j_compress_ptr cinfo) {
    memory_destination *dest = (memory_destination *)cinfo->dest;
    dest->pub.next_output_byte = dest->buffer;
    dest->pub.free_in_buffer = dest->capacity;
}

static boolean empty_output_buffer(j_compress_ptr cinfo) {
    memory_destination *dest = (memory_destination *)cinfo->dest;
    size_t used = dest->capacity;  // libjpeg calls this only when the buffer is full
    size_t grown = dest->capacity * 2;
    uint8_t *buffer = realloc(dest->buffer, grown);
    if (buffer == NULL) cjpeg_fail((j_common_ptr)cinfo, CJPEG_OUT_OF_MEMORY, "out of memory growing the output");
    dest->buffer = buffer;
    dest->capacity = grown;
    dest->pub.next_output_byte = buffer + used;
    dest->pub.free_in_buffer = grown - used;
    return TRUE;
}

static void term_destination(j_compress_ptr cinfo) {
    memory_destination *dest = (memory_destination *)cinfo->dest;
    dest->size = dest->capacity - dest->pub.free_in_buffer;
}

// MARK: - Encoding

/// Everything that must survive a longjmp lives on the heap, reached through a pointer
/// that is never reassigned after setjmp.
typedef struct {
    struct jpeg_compress_struct cinfo;
    cjpeg_error_manager error;
    memory_destination dest;
} encode_context;

static void compress(encode_context *ctx, const uint8_t *pixels, uint32_t width, uint32_t height,
                     size_t stride, cjpeg_encode_options options) {
    j_compress_ptr cinfo = &ctx->cinfo;
    jpeg_create_compress(cinfo);

    // A first guess of ~1 byte per 2 pixels (photos at q80–95 need 1–3 bits per pixel).
    size_t guess = (size_t)width * height / 2 + 16384;
    ctx->dest.buffer = malloc(guess);
    if (ctx->dest.buffer == NULL) cjpeg_fail((j_common_ptr)cinfo, CJPEG_OUT_OF_MEMORY, "out of memory");
    ctx->dest.capacity = guess;
    ctx->dest.pub.init_destination = init_destination;
    ctx->dest.pub.empty_output_buffer = empty_output_buffer;
    ctx->dest.pub.term_destination = term_destination;
    cinfo->dest = &ctx->dest.pub;

    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBA;  // the alpha byte is skipped by libjpeg-turbo
    jpeg_set_defaults(cinfo);               // YCbCr, 4:2:0, JFIF header, ISLOW DCT
    jpeg_set_quality(cinfo, options.quality, TRUE);
    int factor = options.subsample_chroma ? 2 : 1;
    cinfo->comp_info[0].h_samp_factor = factor;
    cinfo->comp_info[0].v_samp_factor = factor;
    cinfo->optimize_coding = options.optimize_coding ? TRUE : FALSE;
    if (options.progressive) jpeg_simple_progression(cinfo);

    jpeg_start_compress(cinfo, TRUE);
    JSAMPROW rows[16];
    while (cinfo->next_scanline < cinfo->image_height) {
        JDIMENSION first = cinfo->next_scanline;
        JDIMENSION count = cinfo->image_height - first;
        if (count > 16) count = 16;
        // libjpeg never writes through input rows; JSAMPROW is merely not const-qualified.
        for (JDIMENSION i = 0; i < count; i++) rows[i] = (JSAMPROW)(pixels + (size_t)(first + i) * stride);
        jpeg_write_scanlines(cinfo, rows, count);
    }
    jpeg_finish_compress(cinfo);
}

cjpeg_status cjpeg_encode_rgba(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
    cjpeg_encode_options options, uint8_t **output, size_t *output_size, char *message
) {
    *output = NULL;
    *output_size = 0;
    message[0] = '\0';
    if (pixels == NULL || width == 0 || height == 0 || stride < (size_t)width * 4
        || options.quality < 1 || options.quality > 100) {
        snprintf(message, CJPEG_MESSAGE_CAPACITY, "invalid encoder arguments");
        return CJPEG_MISUSE;
    }
    encode_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) {
        snprintf(message, CJPEG_MESSAGE_CAPACITY, "out of memory");
        return CJPEG_OUT_OF_MEMORY;
    }
    ctx->cinfo.err = cjpeg_error_manager_init(&ctx->error);
    if (setjmp(ctx->error.jump)) {
        cjpeg_status status = ctx->error.status;
        snprintf(message, CJPEG_MESSAGE_CAPACITY, "%s", ctx->error.message);
        jpeg_destroy_compress(&ctx->cinfo);
        free(ctx->dest.buffer);
        free(ctx);
        return status;
    }
    compress(ctx, pixels, width, height, stride, options);
    *output = ctx->dest.buffer;
    *output_size = ctx->dest.size;
    jpeg_destroy_compress(&ctx->cinfo);
    free(ctx);
    return CJPEG_OK;
}

void cjpeg_free(void *buffer) {
    free(buffer);
}
