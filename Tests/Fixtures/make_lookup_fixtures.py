#!/usr/bin/env python3
"""Regenerates the lookup-table profile fixtures (needs numpy and Pillow with littleCMS).

Each profile is written here from a small made-up model (no profile file is copied): a
subtractive ink model for CMYK, Adobe RGB primaries for RGB, a tinted gamma-1.8 ramp for grey.
The `*-expected.png` files are littleCMS's conversion of the same pixels to sRGB (Pillow's
ImageCms, perceptual intent, to an ICC v2 sRGB matrix profile): the reference Darkroom's
own conversion is tested against.

    lut-cmyk-mft2.jpg     CMYK (Adobe-inverted), mft2 A2B0, Lab connection space, ICC v2
    lut-cmyk-mab.jpg      CMYK (Adobe-inverted), mAB  A2B0 (A curves, 8-bit CLUT, M curves,
                          matrix, B curves), XYZ connection space, ICC v4
    lut-cmyk-plain.jpg    lut-cmyk-mft2.jpg without its Adobe segment: stored values are ink
    lut-rgb-mft1.png      RGB, mft1 A2B0 only (no colorants), Lab connection space
    lut-gray-mft2.png     grey, mft2 A2B0 only (no kTRC), Lab connection space
    lut-rgb-cmyk-tagged.jpg  an RGB JPEG tagged with the CMYK profile (the profile is ignored)
    lut-cmyk-rgb-tagged.jpg  a CMYK JPEG tagged with an RGB profile (ignored too)

Run from this folder: python3 make_lookup_fixtures.py
"""
import io
import os
import struct

import numpy as np
from PIL import Image, ImageCms

from make_icc_fixtures import ADOBE_RGB, D50, desc_tag, para_srgb, pattern, profile, rgb_profile, s15, xyz_tag

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 32, 24

# sRGB (D50-adapted colorants), for the reference's output profile and the models.
SRGB_COLORANTS = ((0.436066, 0.222488, 0.013916), (0.385147, 0.716873, 0.097076), (0.143066, 0.060608, 0.714096))
SRGB_V2 = rgb_profile("sRGB (ICC v2, matrix)", *SRGB_COLORANTS, para_srgb())
ADOBE_COLORANTS = ((0.60974, 0.31111, 0.01947), (0.20528, 0.62567, 0.06087), (0.14919, 0.06322, 0.74457))


# MARK: - Colour maths

def to_matrix(colorants):
    return np.array(colorants).T  # columns are the R, G, B colorants


def xyz_to_lab(xyz):
    def f(t):
        return np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    fx, fy, fz = (f(xyz[..., i] / D50[i]) for i in range(3))
    return np.stack([116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)], axis=-1)


def inks_to_linear_rgb(inks):
    """A subtractive model: each ink filters the paper's light by its own transmittance."""
    paper = np.array([0.95, 0.94, 0.90])
    colours = np.array([[0.10, 0.55, 0.90], [0.90, 0.12, 0.50], [0.97, 0.88, 0.08], [0.06, 0.06, 0.07]])
    light = np.broadcast_to(paper, inks.shape[:-1] + (3,)).copy()
    for ink in range(4):
        light *= 1 - inks[..., ink:ink + 1] * (1 - colours[ink])
    return light


# MARK: - Elements

def grid_inputs(points, channels):
    axes = np.meshgrid(*[np.linspace(0, 1, points)] * channels, indexing="ij")  # first input slowest
    return np.stack(axes, axis=-1).reshape(-1, channels)


def mft2(in_tables, points, clut, out_tables):
    """lut16Type: clut is (nodes, 3) of 0…65535."""
    head = b"mft2" + b"\0" * 4 + bytes([len(in_tables), 3, points, 0])
    head += b"".join(s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
    head += struct.pack(">HH", len(in_tables[0]), len(out_tables[0]))
    values = [v for table in in_tables for v in table] + list(clut.reshape(-1)) + [v for t in out_tables for v in t]
    return head + struct.pack(f">{len(values)}H", *[int(v) for v in values])


def mft1(in_tables, points, clut, out_tables):
    """lut8Type: tables of 256 bytes, clut (nodes, 3) of 0…255."""
    head = b"mft1" + b"\0" * 4 + bytes([len(in_tables), 3, points, 0])
    head += b"".join(s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
    values = [v for table in in_tables for v in table] + list(clut.reshape(-1)) + [v for t in out_tables for v in t]
    return head + bytes(int(v) for v in values)


def pad4(data):
    return data + b"\0" * (-len(data) % 4)


def curv_identity():
    return b"curv" + b"\0" * 4 + struct.pack(">I", 0)


def para_gamma(g):
    return pad4(b"para" + b"\0" * 4 + struct.pack(">HH", 0, 0) + s15(g))


def mab(a_curves, points, clut8, m_curves, matrix, offset, b_curves):
    """lutAtoBType with every stage; clut8 is (nodes, 3) of 0…255 (1-byte precision)."""
    elements, offsets, at = b"", [], 32
    def add(data):
        nonlocal elements, at
        start = at
        data = pad4(data)
        elements += data
        at += len(data)
        return start
    b_at = add(b"".join(pad4(c) for c in b_curves))
    matrix_at = add(b"".join(s15(v) for v in list(np.array(matrix).reshape(-1)) + list(offset)))
    m_at = add(b"".join(pad4(c) for c in m_curves))
    grid = bytes([points] * len(a_curves) + [0] * (16 - len(a_curves)))
    clut_at = add(grid + bytes([1, 0, 0, 0]) + bytes(int(v) for v in clut8.reshape(-1)))
    a_at = add(b"".join(pad4(c) for c in a_curves))
    head = b"mAB " + b"\0" * 4 + bytes([len(a_curves), 3, 0, 0])
    head += struct.pack(">5I", b_at, matrix_at, m_at, clut_at, a_at)
    return head + elements


def lookup_profile(space, pcs, name, a2b0, version=0x02100000):
    data = bytearray(profile(space, [("desc", desc_tag(name)), ("wtpt", xyz_tag(*D50)), ("A2B0", a2b0)]))
    data[8:12] = struct.pack(">I", version)
    data[20:24] = pcs.encode()
    return bytes(data)


# MARK: - Profiles

def cmyk_mft2():
    """Lab, 7 nodes per ink; input tables add dot gain (x^0.8); identity output tables."""
    inputs = grid_inputs(7, 4)
    xyz = inks_to_linear_rgb(inputs) @ to_matrix(SRGB_COLORANTS).T
    lab = xyz_to_lab(xyz)
    clut = np.stack([lab[:, 0] * 652.80, (lab[:, 1] + 128) * 256, (lab[:, 2] + 128) * 256], axis=-1)
    clut = np.clip(np.round(clut), 0, 65535)
    dot_gain = [int(round(65535 * (i / 255) ** 0.8)) for i in range(256)]
    identity = [0, 65535]
    return lookup_profile("CMYK", "Lab ", "Made-up CMYK (mft2, Lab)", mft2([dot_gain] * 4, 7, clut, [identity] * 3))


def cmyk_mab():
    """XYZ, v4: A curves gamma 1.25, a 7-node 8-bit CLUT of linear RGB, identity M curves,
    the sRGB→XYZ matrix scaled to the u1Fixed15 encoding, identity B curves."""
    inputs = grid_inputs(7, 4)
    clut = np.clip(np.round(inks_to_linear_rgb(inputs) * 255), 0, 255)
    matrix = to_matrix(SRGB_COLORANTS) * (32768 / 65535)
    return lookup_profile("CMYK", "XYZ ", "Made-up CMYK (mAB, XYZ)",
                          mab([para_gamma(1.25)] * 4, 7, clut, [curv_identity()] * 3, matrix, (0, 0, 0),
                              [curv_identity()] * 3), version=0x04200000)


def rgb_mft1():
    """Lab, 9 nodes: Adobe RGB primaries with gamma 2.2, no colorant tags."""
    inputs = grid_inputs(9, 3)
    xyz = (inputs ** 2.2) @ to_matrix(ADOBE_COLORANTS).T
    lab = xyz_to_lab(xyz)
    clut = np.clip(np.round(np.stack([lab[:, 0] * 2.55, lab[:, 1] + 128, lab[:, 2] + 128], axis=-1)), 0, 255)
    identity = list(range(256))
    return lookup_profile("RGB ", "Lab ", "Made-up RGB (mft1, Lab)", mft1([identity] * 3, 9, clut, [identity] * 3))


def gray_mft2():
    """Lab, 33 nodes: L* of a gamma-1.8 ramp, warmed towards yellow in the mid-tones."""
    g = np.linspace(0, 1, 33)
    lab = xyz_to_lab(np.stack([g ** 1.8 * D50[0], g ** 1.8, g ** 1.8 * D50[2]], axis=-1))
    lab[:, 2] += 24 * g * (1 - g)
    clut = np.clip(np.round(np.stack([lab[:, 0] * 652.80, (lab[:, 1] + 128) * 256, (lab[:, 2] + 128) * 256], -1)),
                   0, 65535)
    identity = [0, 65535]
    return lookup_profile("GRAY", "Lab ", "Made-up grey (mft2, Lab)", mft2([identity], 33, clut, [identity] * 3))


# MARK: - Patterns and references

def cmyk_pattern():
    y, x = np.mgrid[0:H, 0:W]
    inks = np.zeros((H, W, 4), dtype=np.uint8)
    inks[..., 0] = x * 255 // (W - 1)
    inks[..., 1] = y * 255 // (H - 1)
    inks[..., 2] = ((W - 1 - x) * 8) % 256
    inks[..., 3] = ((x // 4 + y // 4) % 4) * 60
    for i, patch in enumerate([[255, 0, 0, 0], [0, 255, 0, 0], [0, 0, 255, 0], [0, 0, 0, 255],
                               [0, 0, 0, 0], [255, 255, 255, 255], [40, 30, 30, 0], [128, 128, 128, 128]]):
        inks[:4, 4 * i:4 * i + 4] = patch
    return Image.fromarray(inks, "CMYK")


def to_srgb(image, icc):
    source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    output = ImageCms.ImageCmsProfile(io.BytesIO(SRGB_V2))
    return ImageCms.profileToProfile(image, source, output, renderingIntent=ImageCms.Intent.PERCEPTUAL,
                                     outputMode="RGB")


def without_adobe_segment(jpeg):
    at = jpeg.index(b"\xff\xee")
    length = struct.unpack(">H", jpeg[at + 2:at + 4])[0]
    return jpeg[:at] + jpeg[at + 2 + length:]


def main():
    os.chdir(HERE)
    inks = cmyk_pattern()
    for name, icc in [("lut-cmyk-mft2", cmyk_mft2()), ("lut-cmyk-mab", cmyk_mab())]:
        inks.save(f"{name}.jpg", quality=100, icc_profile=icc)
        stored = Image.open(f"{name}.jpg")  # the values as decoded, so the reference sees JPEG's rounding
        stored.load()
        to_srgb(stored, icc).save(f"{name}-expected.png")

    # Without the Adobe segment a reader takes the stored (inverted) values as ink amounts.
    icc = cmyk_mft2()
    with open("lut-cmyk-mft2.jpg", "rb") as source:
        plain = without_adobe_segment(source.read())
    with open("lut-cmyk-plain.jpg", "wb") as out:
        out.write(plain)
    stored = Image.open("lut-cmyk-mft2.jpg")
    stored.load()
    inverted = Image.fromarray(255 - np.asarray(stored), "CMYK")
    to_srgb(inverted, icc).save("lut-cmyk-plain-expected.png")

    rgb = pattern()  # the RGB pattern of make_icc_fixtures.py
    icc = rgb_mft1()
    rgb.save("lut-rgb-mft1.png", icc_profile=icc)
    to_srgb(rgb, icc).save("lut-rgb-mft1-expected.png")

    grey = rgb.convert("L")
    icc = gray_mft2()
    grey.save("lut-gray-mft2.png", icc_profile=icc)
    to_srgb(grey, icc).save("lut-gray-mft2-expected.png")

    rgb.save("lut-rgb-cmyk-tagged.jpg", quality=95, icc_profile=cmyk_mft2())
    inks.save("lut-cmyk-rgb-tagged.jpg", quality=95, icc_profile=ADOBE_RGB)


if __name__ == "__main__":
    main()
