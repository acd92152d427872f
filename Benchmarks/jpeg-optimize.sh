#!/usr/bin/env bash
# What JPEG's optimal Huffman tables cost on T4 (full-size transcode to JPEG q80, the photos of the
# corpus): Darkroom with them (`t4`, the default) and without (`t4-one-pass`, `optimize = false`,
# the setting libvips uses by default), beside libvips 8.18 and 8.14 doing the same task from
# Benchmarks/peers/vips_task.c. Each tool does the whole task in one process, single-threaded; a
# warm-up round, then RUNS rounds (default 5) alternating the tools, order reversed every other
# round. Prints medians of wall time and peak RSS, the output bytes, and Darkroom/libvips ratios
# taken round by round.
#
#   Benchmarks/jpeg-optimize.sh [CORPUS_DIR]      (default: ../shared/corpus)
#   RUNS=9 Benchmarks/jpeg-optimize.sh
# libvips 8.18 comes from Benchmarks/peers.sh's virtual environment (.build/peers-venv); without
# it only 8.14 is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD" here="$PWD/Benchmarks/peers"
corpus="$(cd "${1:-../shared/corpus}" && pwd)"
runs="${RUNS:-5}"
mapfile -t files < <(find "$corpus/photos" -name '*.jpg' | sort)
[ "${#files[@]}" -gt 0 ] || { echo "jpeg-optimize.sh: no JPEGs under $corpus/photos" >&2; exit 1; }

swift build -c release --product darkroom >/dev/null
bin="$(swift build -c release --show-bin-path)/darkroom"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/timed_exec" "$here/timed_exec.c"
# shellcheck disable=SC2046
cc -O2 -o "$work/vips-8.14" "$here/vips_task.c" $(pkg-config --cflags --libs vips)
tools=(darkroom darkroom-one-pass vips-8.14)
libvips_new="$(ls "$root"/.build/peers-venv/lib/python3*/site-packages/pyvips_binary.libs/libvips-*.so.42 2>/dev/null | head -1 || true)"
if [ -n "$libvips_new" ]; then
    # shellcheck disable=SC2046
    cc -O2 -o "$work/vips-8.18" "$here/vips_task.c" $(pkg-config --cflags vips) "$libvips_new" \
        -Wl,-rpath,"$(dirname "$libvips_new")"
    tools+=(vips-8.18)
fi

run() {  # ROUND TOOL: appends "round tool seconds rss-KiB bytes"
    local out="$work/out/$2"
    rm -rf "$out"; mkdir -p "$out"
    case "$2" in
    darkroom) cmd=("$bin" batch "${files[@]}" --variant t4 --out "$out" --jobs 1 --config "$here/filters.d" --no-cache) ;;
    darkroom-one-pass) cmd=("$bin" batch "${files[@]}" --variant t4-one-pass --out "$out" --jobs 1 --config "$here/filters.d" --no-cache) ;;
    vips-*) cmd=(env VIPS_CONCURRENCY=1 "$work/$2" T4 "$out" "${files[@]}") ;;
    esac
    "$work/timed_exec" "$work/measured" "${cmd[@]}" >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
    read -r seconds rss <"$work/measured"
    bytes=$(find "$out" -type f -name '*.jpg' -printf '%s\n' | awk '{ s += $1 } END { print s }')
    printf '%s %s %s %s %s\n' "$1" "$2" "$seconds" "$rss" "$bytes" >>"$work/timings"
}

for tool in "${tools[@]}"; do run 0 "$tool"; done   # warm-up
: >"$work/timings"
for round in $(seq "$runs"); do
    order=("${tools[@]}")
    if [ $((round % 2)) = 0 ]; then mapfile -t order < <(printf '%s\n' "${tools[@]}" | tac); fi
    for tool in "${order[@]}"; do run "$round" "$tool"; done
done

python3 - "$work/timings" "${#files[@]}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
by = {}
for round_, tool, seconds, rss, bytes_ in rows:
    by.setdefault(tool, {})[round_] = (float(seconds), int(rss), int(bytes_))
print(f"T4 transcode, {sys.argv[2]} photos, JPEG q80, medians of {len(next(iter(by.values())))} rounds")
print("| tool | wall s | peak RSS MiB | output bytes |")
print("| --- | --- | --- | --- |")
for tool, runs in by.items():
    values = list(runs.values())
    print(f"| {tool} | {statistics.median(v[0] for v in values):.3f} | {statistics.median(v[1] for v in values) / 1024:.1f} | {values[-1][2]:,} |")
for peer in [t for t in by if t.startswith("vips")]:
    for ours in ("darkroom", "darkroom-one-pass"):
        ratios = [by[ours][r][0] / by[peer][r][0] for r in by[peer]]
        size = by[ours]["1"][2] / by[peer]["1"][2]
        print(f"{ours} / {peer}: time {statistics.median(ratios):.2f}x (rounds {min(ratios):.2f}-{max(ratios):.2f}), bytes {size:.3f}x")
PY
