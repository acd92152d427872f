// The libgd API as Darkroom uses it. Imported by DarkroomGD only.
//
// Besides gd.h this exposes the two libtiff calls that silence libtiff's own stderr
// printing (libgd reads TIFF through libtiff but installs no handlers), and zlib's
// crc32 for checking PNG chunks before they reach libpng.
#ifndef DARKROOM_CGD_SHIM_H
#define DARKROOM_CGD_SHIM_H

#include <gd.h>
#include <tiffio.h>
#include <zlib.h>

// MARK: - Palette access
// The palette arrays are fixed-size C arrays in gdImage, which Swift sees as 256-element
// tuples; these return them as plain pointers.

static inline const int *darkroom_gd_palette_red(const gdImage *im) { return im->red; }
static inline const int *darkroom_gd_palette_green(const gdImage *im) { return im->green; }
static inline const int *darkroom_gd_palette_blue(const gdImage *im) { return im->blue; }
static inline const int *darkroom_gd_palette_alpha(const gdImage *im) { return im->alpha; }

#endif
