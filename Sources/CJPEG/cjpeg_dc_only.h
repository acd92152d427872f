// Private to CJPEG: the DC-only reader for progressive JPEGs decoded at 1/8.
#ifndef DARKROOM_CJPEG_DC_ONLY_H
#define DARKROOM_CJPEG_DC_ONLY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>  // jpeglib.h needs FILE

#include <jpeglib.h>

/// Whether `cinfo` (header read, scale set to 1/8) describes a file the DC-only reader
/// handles: progressive Huffman, 8-bit, YCbCr or greyscale, every component at full
/// resolution or at half of it horizontally (4:4:4, 4:2:2). 4:2:0 is left to libjpeg, whose
/// 1/8 reads the chroma's first AC coefficients (a 2×2 IDCT) and is several dB better there.
int cjpeg_dc_only_applies(j_decompress_ptr cinfo);

/// Decodes the 1/8-scale image of the progressive JPEG in `data` from its DC scans alone
/// (first and refinement scans, so the DC coefficients are exact) and skips the entropy
/// data of every AC scan without decoding it. Writes opaque RGBA rows of `stride` bytes.
///
/// Luma, and every component at full resolution, is exactly libjpeg-turbo's own 1/8 decode
/// of the whole file (1×1 IDCT); so is the whole output of a 4:4:4 file. 4:2:2 chroma has
/// one DC value per 2 output pixels, as in libjpeg's 1/8, which repeats it; here it is
/// upsampled with triangle weights instead (0.1–1.3 dB closer to the full image shrunk by 8).
/// Needs no whole-image coefficient buffer, which is what makes a large progressive file
/// cheap: libjpeg allocates and zeroes 2 bytes per pixel and component.
///
/// Returns 1 on success, 0 when anything is unexpected or damaged (the caller then falls
/// back to libjpeg, which reports the problem properly). Never prints, never longjmps.
int cjpeg_dc_only_decode(j_decompress_ptr cinfo, const uint8_t *data, size_t size,
                         uint8_t *pixels, size_t stride, int max_scans);

#endif
