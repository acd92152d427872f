"""Runs one benchmark task with Pillow, "Pillow-draft": every file in one process, single-threaded.

    python3 pillow_task.py T1 OUT_DIR FILE...
    python3 pillow_task.py --startup-only      (the interpreter and these imports, no image:
                                                peers.sh times it to show Pillow's per-image cost)

JPEG inputs that are shrunk (T1, T2, T5) are opened with Image.draft(), libjpeg's DCT-domain
downscale, asking for at least twice the final size (the margin Image.thumbnail and libvips leave
for the final resample); then Lanczos3 (Image.LANCZOS, reducing_gap=None) to the exact size.
T3 (PNG) and T4 (full size) have nothing to draft. Outputs: OUT_DIR/STEM.jpg (q80) or .png (level 6).
"""

import os
import sys

from PIL import Image, ImageFilter

from tasks import OUTPUT_FORMAT, TASKS, fill_crop_box, fit_size


def drafted(image, width, height):
    """The image, decoded at the smallest DCT scale still ≥ 2× width×height when it is a JPEG."""
    if image.format == "JPEG":
        image.draft("RGB", (2 * width, 2 * height))
    return image.convert("RGB")


def render(task, image):
    kind, geometry = TASKS[task][2], TASKS[task][3]
    if kind == "full":
        return image.convert("RGB")
    if kind == "fill":
        width, height = geometry
        image = drafted(image, width, height)
        box = fill_crop_box(image.width, image.height, width, height)
        return image.resize((width, height), Image.LANCZOS, box=box, reducing_gap=None)
    width, height = fit_size(image.width, image.height, geometry[0], geometry[1])
    image = drafted(image, width, height)
    image = image.resize((width, height), Image.LANCZOS, reducing_gap=None)
    if kind == "fit+blur":
        image = image.filter(ImageFilter.GaussianBlur(geometry[2]))
    return image


def main():
    if sys.argv[1:] == ["--startup-only"]:
        return
    if len(sys.argv) < 4 or sys.argv[1] not in TASKS:
        sys.exit("usage: pillow_task.py T1|T2|T3|T4|T5 OUT_DIR FILE...")
    task, out_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        with Image.open(path) as image:
            result = render(task, image)
        if OUTPUT_FORMAT[task] == "png":
            result.save(os.path.join(out_dir, stem + ".png"), compress_level=6)
        else:
            result.save(os.path.join(out_dir, stem + ".jpg"), quality=80)


if __name__ == "__main__":
    main()
