#!/usr/bin/env python3
"""Mutation-fuzz sweep of the darkroom CLI: mutate seed images, run them, classify the outcomes.

See README.md beside this file. Standard library only; needs `prlimit` (util-linux).
"""
import argparse, concurrent.futures as cf, json, os, random, re, shutil, signal, subprocess, sys, tempfile, time, zlib
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXT = {"jpeg": "jpg", "png": "png", "gif": "gif", "webp": "webp", "avif": "avif", "heic": "heic",
       "tiff": "tiff", "bmp": "bmp", "tga": "tga"}

# MARK: - Seeds

def sniff(d, name=""):
    """The format of `d` from its bytes (TGA, which has no magic, also from its name), or None."""
    if d[:3] == b"\xff\xd8\xff": return "jpeg"
    if d[:8] == b"\x89PNG\r\n\x1a\n": return "png"
    if d[:6] in (b"GIF87a", b"GIF89a"): return "gif"
    if d[:4] == b"RIFF" and d[8:12] == b"WEBP": return "webp"
    if d[4:8] == b"ftyp":
        brands = [d[i:i + 4] for i in range(8, min(int.from_bytes(d[:4], "big"), len(d), 64), 4)]
        if d[8:12] in (b"avif", b"avis") or b"avif" in brands: return "avif"
        if set(brands) & {b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1"}: return "heic"
    if d[:4] in (b"II*\0", b"MM\0*"): return "tiff"
    if d[:2] == b"BM" and len(d) > 26: return "bmp"
    if name.lower().endswith(".tga") and len(d) > 18 and d[1] in (0, 1) and d[2] in (1, 2, 3, 9, 10, 11): return "tga"
    return None

def load_seeds(dirs):
    seeds = defaultdict(list)
    for folder in dirs:
        for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
            data = path.read_bytes()
            fmt = sniff(data, path.name)
            if fmt: seeds[fmt].append((str(path), data, fields_of(fmt, data)))
    return dict(sorted(seeds.items()))

# MARK: - Structure: fields (offset, width, endian, label[, crc chunk]) that a parser trusts

def fields_of(fmt, d):
    f = []
    def add(off, w, e, label, crc=None):
        if 0 <= off and off + w <= len(d) and w > 0: f.append((off, w, e, label, crc))
    try:
        PARSERS[fmt](d, add)
    except (IndexError, ValueError, KeyError):
        pass  # a partial list is still useful
    return f

def u(d, off, w, e="big"):
    if off < 0 or off + w > len(d): raise IndexError(off)
    return int.from_bytes(d[off:off + w], e)

def fixed(add, base, e, pre, *spec, crc=None):
    for o, w, name in spec: add(base + o, w, e, pre + name, crc)

def icc_fields(d, base, pre, add):
    """An ICC profile's size, tag table and the counts inside LUT and curve tags."""
    add(base, 4, "big", pre + "size"); add(base + 128, 4, "big", pre + "tagcount")
    for k in range(min(u(d, base + 128, 4), 32)):
        q = base + 132 + 12 * k
        sig = d[q:q + 4].decode("latin1"); off = u(d, q + 4, 4)
        add(q + 4, 4, "big", f"{pre}{sig}.offset"); add(q + 8, 4, "big", f"{pre}{sig}.size")
        t, r = d[base + off:base + off + 4], base + off
        lut = f"{pre}{sig}.{t.decode('latin1').strip()}."
        if t in (b"mft1", b"mft2"):
            fixed(add, r, "big", lut, (8, 1, "in"), (9, 1, "out"), (10, 1, "grid"), (48, 2, "inentries"),
                  (50, 2, "outentries"))
        elif t in (b"mAB ", b"mBA "):
            fixed(add, r, "big", lut, (8, 1, "in"), (9, 1, "out"), (12, 4, "B"), (16, 4, "matrix"), (20, 4, "M"),
                  (24, 4, "clut"), (28, 4, "A"))
            if u(d, r + 24, 4): fixed(add, r + u(d, r + 24, 4), "big", lut, (0, 1, "clut.grid0"), (16, 1, "clut.precision"))
        elif t in (b"curv", b"para"):
            add(r + 8, 4 if t == b"curv" else 2, "big", f"{pre}{sig}.{t.decode()}.count")

TIFF_TAGS = {256: "ImageWidth", 257: "ImageLength", 258: "BitsPerSample", 259: "Compression", 262: "Photometric",
             273: "StripOffsets", 274: "Orientation", 277: "SamplesPerPixel", 278: "RowsPerStrip", 279: "StripByteCounts",
             284: "PlanarConfig", 317: "Predictor", 320: "ColorMap", 322: "TileWidth", 323: "TileLength", 324: "TileOffsets",
             325: "TileByteCounts", 338: "ExtraSamples", 339: "SampleFormat", 330: "SubIFDs", 34665: "ExifIFD", 34675: "ICC"}
TIFF_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4}

def tiff_fields(d, add, base=0, pre=""):
    e = "little" if d[base:base + 2] == b"II" else "big"
    add(base + 4, 4, e, pre + "IFD0.offset")
    todo, seen = [(u(d, base + 4, 4, e), "IFD0")], set()
    while todo and len(seen) < 8:
        off, name = todo.pop(0)
        if off in seen or base + off + 2 > len(d): continue
        seen.add(off); p = base + off; n = u(d, p, 2, e)
        add(p, 2, e, f"{pre}{name}.entries")
        for k in range(min(n, 64)):
            q = p + 2 + 12 * k
            tag, typ, cnt = u(d, q, 2, e), u(d, q + 2, 2, e), u(d, q + 4, 4, e)
            tn, size = TIFF_TAGS.get(tag, str(tag)), TIFF_SIZES.get(typ, 1)
            add(q + 4, 4, e, f"{pre}{name}.{tn}.count")
            if size * cnt <= 4:
                add(q + 8, size if typ in (3, 4, 8, 9) else 4, e, f"{pre}{name}.{tn}.value")
                value = u(d, q + 8, size if typ in (3, 4) else 4, e)
            else:
                value = u(d, q + 8, 4, e)
                add(q + 8, 4, e, f"{pre}{name}.{tn}.offset")
                if typ in (3, 4) and tag in (273, 279, 324, 325, 258):
                    for j in range(min(cnt, 16)): add(base + value + j * size, size, e, f"{pre}{name}.{tn}[{j}]")
                if tag == 34675: icc_fields(d, base + value, f"{pre}ICC.", add)
            if tag in (34665, 330): todo.append((value, tn))
        nxt = p + 2 + 12 * n
        add(nxt, 4, e, f"{pre}{name}.next")
        if u(d, nxt, 4, e): todo.append((u(d, nxt, 4, e), name + "+"))

def png_fields(d, add):
    p = 8
    while p + 12 <= len(d):
        n, t = u(d, p, 4), d[p + 4:p + 8].decode("latin1")
        crc = (p + 4, p + 8 + n)  # type+data, CRC after it: recomputed after a data field changes
        add(p, 4, "big", f"{t}.length")
        if t == "IHDR":
            fixed(add, p + 8, "big", "IHDR.", (0, 4, "width"), (4, 4, "height"), (8, 1, "bitdepth"), (9, 1, "colortype"),
                  (12, 1, "interlace"), crc=crc)
        elif t == "acTL": add(p + 8, 4, "big", "acTL.frames", crc)
        elif t == "fcTL":
            fixed(add, p + 8, "big", "fcTL.", (4, 4, "width"), (8, 4, "height"), (12, 4, "x"), (16, 4, "y"), crc=crc)
        p += 12 + n

def jpeg_fields(d, add):
    p = 2
    while p + 4 <= len(d) and d[p] == 0xFF:
        m = d[p + 1]
        if m == 0xFF or m == 0xD8 or m == 0x01 or 0xD0 <= m <= 0xD7: p += 1 if m == 0xFF else 2; continue
        if m == 0xD9: break
        n = u(d, p + 2, 2); add(p + 2, 2, "big", f"FF{m:02X}.length")
        if 0xC0 <= m <= 0xCF and m not in (0xC4, 0xC8, 0xCC):
            fixed(add, p, "big", f"SOF{m - 0xC0}.", (4, 1, "precision"), (5, 2, "height"), (7, 2, "width"),
                  (9, 1, "components"))
            for c in range(min(d[p + 9], 4)):
                add(p + 11 + 3 * c, 1, "big", f"SOF.comp{c}.sampling"); add(p + 12 + 3 * c, 1, "big", f"SOF.comp{c}.qtable")
        elif m == 0xDD: add(p + 4, 2, "big", "DRI.interval")
        elif m == 0xE1 and d[p + 4:p + 10] == b"Exif\0\0": tiff_fields(d, add, p + 10, "EXIF.")
        elif m == 0xE2 and d[p + 4:p + 16] == b"ICC_PROFILE\0" and d[p + 16] == 1: icc_fields(d, p + 18, "ICC.", add)
        elif m == 0xDA:
            add(p + 4, 1, "big", "SOS.components")
            q = p + 2 + n  # skip the entropy-coded data to the next real marker
            while q + 1 < len(d) and not (d[q] == 0xFF and d[q + 1] != 0 and not 0xD0 <= d[q + 1] <= 0xD7): q += 1
            p = q; continue
        p += 2 + n

def gif_fields(d, add):
    fixed(add, 0, "little", "screen.", (6, 2, "width"), (8, 2, "height"), (10, 1, "packed"))
    p, frame = 13 + (3 * (2 << (d[10] & 7)) if d[10] & 0x80 else 0), 0
    def blocks(p, label):
        k = 0
        while d[p]:
            if k < 6: add(p, 1, "little", f"{label}.block{k}")
            p, k = p + 1 + d[p], k + 1
        return p + 1
    while p < len(d) and frame < 8:
        if d[p] == 0x21: p = blocks(p + 2, f"ext{d[p + 1]:02X}")
        elif d[p] == 0x2C:
            fixed(add, p, "little", f"frame{frame}.", (1, 2, "left"), (3, 2, "top"), (5, 2, "width"), (7, 2, "height"),
                  (9, 1, "packed"))
            pk = d[p + 9]; p += 10 + (3 * (2 << (pk & 7)) if pk & 0x80 else 0)
            add(p, 1, "little", f"frame{frame}.lzwsize"); p = blocks(p + 1, f"frame{frame}"); frame += 1
        else: break

def webp_fields(d, add):
    add(4, 4, "little", "RIFF.size")
    def walk(p, end, pre):
        while p + 8 <= end:
            t, n, q = d[p:p + 4].decode("latin1"), u(d, p + 4, 4, "little"), p + 8
            add(p + 4, 4, "little", f"{pre}{t}.size")
            if t == "VP8X": fixed(add, q, "little", "VP8X.", (0, 1, "flags"), (4, 3, "width-1"), (7, 3, "height-1"))
            elif t == "VP8 ": fixed(add, q, "little", pre + "VP8.", (0, 3, "frametag"), (6, 2, "width"), (8, 2, "height"))
            elif t == "VP8L": add(q + 1, 4, "little", f"{pre}VP8L.size-bits")
            elif t == "ICCP": icc_fields(d, q, "ICCP.", add)
            elif t == "ANMF":
                fixed(add, q, "little", "ANMF.", (6, 3, "width-1"), (9, 3, "height-1"))
                walk(q + 16, q + n, "ANMF/")
            p = q + n + (n & 1)
    walk(12, len(d), "")

def bmp_fields(d, add):
    fixed(add, 0, "little", "", (2, 4, "filesize"), (10, 4, "pixeloffset"), (14, 4, "dibsize"))
    if u(d, 14, 4, "little") == 12:  # OS/2 core header: 16-bit sizes
        return fixed(add, 0, "little", "", (18, 2, "width"), (20, 2, "height"), (22, 2, "planes"), (24, 2, "bpp"))
    fixed(add, 0, "little", "", (18, 4, "width"), (22, 4, "height"), (26, 2, "planes"), (28, 2, "bpp"),
          (30, 4, "compression"), (34, 4, "imagesize"), (46, 4, "colorsused"), (54, 4, "redmask"), (58, 4, "greenmask"),
          (62, 4, "bluemask"), (66, 4, "alphamask"))

def tga_fields(d, add):
    fixed(add, 0, "little", "", (0, 1, "idlength"), (1, 1, "cmaptype"), (2, 1, "imagetype"), (3, 2, "cmapfirst"),
          (5, 2, "cmaplength"), (7, 1, "cmapentrysize"), (8, 2, "x"), (10, 2, "y"), (12, 2, "width"), (14, 2, "height"),
          (16, 1, "depth"), (17, 1, "descriptor"))
    if d[-18:-2] == b"TRUEVISION-XFILE": fixed(add, len(d) - 26, "little", "", (0, 4, "ext.offset"), (4, 4, "dev.offset"))

BOX_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"dinf", b"edts", b"iprp", b"ipco", b"udta", b"grpl", b"mvex"}
BOX_TABLES = {b"stco": (4, 4, 1), b"co64": (4, 8, 1), b"stss": (4, 4, 1), b"stts": (4, 4, 2), b"stsc": (4, 4, 3),
              b"stsz": (8, 4, 1)}  # count offset, entry column width, columns

def isobmff_fields(d, add):
    def walk(p, end, path, depth):
        while p + 8 <= end and depth < 10:
            size, t = u(d, p, 4), d[p + 4:p + 8]
            name, h = path + t.decode("latin1"), 8
            add(p, 4, "big", name + ".size")
            if size == 1: add(p + 8, 8, "big", name + ".largesize"); size, h = u(d, p + 8, 8), 16
            elif size == 0: size = end - p
            if size < h: return
            q, stop, v = p + h, min(p + size, end), d[p + h] if p + h < len(d) else 0
            if t in BOX_CONTAINERS: walk(q, stop, name + "/", depth + 1)
            elif t == b"meta": walk(q + 4, stop, name + "/", depth + 1)  # a full box: version and flags first
            elif t in (b"stsd", b"dref"): add(q + 4, 4, "big", name + ".count"); walk(q + 8, stop, name + "/", depth + 1)
            elif t == b"iinf":
                w = 2 if v == 0 else 4
                add(q + 4, w, "big", name + ".count"); walk(q + 4 + w, stop, name + "/", depth + 1)
            elif t == b"infe" and v >= 2: add(q + 4, 2 if v == 2 else 4, "big", name + ".item_ID")
            elif t == b"pitm": add(q + 4, 2 if v == 0 else 4, "big", name + ".item_ID")
            elif t in (b"av01", b"hvc1", b"hev1", b"avc1"):
                fixed(add, q, "big", name + ".", (24, 2, "width"), (26, 2, "height"))  # a visual sample entry
                walk(q + 78, stop, name + "/", depth + 1)
            elif t == b"ispe": fixed(add, q, "big", name + ".", (4, 4, "width"), (8, 4, "height"))
            elif t == b"tkhd": add(stop - 8, 4, "big", name + ".width"); add(stop - 4, 4, "big", name + ".height")
            elif t == b"pixi": add(q + 4, 1, "big", name + ".channels")
            elif t == b"clap": fixed(add, q, "big", name + ".", *[(4 * k, 4, f"field{k}") for k in range(8)])
            elif t == b"colr" and d[q:q + 4] in (b"prof", b"rICC"): icc_fields(d, q + 4, name + ".icc.", add)
            elif t == b"colr" and d[q:q + 4] == b"nclx":
                fixed(add, q, "big", name + ".", (4, 2, "primaries"), (6, 2, "transfer"), (8, 2, "matrix"))
            elif t == b"iloc": iloc_fields(d, q, name, add)
            elif t == b"ipma":
                flags, r = u(d, q + 1, 3), q + 8
                add(q + 4, 4, "big", name + ".count")
                for k in range(min(u(d, q + 4, 4), 16)):
                    w = 2 if v < 1 else 4
                    add(r, w, "big", f"{name}[{k}].item"); add(r + w, 1, "big", f"{name}[{k}].assoc_count")
                    r += w + 1 + d[r + w] * (2 if flags & 1 else 1)
            elif t == b"iref":
                r, w = q + 4, 2 if v == 0 else 4
                while r + 8 + w + 2 <= stop:
                    add(r, 4, "big", f"{name}/{d[r + 4:r + 8].decode('latin1')}.size")
                    add(r + 8, w, "big", f"{name}.from"); add(r + 8 + w, 2, "big", f"{name}.refcount")
                    if u(d, r, 4) < 8: break
                    r += u(d, r, 4)
            elif t == b"hvcC":
                add(q + 21, 1, "big", name + ".lengthsize"); add(q + 22, 1, "big", name + ".arrays"); r = q + 23
                for a in range(min(d[q + 22], 8)):
                    add(r + 1, 2, "big", f"{name}.array{a}.count"); n, r = u(d, r + 1, 2), r + 3
                    for k in range(min(n, 4)): add(r, 2, "big", f"{name}.array{a}.nal{k}.length"); r += 2 + u(d, r, 2)
            elif t in BOX_TABLES:
                co, w, cols = BOX_TABLES[t]
                add(q + co, 4, "big", name + ".count")
                if t != b"stsz" or u(d, q + 4, 4) == 0:
                    for k in range(min(u(d, q + co, 4), 16) * cols): add(q + co + 4 + k * w, w, "big", f"{name}[{k}]")
            p += size
    walk(0, len(d), "", 0)

def iloc_fields(d, q, name, add):
    v = d[q]
    osz, lsz, bsz, isz = d[q + 4] >> 4, d[q + 4] & 15, d[q + 5] >> 4, d[q + 5] & 15 if v in (1, 2) else 0
    cw = 2 if v < 2 else 4
    add(q + 6, cw, "big", name + ".item_count")
    r = q + 6 + cw
    for i in range(min(u(d, q + 6, cw), 16)):
        add(r, cw, "big", f"{name}[{i}].item_ID"); r += cw
        if v in (1, 2): add(r, 2, "big", f"{name}[{i}].construction_method"); r += 2
        r += 2  # data_reference_index
        add(r, bsz, "big", f"{name}[{i}].base_offset"); r += bsz
        n = u(d, r, 2); add(r, 2, "big", f"{name}[{i}].extent_count"); r += 2
        for k in range(min(n, 16)):
            r += isz
            add(r, osz, "big", f"{name}[{i}].extent[{k}].offset"); r += osz
            add(r, lsz, "big", f"{name}[{i}].extent[{k}].length"); r += lsz

PARSERS = {"jpeg": jpeg_fields, "png": png_fields, "gif": gif_fields, "webp": webp_fields, "avif": isobmff_fields,
           "heic": isobmff_fields, "tiff": tiff_fields, "bmp": bmp_fields, "tga": tga_fields}

# MARK: - Mutations

def value_for(rng, orig, width, size, off):
    top = (1 << (8 * width)) - 1
    small = rng.randint(1, 16)
    choices = [0, 1, 2, top, top >> 1, (top >> 1) + 1, top - 15, orig + small, orig - small, orig * 2, orig // 2,
               size, size + small, size - small, size - off, 0x10000, rng.randint(0, top)]
    new = rng.choice(choices) & top
    return new if new != orig else (orig + small) & top

INTERESTING32 = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFF0, 0x10000]

def mutate(rng, fmt, seeds):
    """One mutant of a seed of `fmt`: (bytes, seed path, description)."""
    path, data, fields = rng.choice(seeds)
    buf = bytearray(data)
    strategy = rng.choices(["truncate", "flip", "interesting", "struct", "splice"], [1, 2, 2, 4, 1])[0]
    if strategy == "struct" and not fields: strategy = "flip"
    if strategy == "truncate":
        cut = rng.randrange(len(data))
        if fields and rng.random() < 0.5: cut = max(0, min(len(data) - 1, rng.choice(fields)[0] + rng.randint(-4, 8)))
        return bytes(buf[:cut]), path, f"truncate at {cut} of {len(data)}"
    if strategy == "flip":
        offs = [rng.randrange(len(buf)) for _ in range(rng.randint(1, 8))]
        for o in offs: buf[o] ^= rng.randint(1, 255)
        return bytes(buf), path, f"flip bytes at {sorted(offs)}"
    if strategy == "interesting":
        o, e = rng.randrange(max(1, len(buf) - 3)), rng.choice(["big", "little"])
        val = rng.choice(INTERESTING32 + [len(data) + rng.randint(-8, 8)]) & 0xFFFFFFFF
        buf[o:o + 4] = val.to_bytes(4, e)
        return bytes(buf), path, f"write {val:#x} ({e}-endian) at {o}"
    if strategy == "struct":
        notes = []
        for off, w, e, label, crc in rng.sample(fields, min(len(fields), rng.choice([1, 1, 1, 2, 3]))):
            orig = int.from_bytes(buf[off:off + w], e)
            new = value_for(rng, orig, w, len(data), off)
            buf[off:off + w] = new.to_bytes(w, e)
            if crc and crc[1] + 4 <= len(buf): buf[crc[1]:crc[1] + 4] = zlib.crc32(buf[crc[0]:crc[1]]).to_bytes(4, "big")
            notes.append(f"{label}@{off} {orig:#x}->{new:#x}")
        return bytes(buf), path, "struct " + "; ".join(notes)
    other, odata, ofields = rng.choice(seeds)  # splice: head of one seed, tail of another of the same format
    a = rng.choice(fields)[0] if fields and rng.random() < 0.5 else rng.randrange(len(data))
    b = rng.choice(ofields)[0] if ofields and rng.random() < 0.5 else rng.randrange(len(odata))
    return data[:a] + odata[b:], path, f"splice {Path(path).name}[:{a}] + {Path(other).name}[{b}:]"

# MARK: - Running the CLI

COMMANDS = {  # name -> (arguments for INPUT and OUTDIR, the file expected in OUTDIR on success)
    "probe": (lambda i, o: ["probe", i], None),
    "convert-png": (lambda i, o: ["convert", i, "-o", f"{o}/OUT.png"], "OUT.png"),
    "convert-jpg-64": (lambda i, o: ["convert", i, "-o", f"{o}/OUT.jpg", "--max-size", "64x64"], "OUT.jpg"),
    "render-thumbnail": (lambda i, o: ["render", i, "--variant", "thumbnail", "-o", f"{o}/", "--no-cache"], "thumbnail.jpg"),
}
CRASH, HANG = "signal", "hang"

def classify(rc, timed_out, text, files, expected):
    lines = text.splitlines()
    if timed_out: return HANG
    if rc < 0 or 128 < rc <= 128 + 64: return CRASH
    if rc == 0:
        if expected and expected not in files: return "no-output"
        if [f for f in files if f != expected]: return "leftover"
        return "message" if [l for l in lines if not l.startswith("darkroom: warning:")] else "ok"
    if rc == 1:
        if files: return "leftover"
        return "error" if len(lines) == 1 and lines[0].startswith("darkroom: error:") else "message"
    return f"exit-{rc}"

def run_case(job, opts, env):
    """Writes the input, runs one command on it in fresh folders, classifies, keeps what is bad."""
    index, fmt, command, data, source, mutation = job
    work = Path(tempfile.mkdtemp(prefix=f"{index:06d}-", dir=opts.work))
    inp, outdir, cwd = work / f"input.{EXT.get(fmt, 'bin')}", work / "out", work / "cwd"
    outdir.mkdir(); cwd.mkdir(); inp.write_bytes(data)
    make_args, expected = COMMANDS[command]
    argv = [opts.darkroom, *make_args(str(inp), str(outdir))]
    t0, timed_out = time.monotonic(), False
    proc = subprocess.Popen(["prlimit", f"--as={opts.as_limit}", "--", *argv], cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9); _, err = proc.communicate(); timed_out = True
    elapsed = time.monotonic() - t0
    files = sorted(os.listdir(outdir)) + [f"cwd/{n}" for n in os.listdir(cwd)]
    text = err.decode("utf-8", "replace").replace(str(inp), "FILE").replace(str(outdir), "OUTDIR")
    outcome = classify(proc.returncode, timed_out, text, files, expected)
    result = {"index": index, "format": fmt, "command": command, "outcome": outcome, "returncode": proc.returncode,
              "seconds": round(elapsed, 3), "source": source, "mutation": mutation}
    if outcome == "error":  # the reason with numbers blurred, to see how deep the mutants get
        result["reason"] = re.sub(r"\d+", "N", text.strip())[:120]
    if outcome == CRASH:
        number = -proc.returncode if proc.returncode < 0 else proc.returncode - 128
        result["signal"] = signal.Signals(number).name if number in signal.valid_signals() else str(number)
    if outcome not in ("ok", "error"):
        lines = text.splitlines()
        keep = Path(opts.out) / "findings" / outcome
        keep.mkdir(parents=True, exist_ok=True)
        name = f"{fmt}-{index:06d}-{command}"
        shutil.copyfile(inp, keep / f"{name}.{EXT.get(fmt, 'bin')}")
        result.update(kept=str(keep / f"{name}.{EXT.get(fmt, 'bin')}"), files=files,
                      stderr=lines if len(lines) <= 12 else lines[:6] + ["…"] + lines[-5:],
                      argv=[a.replace(str(inp), "FILE").replace(str(outdir), "OUTDIR") for a in argv])
        (keep / f"{name}.json").write_text(json.dumps(result, indent=1) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    return result

# MARK: - Jobs: round-robin over formats, commands rotating within each format

def sweep_jobs(opts, seeds):
    formats, names = list(seeds), list(COMMANDS)
    for i in range(opts.count):
        fmt = formats[i % len(formats)]
        k = i // len(formats)  # the k-th mutant of this format
        rng = random.Random(f"{opts.seed}:{i}")  # each mutant reproducible on its own
        data, source, mutation = mutate(rng, fmt, seeds[fmt])
        yield (i, fmt, names[k % len(names)], data, source, mutation)

def replay_jobs(opts):
    index = 0
    for path in sorted(p for p in Path(opts.replay).rglob("*") if p.is_file()):
        data = path.read_bytes()
        for command in COMMANDS:
            yield (index, sniff(data, path.name) or "unknown", command, data, str(path), f"replay {path.name}")
            index += 1

# MARK: - Report

def table(title, rows, outcomes, seconds):
    head = [title] + outcomes + ["total", "seconds"]
    body = [[k] + [str(c[o]) for o in outcomes] + [str(sum(c.values())), f"{seconds[k]:.0f}"]
            for k, c in sorted(rows.items())]
    widths = [max(len(r[j]) for r in [head] + body) for j in range(len(head))]
    line = lambda r: "  ".join(s.ljust(w) if j == 0 else s.rjust(w) for j, (s, w) in enumerate(zip(r, widths)))
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in body])

def report(opts, results, elapsed):
    outcomes = sorted({r["outcome"] for r in results}, key=lambda o: (o not in ("ok", "error"), o))
    by, secs = {k: defaultdict(Counter) for k in ("format", "command")}, {k: Counter() for k in ("format", "command")}
    for r in results:
        for k in by: by[k][r[k]][r["outcome"]] += 1; secs[k][r[k]] += r["seconds"]
    findings = [r for r in results if r["outcome"] not in ("ok", "error")]
    summary = {"darkroom": opts.darkroom, "seed": opts.seed, "count": len(results), "elapsed_seconds": round(elapsed, 1),
               "replay": opts.replay, "outcomes": dict(Counter(r["outcome"] for r in results)),
               "by_format": {k: dict(v) for k, v in by["format"].items()},
               "by_command": {k: dict(v) for k, v in by["command"].items()}, "findings": findings,
               "error_reasons": {f: dict(Counter(r["reason"] for r in results if r["format"] == f and "reason" in r)
                                         .most_common(12)) for f in sorted(by["format"])}}
    Path(opts.out, "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print("\n\n".join(table(k, by[k], outcomes, secs[k]) for k in by))
    print(f"\n{len(results)} runs in {elapsed:.1f} s ({len(results) / max(elapsed, 1e-9):.2f}/s); "
          f"{len(findings)} findings; summary {opts.out}/summary.json")
    groups = defaultdict(list)  # findings grouped by outcome, format and command, three examples each
    for r in findings: groups[r["outcome"], r["format"], r["command"]].append(r)
    for (outcome, fmt, command), rs in sorted(groups.items()):
        print(f"\n{outcome} {fmt} {command}: {len(rs)}")
        for r in rs[:3]:
            first, last = (r["stderr"] or [""])[0], (r["stderr"] or [""])[-1]
            print(f"  {r.get('signal', '')} {r['mutation'][:100]}\n    {first[:110]}"
                  + (f"\n    {last[:110]}" if last != first else "") + f"\n    kept {r['kept']}")
    return 1 if any(r["outcome"] in (CRASH, HANG) for r in results) else 0

# MARK: - Main

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", action="append", help="a folder of seed images (repeatable)")
    ap.add_argument("--count", type=int, default=10000, help="total mutants (default 10000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--darkroom", default=str(ROOT / ".build/release/darkroom"), help="the CLI binary")
    ap.add_argument("--out", help="work folder (default: a new temporary folder)")
    ap.add_argument("--as-limit", type=int, default=2 << 30, help="address-space limit in bytes (default 2 GiB)")
    ap.add_argument("--timeout", type=float, default=20, help="seconds per run (default 20)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel runs (default 2)")
    ap.add_argument("--replay", help="run every file in this folder with every command instead of mutating")
    opts = ap.parse_args()
    opts.darkroom = str(Path(opts.darkroom).resolve())
    if not os.access(opts.darkroom, os.X_OK): sys.exit(f"sweep: no executable darkroom at {opts.darkroom}")
    opts.out = str(Path(opts.out or tempfile.mkdtemp(prefix="darkroom-sweep-")).resolve())
    opts.work = str(Path(opts.out, "work")); os.makedirs(opts.work, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DARKROOM_CONFIG",)}
    env.update(DARKROOM_CACHE_DIR=str(Path(opts.out, "cache")), SWIFT_BACKTRACE="enable=no")
    if opts.replay:
        jobs = replay_jobs(opts)
    else:
        seeds = load_seeds(opts.seeds or [ROOT / "Tests/Fixtures", ROOT / "Samples"])
        if not seeds: sys.exit("sweep: no seed images")
        print("seeds: " + ", ".join(f"{f} {len(s)} ({sum(len(x[2]) for x in s)} fields)" for f, s in seeds.items()))
        jobs = sweep_jobs(opts, seeds)
    results, start, pending = [], time.monotonic(), set()
    with cf.ThreadPoolExecutor(opts.jobs) as pool:
        for job in jobs:
            pending.add(pool.submit(run_case, job, opts, env))
            while len(pending) >= 2 * opts.jobs:
                done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for fut in done:
                    results.append(fut.result())
                    if len(results) % 100 == 0:
                        bad = sum(r["outcome"] not in ("ok", "error") for r in results)
                        print(f"  {len(results)} runs, {bad} findings, {time.monotonic() - start:.0f} s", file=sys.stderr)
        results += [f.result() for f in cf.as_completed(pending)]
    results.sort(key=lambda r: r["index"])
    shutil.rmtree(opts.work, ignore_errors=True)
    sys.exit(report(opts, results, time.monotonic() - start))

if __name__ == "__main__":
    main()
