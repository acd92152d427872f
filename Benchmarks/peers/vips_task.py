"""Runs T4 or T5 with libvips through pyvips: every file in one process (the `vips` command line
does one operation per process, and vipsthumbnail cannot blur or skip resizing). Run it with
VIPS_CONCURRENCY=1.

    python3 vips_task.py T4|T5 OUT_DIR FILE...

T4: jpegload (sequential) -> jpegsave Q=80.
T5: thumbnail to 1024 wide (shrink-on-load + Lanczos3, as vipsthumbnail) -> gaussblur(4) -> Q=80.
"""

import os
import sys

import pyvips

from tasks import TASKS


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("T4", "T5"):
        sys.exit("usage: vips_task.py T4|T5 OUT_DIR FILE...")
    task, out_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        if task == "T4":
            image = pyvips.Image.new_from_file(path, access="sequential")
        else:
            width, height, sigma = TASKS["T5"][3]
            image = pyvips.Image.thumbnail(path, width, height=height, size="down").gaussblur(sigma)
        image.jpegsave(os.path.join(out_dir, stem + ".jpg"), Q=80, strip=True)


if __name__ == "__main__":
    main()
