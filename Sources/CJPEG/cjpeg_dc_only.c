// CJPEG: a DC-only reader for progressive JPEGs at 1/8 (see cjpeg_dc_only.h).
//
// It walks the file's markers itself, keeps the DC Huffman and quantisation tables, decodes
// the DC scans (JPEG spec G.1.2.1: DC first scans with successive approximation and DC
// refinement scans) and jumps over the entropy data of AC scans with memchr. Any surprise
// returns 0 and the caller lets libjpeg handle the file. The pixels are made in
// cjpeg_dc_pixels.c.
#include <stdlib.h>
#include <string.h>

#include "cjpeg_dc_only.h"
#include "cjpeg_dc_reader.h"

static unsigned read16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }

static int build_table(dc_table *table, const uint8_t *counts, const uint8_t *values, int total) {
    memset(table, 0, sizeof *table);
    memcpy(table->values, values, (size_t)total);
    int32_t code = 0;
    int k = 0;
    for (int length = 1; length <= 16; length++) {
        table->valoffset[length] = k - code;
        if (counts[length - 1] == 0) {
            table->maxcode[length] = -1;
        } else {
            for (int i = 0; i < counts[length - 1]; i++, k++, code++) {
                if (code >= (1 << length)) return 0;  // more codes than the length allows
                if (length <= 9) {
                    int shift = 9 - length;
                    for (int fill = 0; fill < (1 << shift); fill++) {
                        table->fast[(code << shift) | fill] = (uint16_t)(length << 8 | values[k]);
                    }
                }
            }
            table->maxcode[length] = code - 1;
        }
        if (code > (1 << length)) return 0;  // more codes than the length allows
        code <<= 1;
    }
    table->maxcode[17] = 0x7FFFFFFF;
    table->defined = 1;
    return 1;
}

static int read_dht(dc_reader *r, const uint8_t *p, size_t length) {
    while (length > 0) {
        if (length < 17) return 0;
        int class = p[0] >> 4, slot = p[0] & 15;
        int total = 0;
        for (int i = 0; i < 16; i++) total += p[1 + i];
        if (slot > 3 || class > 1 || total > 256 || length < (size_t)(17 + total)) return 0;
        if (class == 0 && !build_table(&r->tables[slot], p + 1, p + 17, total)) return 0;
        p += 17 + total;
        length -= (size_t)(17 + total);
    }
    return 1;
}

static int read_dqt(dc_reader *r, const uint8_t *p, size_t length) {
    while (length > 0) {
        int precision = p[0] >> 4, slot = p[0] & 15;
        size_t entry = precision ? 129 : 65;
        if (slot > 3 || precision > 1 || length < entry) return 0;
        r->quant0[slot] = precision ? (int32_t)read16(p + 1) : p[1];  // entry 0 is DC in any order
        r->quant_defined[slot] = 1;
        p += entry;
        length -= entry;
    }
    return 1;
}

// MARK: - Bits

/// Reads entropy-coded bits; stops at any marker and pads with zeros after it. Padding
/// that is actually consumed means the scan ended early: damaged data.
typedef struct {
    const uint8_t *p, *end;
    uint64_t bits;
    int count;    // bits held at the top of `bits`, padding included
    int padding;  // how many of those (the last ones) are padding
} bit_reader;

static inline void fill(bit_reader *b) {
    while (b->count <= 56) {
        uint8_t byte = 0;
        if (b->padding == 0 && b->p < b->end) {
            byte = *b->p;
            if (byte == 0xFF) {
                if (b->p + 1 < b->end && b->p[1] == 0x00) {
                    b->p += 2;
                } else {
                    byte = 0;  // a marker (or the end): pad from here on
                    b->padding = 8;
                }
            } else {
                b->p++;
            }
        } else {
            b->padding += 8;
        }
        b->bits |= (uint64_t)byte << (56 - b->count);
        b->count += 8;
    }
}

static inline int take(bit_reader *b, int n, int32_t *value) {
    if (n == 0) { *value = 0; return 1; }
    fill(b);
    if (n > b->count - b->padding) return 0;  // would read padding
    *value = (int32_t)(b->bits >> (64 - n));
    b->bits <<= n;
    b->count -= n;
    return 1;
}

static inline int decode_symbol(bit_reader *b, const dc_table *t) {
    fill(b);
    unsigned look = (unsigned)(b->bits >> (64 - 9));
    int length, symbol;
    if (t->fast[look]) {
        length = t->fast[look] >> 8;
        symbol = t->fast[look] & 0xFF;
    } else {
        length = 10;
        int32_t code = (int32_t)(b->bits >> (64 - 10));
        while (length <= 16 && code > t->maxcode[length]) {
            length++;
            code = (int32_t)(b->bits >> (64 - length));
        }
        if (length > 16) return -1;
        int index = code + t->valoffset[length];
        if (index < 0 || index > 255) return -1;
        symbol = t->values[index];
    }
    if (length > b->count - b->padding) return -1;  // would read padding
    b->bits <<= length;
    b->count -= length;
    return symbol;
}

// MARK: - Scans

/// Finds the next marker at or after `from`: an FF not followed by a stuffed 00 or a restart
/// marker. Returns its offset, or `size` when there is none.
static size_t next_marker(const uint8_t *data, size_t size, size_t from) {
    size_t i = from;
    while (i + 1 < size) {
        const uint8_t *ff = memchr(data + i, 0xFF, size - i - 1);
        if (ff == NULL) return size;
        size_t j = (size_t)(ff - data);
        uint8_t next = data[j + 1];
        if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) {
            i = j + 2;
        } else if (next == 0xFF) {
            i = j + 1;
        } else {
            return j;
        }
    }
    return size;
}

/// Consumes a restart marker between intervals; the interval's bits must be used up.
static int restart(bit_reader *b) {
    if (b->count - b->padding >= 8) return 0;  // data left over before the marker
    const uint8_t *p = b->p;
    while (p < b->end && *p == 0xFF) p++;
    if (p == b->p || p >= b->end || *p < 0xD0 || *p > 0xD7) return 0;
    b->p = p + 1;
    b->bits = 0;
    b->count = 0;
    b->padding = 0;
    return 1;
}

static int decode_block(bit_reader *b, const dc_reader *r, dc_component *c, int bx, int by, int refine, int al) {
    (void)r;
    int16_t *coefficient = c->coefficients + (size_t)by * (size_t)c->stride + bx;
    if (refine) {
        int32_t bit;
        if (!take(b, 1, &bit)) return 0;
        if (bit) *coefficient = (int16_t)(*coefficient | (1 << al));
        return 1;
    }
    int s = decode_symbol(b, &r->tables[c->dc_table]);
    if (s < 0 || s > 11) return 0;
    int32_t diff = 0;
    if (s) {
        int32_t bits;
        if (!take(b, s, &bits)) return 0;
        diff = bits < (1 << (s - 1)) ? bits - (1 << s) + 1 : bits;
    }
    c->predictor += diff;
    *coefficient = (int16_t)((uint32_t)c->predictor << al);
    return 1;
}

/// Decodes one DC scan whose entropy data starts at `start`; returns the offset of the
/// marker after it, or 0 on failure.
static size_t decode_dc_scan(dc_reader *r, dc_component **members, int count, int refine, int al, size_t start) {
    bit_reader b = {r->data + start, r->data + r->size, 0, 0, 0};
    // An interleaved scan walks MCUs (h × v blocks of each member); a single-component scan
    // walks that component's own block grid, without the MCU padding (spec A.2.2, A.2.3).
    int wide = count > 1 ? r->mcus_wide : members[0]->blocks_wide;
    size_t mcus = count > 1 ? (size_t)r->mcus_wide * (size_t)r->mcus_high
                            : (size_t)members[0]->blocks_wide * (size_t)members[0]->blocks_high;
    for (int i = 0; i < count; i++) members[i]->predictor = 0;
    for (size_t m = 0; m < mcus; m++) {
        if (r->restart_interval && m > 0 && m % r->restart_interval == 0) {
            if (!restart(&b)) return 0;
            for (int i = 0; i < count; i++) members[i]->predictor = 0;
        }
        int mx = (int)(m % (size_t)wide), my = (int)(m / (size_t)wide);
        if (count == 1) {
            if (!decode_block(&b, r, members[0], mx, my, refine, al)) return 0;
            continue;
        }
        for (int i = 0; i < count; i++) {
            dc_component *c = members[i];
            for (int v = 0; v < c->v; v++) {
                for (int h = 0; h < c->h; h++) {
                    if (!decode_block(&b, r, c, mx * c->h + h, my * c->v + v, refine, al)) return 0;
                }
            }
        }
    }
    size_t marker = next_marker(r->data, r->size, (size_t)(b.p - r->data));
    return marker < r->size ? marker : 0;
}

/// Handles one SOS segment (`header`, `length` bytes) whose entropy data starts at
/// `start`; returns the offset of the next marker, or 0 on failure.
static size_t read_scan(dc_reader *r, const uint8_t *header, size_t length, size_t start) {
    if (length < 1) return 0;
    int count = header[0];
    if (count < 1 || count > r->components || length != (size_t)(4 + 2 * count)) return 0;
    int ss = header[1 + 2 * count], ah = header[3 + 2 * count] >> 4, al = header[3 + 2 * count] & 15;
    if (ss != 0) {  // an AC scan: skipped, never decoded
        size_t marker = next_marker(r->data, r->size, start);
        return marker < r->size ? marker : 0;
    }
    if (al > 13) return 0;

    dc_component *members[DC_MAX_COMPONENTS];
    for (int i = 0; i < count; i++) {
        int id = header[1 + 2 * i];
        members[i] = NULL;
        for (int c = 0; c < r->components; c++) {
            if (r->comp[c].id == id) members[i] = &r->comp[c];
        }
        if (members[i] == NULL) return 0;
        members[i]->dc_table = header[2 + 2 * i] >> 4;
        if (members[i]->dc_table > 3) return 0;
        if (ah == 0) {
            if (members[i]->seen_first_scan || !r->tables[members[i]->dc_table].defined) return 0;
            if (!r->quant_defined[members[i]->quant_slot]) return 0;
            members[i]->q0 = r->quant0[members[i]->quant_slot];  // latched as libjpeg does
            members[i]->seen_first_scan = 1;
        } else if (!members[i]->seen_first_scan) {
            return 0;
        }
    }
    return decode_dc_scan(r, members, count, ah != 0, al, start);
}

// MARK: - Entry points

int cjpeg_dc_only_applies(j_decompress_ptr cinfo) {
    if (!cinfo->progressive_mode || cinfo->arith_code || cinfo->data_precision != 8) return 0;
    if (cinfo->scale_denom != 8 || cinfo->scale_num != 1) return 0;
    int ycc = cinfo->jpeg_color_space == JCS_YCbCr && cinfo->num_components == 3;
    int grey = cinfo->jpeg_color_space == JCS_GRAYSCALE && cinfo->num_components == 1;
    if (!ycc && !grey) return 0;
    // Each component at full resolution, or at half of it horizontally only (4:4:4, 4:2:2).
    // There libjpeg's own 1/8 uses the chroma DC alone too. For 4:2:0 it runs a 2×2 IDCT on
    // the chroma's first AC coefficients, several dB better than upsampled DC, so 4:2:0 (and
    // 4:4:0, 4:1:1) is left to libjpeg.
    for (int c = 0; c < cinfo->num_components; c++) {
        int h = cinfo->comp_info[c].h_samp_factor, v = cinfo->comp_info[c].v_samp_factor;
        if (h < 1 || v != cinfo->max_v_samp_factor) return 0;
        if (h != cinfo->max_h_samp_factor && 2 * h != cinfo->max_h_samp_factor) return 0;
    }
    return 1;
}

static int walk_markers(dc_reader *r, int max_scans) {
    const uint8_t *data = r->data;
    size_t size = r->size, pos = 2;
    int scans = 0, frames = 0;
    for (;;) {
        if (pos >= size || data[pos] != 0xFF) return 0;
        while (pos < size && data[pos] == 0xFF) pos++;
        if (pos >= size) return 0;
        uint8_t marker = data[pos++];
        if (marker == 0xD9) return 1;  // EOI
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) return 0;
        if (pos + 2 > size) return 0;
        size_t length = read16(data + pos);
        if (length < 2 || pos + length > size) return 0;
        const uint8_t *segment = data + pos + 2;
        size_t segment_length = length - 2;
        switch (marker) {
        case 0xC4:
            if (!read_dht(r, segment, segment_length)) return 0;
            break;
        case 0xDB:
            if (!read_dqt(r, segment, segment_length)) return 0;
            break;
        case 0xDD:
            if (segment_length != 2) return 0;
            r->restart_interval = read16(segment);
            break;
        case 0xC2:
            if (++frames > 1) return 0;
            break;
        case 0xDA: {
            if (++scans > max_scans) return 0;
            size_t next = read_scan(r, segment, segment_length, pos + length);
            if (next == 0) return 0;
            pos = next;
            continue;
        }
        default:
            if (marker >= 0xC0 && marker <= 0xCF) return 0;  // another frame type, or DAC
            break;
        }
        pos += length;
    }
}

int cjpeg_dc_only_decode(j_decompress_ptr cinfo, const uint8_t *data, size_t size,
                         uint8_t *pixels, size_t stride, int max_scans) {
    if (!cjpeg_dc_only_applies(cinfo) || size < 4 || data[0] != 0xFF || data[1] != 0xD8) return 0;
    dc_reader *r = calloc(1, sizeof *r);
    if (r == NULL) return 0;
    r->data = data;
    r->size = size;
    r->components = cinfo->num_components;
    r->max_h = cinfo->max_h_samp_factor;
    r->max_v = cinfo->max_v_samp_factor;
    r->mcus_wide = (int)((cinfo->image_width + 8u * (unsigned)r->max_h - 1) / (8u * (unsigned)r->max_h));
    r->mcus_high = (int)((cinfo->image_height + 8u * (unsigned)r->max_v - 1) / (8u * (unsigned)r->max_v));
    int ok = 1;
    for (int c = 0; c < r->components && ok; c++) {
        dc_component *component = &r->comp[c];
        jpeg_component_info *info = &cinfo->comp_info[c];
        component->id = info->component_id;
        component->quant_slot = info->quant_tbl_no;
        component->h = info->h_samp_factor;
        component->v = info->v_samp_factor;
        component->stride = r->mcus_wide * component->h;
        // ceil(ceil(width × h / max_h) / 8), likewise down (spec A.1.1, A.2.2).
        unsigned long samples_wide = ((unsigned long)cinfo->image_width * (unsigned)component->h + (unsigned)r->max_h - 1) / (unsigned)r->max_h;
        unsigned long samples_high = ((unsigned long)cinfo->image_height * (unsigned)component->v + (unsigned)r->max_v - 1) / (unsigned)r->max_v;
        component->blocks_wide = (int)((samples_wide + 7) / 8);
        component->blocks_high = (int)((samples_high + 7) / 8);
        size_t blocks = (size_t)component->stride * (size_t)r->mcus_high * (size_t)component->v;
        component->coefficients = calloc(blocks, sizeof(int16_t));
        ok = component->coefficients != NULL && component->quant_slot >= 0 && component->quant_slot < 4
            && component->blocks_wide <= component->stride && component->blocks_high <= r->mcus_high * component->v;
    }
    if (ok) ok = walk_markers(r, max_scans);
    for (int c = 0; c < r->components && ok; c++) ok = r->comp[c].seen_first_scan;
    if (ok) ok = cinfo->output_width == (cinfo->image_width + 7) / 8 && cinfo->output_height == (cinfo->image_height + 7) / 8;
    if (ok) ok = cjpeg_dc_write_pixels(r, cinfo->output_width, cinfo->output_height, pixels, stride);
    for (int c = 0; c < r->components; c++) free(r->comp[c].coefficients);
    free(r);
    return ok;
}
