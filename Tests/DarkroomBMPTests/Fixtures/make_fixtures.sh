#!/bin/sh
# Regenerates the BMP fixtures: 7×5 images (odd width, so rows are padded) written by
# ImageMagick 6.9 and Pillow 13 from the formula in BMPFixtureTests.swift (ImageMagick 6
# cannot write V4 headers or palette depths from a formula: BMPWriter.swift makes those):
#   R = 36x, G = 60y, B = 255 − 20(x+y), A = min(255, 20(x + 2y))   (opaque: A = 255)
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import sys
from PIL import Image
tmp = sys.argv[1]
rgba = Image.new("RGBA", (7, 5))
for y in range(5):
    for x in range(7):
        rgba.putpixel((x, y), (36 * x, 60 * y, 255 - 20 * (x + y), min(255, 20 * (x + 2 * y))))
rgba.save(f"{tmp}/rgba.png")
rgba.convert("RGB").save(f"{tmp}/rgb.png")
rgba.save("pillow-rgba32.bmp")          # 32-bit BI_RGB, alpha in the fourth byte
rgba.convert("RGB").save("pillow-rgb24.bmp")
PY
convert "$tmp/rgba.png" BMP:imagemagick-v5-rgba.bmp                          # V5, BI_BITFIELDS with an alpha mask
convert "$tmp/rgb.png" -define bmp:subtype=RGB565 BMP:imagemagick-rgb565.bmp
convert "$tmp/rgb.png" -define bmp:subtype=RGB555 BMP:imagemagick-rgb555.bmp
convert "$tmp/rgba.png" -define bmp:subtype=ARGB4444 BMP:imagemagick-argb4444.bmp
convert "$tmp/rgb.png" -type Palette -compress RLE BMP3:imagemagick-rle8.bmp  # 35 colours, exact
convert "$tmp/rgb.png" BMP2:imagemagick-os2-rgb24.bmp                         # BITMAPCOREHEADER
