#!/usr/bin/env python3
"""Regenerates the colour-profile fixtures (needs numpy and Pillow with littleCMS, AVIF and WebP).

The pattern is a 32x24 image of saturated and neutral colours; each `icc-*` file embeds an ICC
profile written here from its published primaries (no profile file is copied). The
`*-expected.png` files are littleCMS's conversion of the same pixels to sRGB (Pillow's ImageCms,
relative colorimetric), untagged: the reference Darkroom's own conversion is tested against.

    icc-adobe-rgb.{png,jpg,webp,avif,tiff}   Adobe RGB (1998) primaries, curv gamma 563/256
    icc-display-p3.png                  Display P3 primaries, para type 3 (the sRGB curve)
    icc-gray-gamma18.png                greyscale, GRAY profile, curv gamma 1.8
    icc-srgb.jpg                        littleCMS's own sRGB profile (must change nothing)
    icc-split.jpg                       Adobe RGB split over two APP2 segments, stored 2 then 1
    icc-damaged.jpg                     a profile cut short (ignored: decodes as sRGB)
    nclx-display-p3.avif                no profile; nclx primaries 12 (Display P3), transfer 13
    nclx-pq.avif                        no profile; nclx primaries 9, transfer 16 (PQ: not converted)

Run from this folder: python3 make_icc_fixtures.py
"""
import io
import os
import struct

import numpy as np
from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 32, 24


# MARK: - Profiles

def s15(value):
    return struct.pack(">i", int(round(value * 65536)))


def xyz_tag(x, y, z):
    return b"XYZ " + b"\0" * 4 + s15(x) + s15(y) + s15(z)


def desc_tag(text):
    ascii_ = text.encode() + b"\0"
    return b"desc" + b"\0" * 4 + struct.pack(">I", len(ascii_)) + ascii_ + b"\0" * (4 + 4 + 2 + 1 + 67)


def curv_gamma(gamma):
    return b"curv" + b"\0" * 4 + struct.pack(">IH", 1, int(round(gamma * 256))) + b"\0\0"


def para_srgb():
    params = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
    return b"para" + b"\0" * 4 + struct.pack(">HH", 3, 0) + b"".join(s15(p) for p in params)


def profile(space, tags):
    """An ICC v2.1 display profile from (signature, element bytes) pairs."""
    table, data = [], b""
    offset = 128 + 4 + 12 * len(tags)
    for signature, element in tags:
        while (offset + len(data)) % 4:
            data += b"\0"
        table.append((signature, offset + len(data), len(element)))
        data += element
    body = struct.pack(">I", len(tags)) + b"".join(struct.pack(">4sII", s.encode(), o, n) for s, o, n in table) + data
    size = 128 + len(body)
    header = struct.pack(">I4sI4s4s4s", size, b"none", 0x02100000, b"mntr", space.encode(), b"XYZ ")
    header += b"\0" * 12 + b"acsp" + b"\0" * (68 - 40) + s15(0.9642) + s15(1.0) + s15(0.8249)
    header += b"\0" * (128 - len(header))
    return header + body


D50 = (0.9642, 1.0, 0.8249)


def rgb_profile(name, red, green, blue, curve):
    return profile("RGB ", [("desc", desc_tag(name)), ("wtpt", xyz_tag(*D50)), ("rXYZ", xyz_tag(*red)),
                            ("gXYZ", xyz_tag(*green)), ("bXYZ", xyz_tag(*blue)),
                            ("rTRC", curve), ("gTRC", curve), ("bTRC", curve)])


ADOBE_RGB = rgb_profile("Adobe RGB (1998) primaries", (0.60974, 0.31111, 0.01947),
                        (0.20528, 0.62567, 0.06087), (0.14919, 0.06322, 0.74457), curv_gamma(563 / 256))
DISPLAY_P3 = rgb_profile("Display P3 primaries", (0.51512, 0.24120, -0.00105),
                         (0.29198, 0.69225, 0.04189), (0.15710, 0.06657, 0.78407), para_srgb())
GRAY_18 = profile("GRAY", [("desc", desc_tag("Gray gamma 1.8")), ("wtpt", xyz_tag(*D50)),
                           ("kTRC", curv_gamma(1.8))])
SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


# MARK: - Pattern and references

def pattern():
    y, x = np.mgrid[0:H, 0:W]
    rgb = np.zeros((H, W, 3), dtype=np.uint8)
    rgb[..., 0] = (x * 255 // (W - 1))
    rgb[..., 1] = (y * 255 // (H - 1))
    rgb[..., 2] = ((W - 1 - x) * 8) % 256
    rgb[:4, :8] = [255, 0, 0]
    rgb[:4, 8:16] = [0, 255, 0]
    rgb[:4, 16:24] = [0, 0, 255]
    rgb[:4, 24:] = [128, 128, 128]
    return Image.fromarray(rgb, "RGB")


def to_srgb(image, icc):
    source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    return ImageCms.profileToProfile(image, source, ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")),
                                     renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode="RGB")


def jpeg_with_segments(jpeg, segments):
    """`jpeg` with `segments` (marker payloads for APP2) inserted after SOI."""
    inserted = b"".join(b"\xff\xe2" + struct.pack(">H", len(s) + 2) + s for s in segments)
    return jpeg[:2] + inserted + jpeg[2:]


def avif_with_nclx(rgb, path, primaries, transfer):
    """An AVIF of `rgb` whose nclx box (Pillow writes 1/13/6) says `primaries`/`transfer`."""
    encoded = io.BytesIO()
    rgb.save(encoded, "AVIF", quality=90)
    data = bytearray(encoded.getvalue())
    at = data.index(b"colrnclx") + 8
    data[at:at + 4] = struct.pack(">HH", primaries, transfer)
    with open(path, "wb") as out:
        out.write(bytes(data))


def main():
    os.chdir(HERE)
    rgb = pattern()
    rgb.save("icc-adobe-rgb.png", icc_profile=ADOBE_RGB)
    to_srgb(rgb, ADOBE_RGB).save("icc-adobe-rgb-expected.png")
    rgb.save("icc-display-p3.png", icc_profile=DISPLAY_P3)
    to_srgb(rgb, DISPLAY_P3).save("icc-display-p3-expected.png")
    grey = rgb.convert("L")
    grey.save("icc-gray-gamma18.png", icc_profile=GRAY_18)
    source = ImageCms.ImageCmsProfile(io.BytesIO(GRAY_18))
    ImageCms.profileToProfile(grey, source, ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")),
                              renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                              outputMode="RGB").save("icc-gray-gamma18-expected.png")

    rgb.save("icc-adobe-rgb.jpg", quality=95, icc_profile=ADOBE_RGB)
    rgb.save("icc-adobe-rgb.webp", lossless=True, icc_profile=ADOBE_RGB)
    rgb.save("icc-adobe-rgb.avif", quality=90, icc_profile=ADOBE_RGB)
    rgb.save("icc-adobe-rgb.tiff", icc_profile=ADOBE_RGB)
    avif_with_nclx(rgb, "nclx-display-p3.avif", 12, 13)
    avif_with_nclx(rgb, "nclx-pq.avif", 9, 16)
    rgb.save("icc-srgb.jpg", quality=95, icc_profile=SRGB)

    plain = io.BytesIO()
    rgb.save(plain, "JPEG", quality=95)
    half = len(ADOBE_RGB) // 2
    first = b"ICC_PROFILE\0" + bytes([1, 2]) + ADOBE_RGB[:half]
    second = b"ICC_PROFILE\0" + bytes([2, 2]) + ADOBE_RGB[half:]
    with open("icc-split.jpg", "wb") as out:
        out.write(jpeg_with_segments(plain.getvalue(), [second, first]))
    cut = b"ICC_PROFILE\0" + bytes([1, 1]) + ADOBE_RGB[:100]
    with open("icc-damaged.jpg", "wb") as out:
        out.write(jpeg_with_segments(plain.getvalue(), [cut]))


if __name__ == "__main__":
    main()
