// CPNG: the image data of a plain 8-bit RGB or RGBA PNG read without libpng's row machinery
// (see cpng_fast_rows.h).
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>

#include "cpng_fast_rows.h"
#include "cpng_unfilter.h"

// MARK: - Chunks

static uint32_t read_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/// Gathers the consecutive IDAT chunks starting at `chunk` (the first one's length field)
/// into one zlib stream, checking every CRC. Returns the stream (`*owned` says whether it
/// must be freed) or NULL when a chunk is cut short or damaged.
static const uint8_t *gather_idat(const uint8_t *data, size_t size, size_t chunk, size_t *length, uint8_t **owned) {
    size_t total = 0, count = 0, offset = chunk;
    while (offset + 12 <= size && memcmp(data + offset + 4, "IDAT", 4) == 0) {
        size_t data_length = read_be32(data + offset);
        if (data_length > size - offset - 12) return NULL;  // truncated
        uint32_t crc = (uint32_t)libdeflate_crc32(0, data + offset + 4, data_length + 4);
        if (crc != read_be32(data + offset + 8 + data_length)) return NULL;
        total += data_length;
        count++;
        offset += 12 + data_length;
    }
    if (count == 0) return NULL;
    *length = total;
    *owned = NULL;
    if (count == 1) return data + chunk + 8;
    uint8_t *stream = malloc(total ? total : 1);
    if (stream == NULL) return NULL;
    size_t filled = 0;
    offset = chunk;
    for (size_t i = 0; i < count; i++) {
        size_t data_length = read_be32(data + offset);
        memcpy(stream + filled, data + offset + 8, data_length);
        filled += data_length;
        offset += 12 + data_length;
    }
    *owned = stream;
    return stream;
}

// MARK: - Entry point

int cpng_fast_rows(const uint8_t *data, size_t size, size_t first_idat, uint32_t width, uint32_t height,
                   int channels, cpng_fast_row_sink sink, void *context) {
    if ((channels != 3 && channels != 4) || width == 0 || height == 0) return 0;
    size_t row_bytes = (size_t)width * (size_t)channels;
    if (row_bytes > (SIZE_MAX - 1) / height / 2) return 0;
    size_t raw_size = (row_bytes + 1) * height;
    // libdeflate inflates in one go, so this path holds the whole filtered image. Past 64 MiB
    // (a 4096×4096 RGBA image) the streaming libpng path, which holds a few rows, is used.
    if (raw_size > CPNG_FAST_ROWS_MAX_BYTES) return 0;

    size_t stream_length = 0;
    uint8_t *owned = NULL;
    const uint8_t *stream = gather_idat(data, size, first_idat, &stream_length, &owned);
    if (stream == NULL) return 0;
    // A byte to spare past the last row (cpng_unfilter.h), rounded up.
    uint8_t *raw = malloc(raw_size + 16);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    int ok = raw != NULL && inflater != NULL;
    if (ok) {
        size_t produced = 0;
        // Exactly the image's bytes, Adler-32 checked by libdeflate. Too little or too much
        // data (which libpng tolerates with a warning) is left to libpng.
        ok = libdeflate_zlib_decompress(inflater, stream, stream_length, raw, raw_size, &produced)
                == LIBDEFLATE_SUCCESS
            && produced == raw_size;
    }
    // Every filter type is checked before the first row goes out, so a failure here never
    // leaves the sink with part of an image.
    for (uint32_t y = 0; ok && y < height; y++) ok = raw[(size_t)y * (row_bytes + 1)] <= 4;
    // Two rows at a time, which overlaps their dependency chains (cpng_unfilter.h), into three
    // rows that take turns: the pair's two and the one above them.
    size_t spaced = row_bytes + 16;  // the byte to spare, rounded up
    uint8_t *rows = ok ? malloc(3 * spaced) : NULL;
    ok = ok && rows != NULL;
    const uint8_t *above = NULL;
    for (uint32_t y = 0; ok && y < height; y += 2) {
        const uint8_t *line = raw + (size_t)y * (row_bytes + 1);
        cpng_filtered_row first = {line[0], line + 1, rows + (size_t)(y % 3) * spaced};
        if (y + 1 < height) {
            const uint8_t *next = line + row_bytes + 1;
            cpng_filtered_row second = {next[0], next + 1, rows + (size_t)((y + 1) % 3) * spaced};
            cpng_unfilter_rows(&first, above, &second, row_bytes, (size_t)channels);
            sink(context, first.out);
            sink(context, second.out);
            above = second.out;
        } else {
            cpng_unfilter_rows(&first, above, NULL, row_bytes, (size_t)channels);
            sink(context, first.out);
        }
    }
    free(rows);
    libdeflate_free_decompressor(inflater);
    free(raw);
    free(owned);
    return ok;
}
