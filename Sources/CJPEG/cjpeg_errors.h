// Private to CJPEG: the error manager every libjpeg object in this target uses.
#ifndef DARKROOM_CJPEG_ERRORS_H
#define DARKROOM_CJPEG_ERRORS_H

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

#include "CJPEG.h"

/// libjpeg's error manager plus where to jump and what went wrong. The caller sets up
/// `jump` with setjmp before every libjpeg call; errors (and warnings that mean damaged
/// data) format their message, pick a status and longjmp there. Nothing is printed.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    cjpeg_status status;
    char message[CJPEG_MESSAGE_CAPACITY];
    /// The damage level that stops decoding (cjpeg_fail_on); CJPEG_FAIL_ON_WARNING by default.
    int fail_on;
    /// The worst damage let through so far (cjpeg_damage) and its message.
    int damage;
    char damage_message[CJPEG_MESSAGE_CAPACITY];
} cjpeg_error_manager;

/// Installs the silent, jumping handlers into `manager` and returns libjpeg's part of it.
struct jpeg_error_mgr *cjpeg_error_manager_init(cjpeg_error_manager *manager);

/// Records damage the fail-on level let through: keeps the worst kind, and the first message
/// of that kind.
void cjpeg_note_damage(cjpeg_error_manager *manager, int damage, const char *message);

/// Records `status` and `message` and longjmps to the manager's `jump`.
/// For failures this wall detects itself (too many scans, allocation failure).
_Noreturn void cjpeg_fail(j_common_ptr cinfo, cjpeg_status status, const char *message);

#endif
