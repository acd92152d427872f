// CJPEG error handling: libjpeg errors and damaging warnings become a status and a
// message in the handle, reached by longjmp back to the C function that called libjpeg.
#include <string.h>

#include <jerror.h>

#include "cjpeg_errors.h"

// MARK: - Classifying messages

/// Warnings that mean the pixels are damaged or missing: at the default fail-on level decoding
/// stops with an error, so a truncated or corrupt file never comes back as a half-grey image.
/// Tolerated (the image is intact): extraneous bytes between markers, an unknown Adobe
/// transform code, an unknown JFIF revision, a bad ICC marker, too many scanlines written.
static int is_damaging_warning(int code) {
    switch (code) {
    case JWRN_ADOBE_XFORM:
    case JWRN_EXTRANEOUS_DATA:
    case JWRN_JFIF_MAJOR:
    case JWRN_BOGUS_ICC:
    case JWRN_TOO_MUCH_DATA:
        return 0;
    default:
        return 1;
    }
}

static cjpeg_status status_for_code(int code) {
    switch (code) {
    case JERR_INPUT_EMPTY:
    case JERR_INPUT_EOF:
    case JWRN_JPEG_EOF:
        return CJPEG_TRUNCATED;
    case JERR_OUT_OF_MEMORY:
    case JERR_NO_BACKING_STORE:
        return CJPEG_OUT_OF_MEMORY;
    case JERR_ARITH_NOTIMPL:
    case JERR_NOT_COMPILED:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_BAD_PRECISION:
    case JERR_CCIR601_NOTIMPL:
    case JERR_SOF_UNSUPPORTED:  // lossless (SOF3) and hierarchical JPEG: valid, not supported
        return CJPEG_UNSUPPORTED;
    case JERR_BAD_STATE:
    case JERR_BAD_BUFFER_MODE:
    case JERR_BAD_STRUCT_SIZE:
    case JERR_BAD_LIB_VERSION:
        return CJPEG_MISUSE;
    default:
        return CJPEG_CORRUPT;
    }
}

// MARK: - Handlers

static _Noreturn void jump_with_current_message(j_common_ptr cinfo) {
    cjpeg_error_manager *manager = (cjpeg_error_manager *)cinfo->err;
    manager->status = status_for_code(manager->pub.msg_code);
    (*manager->pub.format_message)(cinfo, manager->message);
    longjmp(manager->jump, 1);
}

static void error_exit(j_common_ptr cinfo) {
    jump_with_current_message(cinfo);
}

void cjpeg_note_damage(cjpeg_error_manager *manager, int damage, const char *message) {
    if (damage <= manager->damage) return;
    manager->damage = damage;
    snprintf(manager->damage_message, sizeof manager->damage_message, "%s", message);
}

static void emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;  // trace messages: ignore
    cinfo->err->num_warnings++;
    int code = cinfo->err->msg_code;
    if (!is_damaging_warning(code)) return;
    cjpeg_error_manager *manager = (cjpeg_error_manager *)cinfo->err;
    // The memory source ends a short file with a fake EOI and this warning: truncation.
    int truncated = code == JWRN_JPEG_EOF;
    int stops = truncated ? manager->fail_on >= CJPEG_FAIL_ON_TRUNCATED : manager->fail_on >= CJPEG_FAIL_ON_WARNING;
    if (stops) jump_with_current_message(cinfo);
    char text[JMSG_LENGTH_MAX];
    (*manager->pub.format_message)(cinfo, text);
    cjpeg_note_damage(manager, truncated ? CJPEG_DAMAGE_TRUNCATED : CJPEG_DAMAGE_WARNING, text);
}

static void output_message(j_common_ptr cinfo) {
    (void)cinfo;  // never print
}

struct jpeg_error_mgr *cjpeg_error_manager_init(cjpeg_error_manager *manager) {
    struct jpeg_error_mgr *pub = jpeg_std_error(&manager->pub);
    pub->error_exit = error_exit;
    pub->emit_message = emit_message;
    pub->output_message = output_message;
    manager->status = CJPEG_OK;
    manager->message[0] = '\0';
    manager->fail_on = CJPEG_FAIL_ON_WARNING;
    manager->damage = CJPEG_DAMAGE_NONE;
    manager->damage_message[0] = '\0';
    return pub;
}

void cjpeg_fail(j_common_ptr cinfo, cjpeg_status status, const char *message) {
    cjpeg_error_manager *manager = (cjpeg_error_manager *)cinfo->err;
    manager->status = status;
    snprintf(manager->message, sizeof manager->message, "%s", message);
    longjmp(manager->jump, 1);
}
