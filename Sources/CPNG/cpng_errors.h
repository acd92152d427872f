// Error, warning and memory callbacks shared by CPNG's decoder and encoder. Private to CPNG.
#ifndef DARKROOM_CPNG_ERRORS_H
#define DARKROOM_CPNG_ERRORS_H

#include <png.h>

#include "CPNG.h"

/// What libpng's callbacks record. It is the error pointer and the memory pointer of every
/// png_struct CPNG creates, so it must stay at a fixed address while libpng runs.
typedef struct {
    /// libpng's error message, with the last warning appended when there was one.
    char message[CPNG_MESSAGE_CAPACITY];
    /// The last warning libpng raised (warnings are never printed).
    char warning[CPNG_MESSAGE_CAPACITY];
    /// Set when an allocation failed.
    int out_of_memory;
    /// Set by a read callback when the input ran out.
    int ran_out_of_data;
    /// Set when libpng warned that IHDR passes png_set_user_limits.
    int limit_exceeded;
    /// Set when libpng warned about the image data itself ("IDAT: incorrect data check",
    /// extra or missing compressed data): libpng tolerates it, the pixels are not to be trusted.
    int image_data_damaged;
    /// The damage level that stops decoding (cpng_fail_on; the encoder leaves it at 0, unused).
    int fail_on;
    /// The worst damage let through (cpng_damage) and its message.
    int damage;
    char damage_message[CPNG_MESSAGE_CAPACITY];
} cpng_report;

/// Keeps `damage` when it is worse than what was noted, with its message.
void cpng_note_damage(cpng_report *report, int damage, const char *message);

/// Fails the decode (png_error) when libpng warned that the image data is damaged, unless the
/// fail-on level lets warnings through (then the damage is noted). Call after the last row is
/// read.
void cpng_refuse_damaged_image_data(png_structp png, cpng_report *report);

/// Records the message and longjmps back to the setjmp of the running call.
void cpng_on_error(png_structp png, png_const_charp message);

/// Keeps the warning for a later error's message; prints nothing.
void cpng_on_warning(png_structp png, png_const_charp message);

/// malloc that records failures in the report.
png_voidp cpng_malloc(png_structp png, png_alloc_size_t size);

/// free for cpng_malloc.
void cpng_free(png_structp png, png_voidp pointer);

/// The status that matches what the report recorded, once an error has longjmp'd.
cpng_status cpng_failure_status(const cpng_report *report);

/// Sets the report's message outside libpng (no warning appended).
void cpng_set_message(cpng_report *report, const char *message);

#endif
