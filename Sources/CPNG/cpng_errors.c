// libpng callbacks that turn errors into messages and keep warnings quiet.
#include "cpng_errors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Errors and warnings

void cpng_on_error(png_structp png, png_const_charp message) {
    cpng_report *report = (cpng_report *)png_get_error_ptr(png);
    if (report != NULL && report->message[0] == '\0') {
        const char *text = (message != NULL && message[0] != '\0') ? message : "libpng error";
        if (report->warning[0] != '\0' && strcmp(report->warning, text) != 0) {
            snprintf(report->message, sizeof report->message, "%s (after: %s)", text, report->warning);
        } else {
            snprintf(report->message, sizeof report->message, "%s", text);
        }
    }
    png_longjmp(png, 1);
}

void cpng_on_warning(png_structp png, png_const_charp message) {
    cpng_report *report = (cpng_report *)png_get_error_ptr(png);
    if (report != NULL && message != NULL) {
        snprintf(report->warning, sizeof report->warning, "%s", message);
        // "Image width exceeds user limit in IHDR" (and height): an error follows.
        if (strstr(message, "exceeds user limit") != NULL) report->limit_exceeded = 1;
        // libpng names the chunk: a damaged zlib stream in the image data (a wrong Adler-32,
        // data past the image's end) is a warning it would let pass.
        if (strncmp(message, "IDAT", 4) == 0) report->image_data_damaged = 1;
    }
}

void cpng_note_damage(cpng_report *report, int damage, const char *message) {
    if (damage <= report->damage) return;
    report->damage = damage;
    snprintf(report->damage_message, sizeof report->damage_message, "%s", message);
}

void cpng_refuse_damaged_image_data(png_structp png, cpng_report *report) {
    if (report->image_data_damaged && report->fail_on < CPNG_FAIL_ON_WARNING) {
        cpng_note_damage(report, CPNG_DAMAGE_WARNING, report->warning);
        return;
    }
    if (report->image_data_damaged) {
        char text[CPNG_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "damaged image data (%s)", report->warning);
        report->warning[0] = '\0';  // said in the message already
        png_error(png, text);
    }
}

cpng_status cpng_failure_status(const cpng_report *report) {
    if (report->out_of_memory) return CPNG_OUT_OF_MEMORY;
    if (report->ran_out_of_data) return CPNG_TRUNCATED;
    if (report->limit_exceeded) return CPNG_LIMIT_EXCEEDED;
    return CPNG_CORRUPT;
}

void cpng_set_message(cpng_report *report, const char *message) {
    snprintf(report->message, sizeof report->message, "%s", message);
}

// MARK: - Memory

png_voidp cpng_malloc(png_structp png, png_alloc_size_t size) {
    void *pointer = malloc(size == 0 ? 1 : size);
    if (pointer == NULL) {
        cpng_report *report = (cpng_report *)png_get_mem_ptr(png);
        if (report != NULL) report->out_of_memory = 1;
    }
    return pointer;
}

void cpng_free(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}
