// Private to CJPEG: the state the DC-only reader shares between its files.
#ifndef DARKROOM_CJPEG_DC_READER_H
#define DARKROOM_CJPEG_DC_READER_H

#include <stddef.h>
#include <stdint.h>

#define DC_MAX_COMPONENTS 4

// MARK: - Tables

/// A DC Huffman table: 9-bit lookahead plus the canonical per-length limits (spec F.2.2.3).
typedef struct {
    int defined;
    uint16_t fast[512];   // (length << 8) | symbol, 0 when the code is longer than 9 bits
    int32_t maxcode[18];  // largest code of each length, -1 if none; [17] sentinel
    int32_t valoffset[17];
    uint8_t values[256];
} dc_table;

typedef struct {
    int id;
    int quant_slot;
    int h, v;             // sampling factors
    int stride;           // blocks per row of `coefficients`: mcus_wide × h
    int blocks_wide, blocks_high;  // the component's own block grid (spec A.2.2), no MCU padding
    int32_t q0;           // DC quantiser latched at the component's first scan (-1 before)
    int seen_first_scan;
    int16_t *coefficients;  // one DC value per block, (mcus_wide × h) × (mcus_high × v)
    int dc_table;         // of the current scan
    int32_t predictor;
} dc_component;

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
    dc_table tables[4];
    int32_t quant0[4];
    int quant_defined[4];
    unsigned restart_interval;
    int components;
    int mcus_wide, mcus_high, max_h, max_v;
    dc_component comp[DC_MAX_COMPONENTS];
} dc_reader;

/// Writes the opaque RGBA output (`width` × `height`, libjpeg's 1/8 size) from the DC
/// coefficients of every component; 0 if memory runs out.
int cjpeg_dc_write_pixels(const dc_reader *r, uint32_t width, uint32_t height, uint8_t *pixels, size_t stride);

#endif
