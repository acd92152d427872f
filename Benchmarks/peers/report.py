"""The report of Benchmarks/peers.sh: timing table, output checks, quality rules and goals.

    python3 report.py WORK_DIR CORPUS_DIR RUNS

WORK_DIR holds timings.tsv (round, task, tool, seconds, peak KiB, the seconds Darkroom's batch
summary reports or "-"; round 0 is the warm-up and is dropped), out/TASK/TOOL/ (the last round's outputs) and png/TASK/ (Darkroom's untimed PNG
twins). References are made with Pillow from the FULL decode: Image.resize(size, LANCZOS,
reducing_gap=None); a fill resizes the centred source rectangle (resize's `box`); T4's reference is
the full decode itself; T5's is the Lanczos3 fit followed by Pillow's GaussianBlur(4) (an
extended-box approximation of a Gaussian, edges clamped).
"""

import math
import os
import statistics
import sys
from collections import defaultdict

import numpy
from PIL import Image, ImageFilter

from tasks import OUTPUT_FORMAT, TASKS, fill_crop_box, inputs, output_size

PEERS = ["vips-8.18", "vips-8.14", "imagemagick", "graphicsmagick", "pillow-draft", "pillow-simd-draft"]
STARTUPS = {"pillow-draft": "pillow-startup", "pillow-simd-draft": "pillow-simd-startup"}
DARKROOMS = ["darkroom", "darkroom-plain"]
VIPS = "vips-8.18"      # the yardstick: the newest libvips
JPEG_MARGIN_DB = 1.0   # a Darkroom JPEG may be at most this far below vips's, file by file
BYTES_MARGIN = 0.03    # Darkroom's JPEG bytes at most 3 % over vips's at the same quality setting
PNG_FLOOR_DB = 36.0    # Darkroom's PNG twin must reach this against the reference


# MARK: - Timings

def read_timings(path):
    """{(task, tool): {round: (seconds, peak KiB)}} without the warm-up round, and the same
    keys with {round: seconds Darkroom's own summary reports} for Darkroom's runs."""
    runs, own = defaultdict(dict), defaultdict(dict)
    with open(path) as lines:
        for line in lines:
            round_, task, tool, seconds, kib, reported = line.rstrip("\n").split("\t")
            if int(round_) > 0:
                runs[(task, tool)][int(round_)] = (float(seconds), int(kib))
                if reported != "-":
                    own[(task, tool)][int(round_)] = (float(reported), 0)
    return runs, own


def pairwise_ratio(runs, task, numerator, denominator):
    """Median over rounds of numerator's seconds / denominator's seconds in the same round."""
    a, b = runs[(task, numerator)], runs[(task, denominator)]
    return statistics.median(a[r][0] / b[r][0] for r in a if r in b)


# MARK: - Quality

def reference(task, full):
    kind, geometry = TASKS[task][2], TASKS[task][3]
    if kind == "full":
        return full
    size = output_size(task, full.width, full.height)
    box = fill_crop_box(full.width, full.height, *size) if kind == "fill" else None
    resized = full.resize(size, Image.LANCZOS, box=box, reducing_gap=None)
    return resized.filter(ImageFilter.GaussianBlur(geometry[2])) if kind == "fit+blur" else resized


def psnr(a, b):
    difference = numpy.asarray(a, dtype=numpy.float64) - numpy.asarray(b, dtype=numpy.float64)
    mse = float(numpy.mean(difference * difference))
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


def find_outputs(folder):
    """{stem: path} of every file under folder (tools lay their outputs out differently)."""
    found = {}
    for parent, _, names in os.walk(folder):
        for name in names:
            found[os.path.splitext(name)[0]] = os.path.join(parent, name)
    return found


def check(task, files, folders):
    """{tool: {stem: psnr or None}} and a list of problems (missing, wrong size or format)."""
    results, problems = defaultdict(dict), []
    listings = {tool: find_outputs(folder) for tool, folder in folders.items()}
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        with Image.open(path) as image:
            full = image.convert("RGB")
        ref = reference(task, full)
        for tool, listing in listings.items():
            if stem not in listing:
                problems.append(f"{task} {tool}: no output for {stem}")
                results[tool][stem] = None
                continue
            with Image.open(listing[stem]) as output:
                expected = "png" if tool.endswith("(png)") else OUTPUT_FORMAT[task]
                if output.format.lower() != expected:
                    problems.append(f"{task} {tool}: {stem} is {output.format}, not {expected}")
                if output.size != ref.size:
                    problems.append(f"{task} {tool}: {stem} is {output.width}x{output.height}, "
                                    f"expected {ref.width}x{ref.height}")
                    results[tool][stem] = None
                    continue
                results[tool][stem] = psnr(output.convert("RGB"), ref)
    return results, problems


def folder_bytes(folder):
    """The bytes of every file under folder."""
    return sum(os.path.getsize(os.path.join(parent, name)) for parent, _, names in os.walk(folder) for name in names)


def summary(values):
    good = [v for v in values if v is not None]
    if not good:
        return "     -       -"
    return f"{min(good):6.2f} {statistics.fmean(good):7.2f}"


# MARK: - Report

def main():
    work, corpus, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    timings, reported = read_timings(os.path.join(work, "timings.tsv"))
    tools_of = defaultdict(list)
    order = ["darkroom", "darkroom-j2", "darkroom-plain"] + PEERS + list(STARTUPS.values())
    for task, tool in sorted(timings, key=lambda key: (key[0], order.index(key[1]))):
        tools_of[task].append(tool)

    quality, problems, rules = {}, [], []
    for task in TASKS:
        files = inputs(task, corpus)
        folders = {tool: os.path.join(work, "out", task, tool) for tool in tools_of[task] if tool not in STARTUPS.values()}
        folders["darkroom (png)"] = os.path.join(work, "png", task)
        if os.path.isdir(os.path.join(work, "vips-png", task)):
            folders[f"{VIPS} (png)"] = os.path.join(work, "vips-png", task)
        quality[task], found = check(task, files, folders)
        problems += found
        twin = quality[task]["darkroom (png)"]
        worst = min((v for v in twin.values() if v is not None), default=None)
        ok = worst is not None and all(v is not None and v >= PNG_FLOOR_DB for v in twin.values())
        rules.append(f"{'PASS' if ok else 'FAIL'}  {task} Darkroom chain as PNG >= {PNG_FLOOR_DB:g} dB vs reference "
                     f"(worst {worst:.2f} dB)" if worst is not None else f"FAIL  {task} PNG twin: no usable output")
        if OUTPUT_FORMAT[task] == "jpeg":
            ours, vips = quality[task]["darkroom"], quality[task][VIPS]
            gaps = [vips[s] - ours[s] for s in ours if ours[s] is not None and vips.get(s) is not None]
            ok = len(gaps) == len(files) and all(g <= JPEG_MARGIN_DB for g in gaps)
            rules.append(f"{'PASS' if ok else 'FAIL'}  {task} every Darkroom JPEG within {JPEG_MARGIN_DB:g} dB of {VIPS}'s "
                         f"(worst: {max(gaps, default=math.nan):+.2f} dB below)")
            ours_bytes = folder_bytes(folders["darkroom"])
            vips_bytes = folder_bytes(folders[VIPS])
            share = ours_bytes / vips_bytes - 1 if vips_bytes else math.inf
            # One-sided: smaller files at the same quality setting (and PSNR, the rule above) are no loss.
            rules.append(f"{'PASS' if share <= BYTES_MARGIN else 'FAIL'}  {task} Darkroom's JPEG bytes at most "
                         f"{BYTES_MARGIN:.0%} over {VIPS}'s at Q80 ({ours_bytes:,} vs {vips_bytes:,}: {share:+.1%})")

    print(f"\nMedians of {runs} alternating rounds after a warm-up; one process per tool per task; "
          "ratio = Darkroom s / tool s, per round, median (< 1: Darkroom faster).")
    print("PSNR (dB) of the last round's outputs vs a Pillow Lanczos3 reference from the full decode.\n")
    print("Pillow's rows include starting Python and importing Pillow; the pillow-startup rows time that")
    print("alone, and 'ms/img' is Pillow's time per image without it (for the others: wall time / images).\n")
    print(f"{'task':<14}{'tool':<20}{'wall s':>8}{'ms/img':>8}{'RSS MiB':>9}{'ratio':>8}   {'PSNR min  mean'}")
    for task in TASKS:
        count = len(inputs(task, corpus))
        for tool in tools_of[task]:
            seconds = statistics.median(s for s, _ in timings[(task, tool)].values())
            mib = statistics.median(k for _, k in timings[(task, tool)].values()) / 1024
            if tool in STARTUPS.values():
                print(f"{'':<14}{tool:<20}{seconds:8.3f}{'':>8}{mib:9.1f}")
                continue
            per_image = seconds
            if tool in STARTUPS and (task, STARTUPS[tool]) in timings:
                per_image = statistics.median(
                    timings[(task, tool)][r][0] - timings[(task, STARTUPS[tool])][r][0]
                    for r in timings[(task, tool)] if r in timings[(task, STARTUPS[tool])])
            ratio = "" if tool == "darkroom" else f"{pairwise_ratio(timings, task, 'darkroom', tool):8.2f}"
            print(f"{task + ' ' + TASKS[task][0]:<14}{tool:<20}{seconds:8.3f}{1000 * per_image / count:8.1f}{mib:9.1f}"
                  f"{ratio:>8}   {summary(quality[task][tool].values())}")
        for twin in ("darkroom (png)", f"{VIPS} (png)"):
            if twin in quality[task]:
                print(f"{'':<14}{twin:<20}{'untimed':>8}{'':>25}   {summary(quality[task][twin].values())}")

    print("\nOutput checks:", "all outputs present, right format and size" if not problems else "")
    for problem in problems:
        print("  PROBLEM", problem)
    print("\nQuality rules:")
    for rule in rules:
        print(" ", rule)

    def rss(task, tool):
        return statistics.median(k for _, k in timings[(task, tool)].values()) / 1024

    print(f"\nGoals against {VIPS} (ratio = Darkroom s / {VIPS} s, per round, median):")
    goals = []
    limits = {"T1": 0.30, "T2": 0.30, "T3": 0.80, "T4": 0.80, "T5": 0.80}
    for build in DARKROOMS:
        for task, limit in limits.items():
            if (task, build) in timings and (task, VIPS) in timings:
                goals.append((f"{task} {build} <= {limit:.2f}x", pairwise_ratio(timings, task, build, VIPS), limit))
    for task in limits:
        if (task, VIPS) in timings:
            goals.append((f"{task} peak RSS <= {VIPS}'s (MiB)", rss(task, "darkroom"), rss(task, VIPS)))
    for name, value, limit in goals:
        print(f"  {'GOAL MET    ' if value <= limit else 'GOAL NOT MET'}  {name:<34} {value:7.2f}  (limit {limit:.2f})")
    if ("T1", "darkroom-j2") in timings:
        speedup = pairwise_ratio(timings, "T1", "darkroom", "darkroom-j2")
        print(f"  {'GOAL MET    ' if speedup >= 1.8 else 'GOAL NOT MET'}  {'T1 --jobs 2 >= 1.8x --jobs 1':<32} "
              f"{speedup:7.2f}  (throughput, wall time of the whole process, pairwise)")
        if reported.get(("T1", "darkroom")) and reported.get(("T1", "darkroom-j2")):
            own = pairwise_ratio(reported, "T1", "darkroom", "darkroom-j2")
            serial = statistics.median(
                timings[("T1", "darkroom")][r][0] - reported[("T1", "darkroom")][r][0] for r in reported[("T1", "darkroom")])
            print(f"  {'':12}  {'  same, batch summary s':<32} {own:7.2f}  (rendering only: the batch's own "
                  f"images/s; start-up, config and exit, {serial * 1000:.1f} ms, left out)")


if __name__ == "__main__":
    main()
