#!/usr/bin/env bash
# Animated GIF resizing against gifsicle (issue 32 item 2): a 24-frame 480×270 GIF made from a
# corpus photo (ImageMagick, each frame the photo rolled 20 px with a red disc, frame-optimised)
# resized to 240 wide, by `gifsicle --resize-width 240` and by `darkroom convert --max-size 240x`
# (the release build), in alternation, ROUNDS rounds. Both are whole process runs, start-up
# included on both sides. Prints each round, the minimum and median of each, and the ratio of
# medians (darkroom / gifsicle; the goal is under 2). Outputs are checked: 24 frames, 240×135.
#
#   Benchmarks/animation.sh [ROUNDS] [CORPUS]      # default 15, ../shared/corpus
#   DARKROOM_BIN=path Benchmarks/animation.sh      # a darkroom binary built elsewhere
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-15}"
corpus="${2:-../shared/corpus}"
die() { echo "animation.sh: error: $*" >&2; exit 1; }
command -v gifsicle >/dev/null || die "gifsicle is not installed (apt-get install gifsicle)"
command -v convert >/dev/null || die "ImageMagick's convert is not installed"
photo="$(ls "$corpus"/photos/*.jpg 2>/dev/null | head -1)"
[ -n "$photo" ] || die "no photos in '$corpus/photos'"
if [ -n "${DARKROOM_BIN:-}" ]; then
    darkroom="$DARKROOM_BIN"
else
    swift build -c release --product darkroom >/dev/null || die "swift build -c release failed"
    darkroom="$(swift build -c release --show-bin-path)/darkroom"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/darkroom-animation-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
for i in $(seq 0 23); do
    convert "$photo" -resize '480x270^' -gravity center -extent 480x270 -roll "+$((i * 20))+0" \
        -fill red -draw "circle $((i * 20)),135 $((i * 20 + 30)),135" "$work/f$(printf %02d "$i").png"
done
convert -delay 8 -loop 0 "$work"/f*.png -layers optimize "$work/in.gif"
rm "$work"/f*.png

echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "input: $(gifsicle --info "$work/in.gif" | head -1 | sed 's/^\* [^ ]* //'), 480x270, $(stat -c %s "$work/in.gif") bytes; $(gifsicle --version | head -1)"
python3 - "$work" "$darkroom" "$rounds" <<'PY'
import statistics, subprocess, sys, time
work, darkroom, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = {
    "gifsicle": ["gifsicle", "--resize-width", "240", f"{work}/in.gif", "-o", f"{work}/gifsicle.gif"],
    "darkroom": [darkroom, "convert", f"{work}/in.gif", "-o", f"{work}/darkroom.gif", "--max-size", "240x"],
}
times = {name: [] for name in runs}
for r in range(rounds + 1):
    order = list(runs) if r % 2 == 0 else list(reversed(list(runs)))
    for name in order:
        began = time.perf_counter()
        subprocess.run(runs[name], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = (time.perf_counter() - began) * 1000
        if r > 0:  # the first round warms the page cache
            times[name].append(elapsed)
for name in runs:
    info = subprocess.run(["gifsicle", "--info", f"{work}/{name}.gif"], capture_output=True, text=True).stdout
    if "24 images" not in info.splitlines()[0] or "logical screen 240x135" not in info:
        sys.exit(f"{name}'s output is not 24 frames of 240x135:\n{info[:300]}")
print("| tool | min ms | median ms |")
print("| --- | --- | --- |")
for name in runs:
    print(f"| {name} | {min(times[name]):.1f} | {statistics.median(times[name]):.1f} |")
ratios = [d / g for d, g in zip(times["darkroom"], times["gifsicle"])]
print(f"darkroom / gifsicle, round by round: median {statistics.median(ratios):.2f}, "
      f"range {min(ratios):.2f}–{max(ratios):.2f} (goal: under 2)")
PY
