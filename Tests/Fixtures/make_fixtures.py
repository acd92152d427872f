#!/usr/bin/env python3
"""Regenerates Darkroom's test fixtures (needs numpy and ImageMagick's `convert`).

Every image fixture encodes a pattern computed from a formula, so tests can compare
decoded pixels against the formula (see Tests/DarkroomTestSupport/Pattern.swift):

    gradient:  R = 4x, G = 5y, B = 2(x+y), A = 255 - 4x      (64x48)
    blocks:    R = 32*(x//8), G = 40*(y//8), B = 128, A = 255 (64x48, 48 colours: exact in palettes)

Run from this folder: python3 make_fixtures.py
"""
import os
import struct
import subprocess
import zlib

import numpy as np

W, H = 64, 48
HERE = os.path.dirname(os.path.abspath(__file__))


def gradient(alpha=True):
    y, x = np.mgrid[0:H, 0:W]
    img = np.zeros((H, W, 4), np.uint8)
    img[..., 0] = 4 * x
    img[..., 1] = 5 * y
    img[..., 2] = 2 * (x + y)
    img[..., 3] = 255 - 4 * x if alpha else 255
    return img


def blocks():
    y, x = np.mgrid[0:H, 0:W]
    img = np.zeros((H, W, 4), np.uint8)
    img[..., 0] = 32 * (x // 8)
    img[..., 1] = 40 * (y // 8)
    img[..., 2] = 128
    img[..., 3] = 255
    return img


def write_pam(path, img):
    h, w, c = img.shape
    tupl = {1: "GRAYSCALE", 2: "GRAYSCALE_ALPHA", 3: "RGB", 4: "RGB_ALPHA"}[c]
    maxval = 65535 if img.dtype == np.uint16 else 255
    with open(path, "wb") as f:
        f.write(f"P7\nWIDTH {w}\nHEIGHT {h}\nDEPTH {c}\nMAXVAL {maxval}\nTUPLTYPE {tupl}\nENDHDR\n".encode())
        f.write(img.astype(">u2").tobytes() if maxval == 65535 else img.tobytes())


def im(src, dst, *args):
    subprocess.run(["convert", src, *args, dst], check=True)


def with_pam(img, dst, *args):
    tmp = os.path.join(HERE, "_tmp.pam")
    write_pam(tmp, img)
    try:
        im(tmp, dst, *args)
    finally:
        os.remove(tmp)


# MARK: - EXIF

def exif_app1(orientation):
    """A minimal big-endian EXIF block with IFD0 holding only the orientation tag."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8)
    tiff += struct.pack(">H", 1) + struct.pack(">HHIHH", 274, 3, 1, orientation, 0) + struct.pack(">I", 0)
    return b"Exif\x00\x00" + tiff


def insert_jpeg_exif(path, orientation):
    data = open(path, "rb").read()
    payload = exif_app1(orientation)
    segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    open(path, "wb").write(data[:2] + segment + data[2:])


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def insert_png_exif(path, orientation):
    data = open(path, "rb").read()
    ihdr_end = 8 + 25
    exif = exif_app1(orientation)[6:]  # PNG eXIf holds bare TIFF
    open(path, "wb").write(data[:ihdr_end] + png_chunk(b"eXIf", exif) + data[ihdr_end:])


def stored_for(upright, orientation):
    """The stored pixels that orientation `orientation` turns into `upright`."""
    u = upright
    return {
        1: u,
        2: u[:, ::-1],
        3: u[::-1, ::-1],
        4: u[::-1],
        5: u.transpose(1, 0, 2),
        6: np.rot90(u, k=1),   # display rotates 90 CW, so store rotated 90 CCW
        7: u[::-1, ::-1].transpose(1, 0, 2),
        8: np.rot90(u, k=-1),
    }[orientation].copy()


# MARK: - Bad inputs

def bomb_png(path, w, h):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 1024)
    data = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")
    open(path, "wb").write(data)


def bomb_gif(path, w, h):
    data = b"GIF89a" + struct.pack("<HHBBB", w, h, 0x80, 0, 0)       # screen, global table of 2
    data += b"\x00\x00\x00\xff\xff\xff"                                # palette
    data += b"," + struct.pack("<HHHHB", 0, 0, w, h, 0)                # image descriptor
    data += b"\x02\x02\x4c\x01\x00" + b";"                              # tiny LZW stream, trailer
    open(path, "wb").write(data)


# MARK: - Orientation from other places than EXIF (issue 30, item 3)

def png_without_exif(path):
    """The chunks of a PNG fixture, its eXIf chunk removed: (before IDAT, IDAT…, after)."""
    data = open(path, "rb").read()
    chunks, offset = [], 8
    while offset < len(data):
        length = struct.unpack(">I", data[offset:offset + 4])[0]
        chunks.append((data[offset + 4:offset + 8], data[offset:offset + 12 + length]))
        offset += 12 + length
    return [raw for kind, raw in chunks if kind != b"eXIf"]


def raw_profile_text(name, payload):
    """ImageMagick's raw-profile text: newline, name, length, then hex in lines of 72 digits."""
    digits = payload.hex()
    lines = "\n".join(digits[i:i + 72] for i in range(0, len(digits), 72))
    return f"\n{name}\n{len(payload):8d}\n{lines}\n".encode()


def xmp_packet(orientation, as_element):
    value = (f"<tiff:Orientation>{orientation}</tiff:Orientation>" if as_element
             else "")
    attribute = "" if as_element else f' tiff:Orientation="{orientation}"'
    return ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            f'<rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"{attribute}>{value}'
            '</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>').encode()


def make_orientation_source_fixtures():
    chunks = png_without_exif("orientation-6.png")
    before, after = chunks[:1], chunks[1:]          # after IHDR
    # ImageMagick's EXIF raw profile, zlib-compressed in zTXt, before the image data.
    text = raw_profile_text("exif", exif_app1(6))
    ztxt = png_chunk(b"zTXt", b"Raw profile type exif\x00\x00" + zlib.compress(text, 9))
    open("orientation-6-raw-profile.png", "wb").write(b"\x89PNG\r\n\x1a\n" + b"".join(before) + ztxt + b"".join(after))
    # XMP in a compressed iTXt chunk after the image data (before IEND).
    itxt = png_chunk(b"iTXt", b"XML:com.adobe.xmp\x00\x01\x00\x00\x00" + zlib.compress(xmp_packet(6, True), 9))
    open("orientation-6-xmp.png", "wb").write(b"\x89PNG\r\n\x1a\n" + b"".join(chunks[:-1]) + itxt + chunks[-1])
    # An AVIF whose only orientation is XMP's (avifenc turns an EXIF orientation into irot, not XMP's).
    open("_tmp.xmp", "wb").write(xmp_packet(6, False))
    try:
        subprocess.run(["avifenc", "--ignore-exif", "--xmp", "_tmp.xmp", "--min", "0", "--max", "10", "orientation-6.png", "orientation-6-xmp.avif"],
                       check=True, stdout=subprocess.DEVNULL)
    finally:
        os.remove("_tmp.xmp")
    # An AVIF as cameras and avifenc write it: an Exif item saying 6 and the same turn as irot.
    open("_tmp.exif", "wb").write(exif_app1(6)[6:])
    try:
        subprocess.run(["avifenc", "--exif", "_tmp.exif", "--min", "0", "--max", "10", "orientation-6.png", "orientation-6-exif-irot.avif"],
                       check=True, stdout=subprocess.DEVNULL)
    finally:
        os.remove("_tmp.exif")


def main():
    os.chdir(HERE)
    g, ga, b = gradient(alpha=False), gradient(alpha=True), blocks()

    # Lossless references.
    with_pam(g[..., :3], "gradient-rgb.png")
    with_pam(ga, "gradient-rgba.png")
    with_pam(ga.astype(np.uint16) * 257, "PNG64:gradient-rgba16.png")
    la = np.stack([ga[..., 0], 255 - ga[..., 1]], axis=-1)
    with_pam(la, "gradient-gray-alpha.png")
    with_pam(b[..., :3], "PNG8:blocks-palette.png")
    with_pam(b[..., :3], "blocks.gif")
    with_pam(ga, "gradient-lossless.webp", "-define", "webp:lossless=true")
    with_pam(g[..., :3], "gradient.tiff", "-compress", "lzw")
    with_pam(g[..., :3], "BMP3:gradient.bmp", "-type", "TrueColor")
    with_pam(g[..., :3], "gradient.tga")
    with_pam(ga, "gradient-rgba.tga")
    for name in ("gradient.tga", "gradient-rgba.tga"):
        # ImageMagick 6 stores the rows top-first but leaves the descriptor's origin bit at
        # bottom-left; set the top-left bit (0x20) so the header matches the data.
        data = bytearray(open(name, "rb").read())
        data[17] |= 0x20
        open(name, "wb").write(bytes(data))

    # Lossy.
    with_pam(g[..., :3], "gradient.jpg", "-quality", "95", "-sampling-factor", "1x1")
    with_pam(g[..., :3], "gradient-progressive.jpg", "-quality", "95", "-sampling-factor", "1x1", "-interlace", "JPEG")
    with_pam(g[..., :3], "gradient-lossy.webp", "-quality", "95")
    with_pam(g[..., :3], "gradient.avif", "-quality", "90")
    with_pam(g[..., :3], "gradient.heic", "-quality", "90")

    # EXIF orientation: stored pixels + tag that turn upright into the gradient.
    for o in range(1, 9):
        name = f"orientation-{o}.jpg"
        with_pam(stored_for(g, o)[..., :3], name, "-quality", "95", "-sampling-factor", "1x1", "-strip")
        insert_jpeg_exif(name, o)
    with_pam(stored_for(ga, 6), "orientation-6.png")
    insert_png_exif("orientation-6.png", 6)
    make_orientation_source_fixtures()
    # AVIF rotation and mirroring: Pillow (libavif) turns the EXIF orientation into the
    # item's irot/imir properties.
    from PIL import Image
    for o in range(1, 9):
        exif = Image.Exif()
        exif[0x0112] = o
        Image.fromarray(stored_for(g, o)[..., :3]).save(f"orientation-{o}.avif", quality=90, exif=exif.tobytes())

    # Animation (darkroom probe counts frames): three GIF frames, the last transparent, and
    # two lossless WebP frames, cut to the RIFF size (ImageMagick 6 leaves bytes after it).
    subprocess.run(["convert", "-size", "8x6", "xc:red", "-size", "8x6", "xc:blue", "-size", "8x6", "xc:none",
                    "-set", "delay", "10", "-loop", "0", "animated-3-frames.gif"], check=True)
    subprocess.run(["convert", "-size", "8x6", "xc:red", "-size", "8x6", "xc:blue", "-set", "delay", "10",
                    "-loop", "0", "-define", "webp:lossless=true", "animated-2-frames.webp"], check=True)
    # An AVIF image sequence (avis) of three flat grey 16×16 frames, from a Y4M (libavif-bin's avifenc).
    y4m = bytearray(b"YUV4MPEG2 W16 H16 F10:1 Ip A1:1 C420jpeg\n")
    for frame in range(3):
        y4m += b"FRAME\n" + bytes([60 + 60 * frame]) * 256 + bytes([128]) * 128
    open("_tmp.y4m", "wb").write(bytes(y4m))
    try:
        subprocess.run(["avifenc", "_tmp.y4m", "sequence-3-frames.avif"], check=True, stdout=subprocess.DEVNULL)
    finally:
        os.remove("_tmp.y4m")
    webp = open("animated-2-frames.webp", "rb").read()
    open("animated-2-frames.webp", "wb").write(webp[: int.from_bytes(webp[4:8], "little") + 8])

    # Bad inputs.
    open("empty.jpg", "wb").close()
    open("html.jpg", "w").write("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>"
                                "<body><h1>Not Found</h1></body></html>\n")
    jpeg = open("gradient.jpg", "rb").read()
    open("truncated.jpg", "wb").write(jpeg[: len(jpeg) // 2])
    rng = np.random.default_rng(20261121)
    open("scrambled.jpg", "wb").write(bytes([0x13, 0x37]) + rng.integers(0, 256, 4094, dtype=np.uint8).tobytes())
    bomb_png("bomb-40000.png", 40000, 40000)
    bomb_gif("bomb-65535.gif", 65535, 65535)


if __name__ == "__main__":
    main()
