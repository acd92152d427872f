"""The five benchmark tasks of Benchmarks/peers.sh: which corpus files each one takes and what
size each output must have. Shared by peers.sh (`python3 tasks.py inputs T1 CORPUS`), the Pillow
runner and the report.

    python3 tasks.py inputs T1 ../shared/corpus     # prints T1's input files, one a line
"""

import glob
import os
import sys

# task -> (name, input globs relative to the corpus, kind, geometry)
#   kind "fit":  fit within (width, height), never enlarging
#   kind "fill": cover (width, height) and centre-crop to exactly that
#   kind "full": the full-size image
#   kind "fit+blur": fit as above, then a Gaussian blur of sigma `geometry[2]`
TASKS = {
    "T1": ("thumb-jpeg", ["photos/*.jpg", "large/*.jpg"], "fit", (256, 256)),
    "T2": ("fill-jpeg", ["photos/*.jpg", "large/*.jpg"], "fill", (200, 200)),
    "T3": ("thumb-png", ["large/*.png"], "fit", (512, 512)),
    "T4": ("transcode", ["photos/*.jpg"], "full", None),
    "T5": ("blur", ["photos/*.jpg"], "fit+blur", (1024, 16384, 4.0)),
}

OUTPUT_FORMAT = {"T1": "jpeg", "T2": "jpeg", "T3": "png", "T4": "jpeg", "T5": "jpeg"}


def inputs(task, corpus):
    """The task's input files, absolute paths, in a stable order."""
    files = []
    for pattern in TASKS[task][1]:
        files += sorted(glob.glob(os.path.join(corpus, pattern)))
    return [os.path.abspath(f) for f in files]


def fit_size(width, height, box_width, box_height):
    """The largest size with the image's aspect ratio inside the box, never larger than the image."""
    scale = min(box_width / width, box_height / height, 1.0)
    return max(1, round(width * scale)), max(1, round(height * scale))


def fill_crop_box(width, height, box_width, box_height):
    """The centred source rectangle (floats) with the box's aspect ratio: what a fill keeps."""
    target = box_width / box_height
    if width / height > target:
        kept = height * target
        return ((width - kept) / 2, 0.0, (width + kept) / 2, float(height))
    kept = width / target
    return (0.0, (height - kept) / 2, float(width), (height + kept) / 2)


def output_size(task, width, height):
    """The size the task's output must have for an input of width×height."""
    kind, geometry = TASKS[task][2], TASKS[task][3]
    if kind == "full":
        return width, height
    if kind == "fill":
        return geometry[0], geometry[1]
    return fit_size(width, height, geometry[0], geometry[1])


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "inputs" or sys.argv[2] not in TASKS:
        sys.exit("usage: tasks.py inputs T1|T2|T3|T4|T5 CORPUS_DIR")
    found = inputs(sys.argv[2], sys.argv[3])
    if not found:
        sys.exit(f"tasks.py: no inputs for {sys.argv[2]} under {sys.argv[3]} ({', '.join(TASKS[sys.argv[2]][1])})")
    print("\n".join(found))
