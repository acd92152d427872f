// The decoder's state, shared by opening (ctiff_decode.c) and reading (ctiff_read.c).
#ifndef CTIFF_DECODER_H
#define CTIFF_DECODER_H

#include "CTIFF.h"
#include "ctiff_library.h"
#include "ctiff_pixels.h"

struct ctiff_decoder {
    const uint8_t *data;
    size_t size;
    uint64_t position;
    uint64_t max_pixels, max_alloc;
    TIFF *tif;
    ctiff_fail_on fail_on;
    int reading;                 // 1 while pixels are read: codec warnings are damage then
    int stop;                    // a warning the fail-on level does not let through
    ctiff_damage damage;
    char damage_message[256];
    char message[512];
    ctiff_info info;
    int use_rgba_reader;         // the layout goes through TIFFRGBAImage
    ctiff_layout layout;
};

/// Notes damage a read went past: the first kind and message, a truncation or error replacing a warning.
void ctiff_note_damage(ctiff_decoder *d, ctiff_damage kind, const char *text);

/// Whether the fail-on level stops at `kind` of damage.
int ctiff_stops_at(const ctiff_decoder *d, ctiff_damage kind);

/// Sets the message and returns `status`.
ctiff_status ctiff_fail(ctiff_decoder *d, ctiff_status status, const char *text);

#endif
