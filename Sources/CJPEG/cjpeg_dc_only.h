// Private to CJPEG: the DC-only reader for progressive JPEGs decoded at 1/8.
#ifndef DARKROOM_CJPEG_DC_ONLY_H
#define DARKROOM_CJPEG_DC_ONLY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>  // jpeglib.h needs FILE

#include <jpeglib.h>

/// Whether `cinfo` (header read, scale set to 1/8) describes a file the DC-only reader
/// handles: progressive Huffman, 8-bit, YCbCr or greyscale, every component at full
/// resolution or half of it on either axis (4:4:4, 4:2:2, 4:2:0, 4:4:0).
int cjpeg_dc_only_applies(j_decompress_ptr cinfo);

/// Decodes the 1/8-scale image of the progressive JPEG in `data` from its DC scans alone
/// (first and refinement scans, so the DC coefficients are exact) and skips the entropy
/// data of every AC scan without decoding it. Writes opaque RGBA rows of `stride` bytes.
///
/// Luma, and any component at full resolution, is exactly libjpeg-turbo's own 1/8 decode of
/// the whole file (1×1 IDCT); so is the output of a 4:4:4 file. A subsampled chroma
/// component has one DC value per 2 (or 2×2) output pixels, which is upsampled with
/// libjpeg's triangle ("fancy") weights; libjpeg instead runs a 2×2 IDCT on the chroma
/// blocks, using their first AC coefficients, so chroma differs slightly (about 38 dB PSNR
/// against libjpeg's 1/8 on a colourful photo; thumbnails shrink further anyway). Needs no
/// whole-image coefficient buffer, which is what makes a large progressive file cheap:
/// libjpeg allocates and zeroes 2 bytes per pixel and component.
///
/// Returns 1 on success, 0 when anything is unexpected or damaged (the caller then falls
/// back to libjpeg, which reports the problem properly). Never prints, never longjmps.
int cjpeg_dc_only_decode(j_decompress_ptr cinfo, const uint8_t *data, size_t size,
                         uint8_t *pixels, size_t stride, int max_scans);

#endif
