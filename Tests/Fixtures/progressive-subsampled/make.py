# Writes the progressive JPEGs of this folder for SubsampledEighthTests (run it here; needs
# cjpeg from libjpeg-turbo-progs 2.1): a photo-like pattern and a grey variant as PPM, then
# cjpeg with 4:2:2, 4:2:0 or 4:1:1 chroma and libjpeg's or hand-written scan scripts.
import math, os, subprocess
def ppm(name, w, h, grey):
    px = bytearray()
    for y in range(h):
        for x in range(w):
            fx, fy = x / w, y / h
            ripple = (math.sin(x * 0.05) * math.cos(y * 0.07) + 1) * 40
            r, g, b = (int(min(255, v)) for v in (fx * 200 + ripple, fy * 200 + ripple / 2, (1 - fx) * 150 + ripple))
            px += bytes((r, r, r) if grey else (r, g, b))
    open(name, "wb").write(b"P6 %d %d 255\n" % (w, h) + px)
# DC of each component in its own scan (Y first at Al 1), AC, then DC refinements that mix
# an interleaved pair with a single component.
open("single-dc.txt", "w").write(
    "0: 0 0 0 1; 2: 0 0 0 0; 1: 0 0 0 0; 0: 1 63 0 0; 1: 1 63 0 0; 2: 1 63 0 0; 0: 0 0 1 0;\n")
open("mixed-dc.txt", "w").write(
    "0 2: 0 0 0 2; 1: 0 0 0 2; 0: 1 5 0 0; 0 1: 0 0 2 1; 2: 0 0 2 1; 1 2: 0 0 1 0;"
    " 0: 0 0 1 0; 0: 6 63 0 0; 1: 1 63 0 0; 2: 1 63 0 0;\n")
for name, w, h, grey, sample, scans in [
    ("photo422", 49, 33, False, "2x1", None), ("photo422-single-dc", 49, 33, False, "2x1", "single-dc.txt"),
    ("photo420", 49, 33, False, "2x2", None), ("photo420-mixed-dc", 49, 33, False, "2x2", "mixed-dc.txt"),
    ("photo411-single-dc", 49, 33, False, "4x1", "single-dc.txt"),
    ("grey422-single-dc", 49, 33, True, "2x1", "single-dc.txt"), ("grey420-mixed-dc", 49, 33, True, "2x2", "mixed-dc.txt"),
    ("photo422-203x133", 203, 133, False, "2x1", None), ("photo422-203x133-mixed", 203, 133, False, "2x1", "mixed-dc.txt"), ("grey411-single-dc", 49, 33, True, "4x1", "single-dc.txt"), ("grey420-9x1", 9, 1, True, "2x2", "single-dc.txt"), ("grey422-9x1", 9, 1, True, "2x1", None), ("grey422-17x9", 17, 9, True, "2x1", "mixed-dc.txt"),
]:
    ppm("source.ppm", w, h, grey)
    options = ["-scans", scans] if scans else ["-progressive"]
    subprocess.run(["cjpeg", "-quality", "75", "-sample", sample, *options, "-outfile", name + ".jpg", "source.ppm"], check=True)
for leftover in ("source.ppm", "single-dc.txt", "mixed-dc.txt"):
    os.remove(leftover)
