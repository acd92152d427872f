// The libwebp API as Darkroom uses it. Imported by DarkroomWebP only.
#ifndef DARKROOM_CWEBP_SHIM_H
#define DARKROOM_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#endif
