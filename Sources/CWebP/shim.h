// The libwebp API as Darkroom uses it. Imported by DarkroomWebP only.
// decode.h/encode.h: still images; demux.h: WebPAnimDecoder (animations' frames);
// mux.h: WebPAnimEncoder (writing animations).
#ifndef DARKROOM_CWEBP_SHIM_H
#define DARKROOM_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
#endif
