#!/bin/sh
# Darkroom's resampler against libvips' vips_resize on two corpus photos, same pixels,
# both from memory, both RGBA8: times and PSNR. Needs libvips42 (not libvips-dev).
# Usage (from the repository root): Benchmarks/resampler/compare_vips.sh
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/darkroom-resampler-bench
lib=/usr/lib/x86_64-linux-gnu
mkdir -p "$out"
gcc -O2 -o "$out/vips_resize_bench" "$root/Benchmarks/resampler/vips_resize_bench.c" \
    "$lib/libvips.so.42" "$lib/libgobject-2.0.so.0" "$lib/libglib-2.0.so.0"
"$root/Benchmarks/resampler/run.sh" weights > /dev/null   # builds resampler-bench
corpus="$root/../shared/corpus"
for case in "photos/coldripple.jpg 2560 1600 256 160" "large/shell-5120.jpg 5120 2880 512 288"; do
    set -- $case
    raw="$out/$(basename "$1" .jpg).rgba"
    "$out/vips_resize_bench" decode "$corpus/$1" "$raw" 2> /dev/null
    for threads in 1 2; do
        for gap in 0 2; do
            printf 'libvips lanczos3 gap %s, %s thread(s): ' "$gap" "$threads"
            "$out/vips_resize_bench" resize "$raw" "$2" "$3" "$4" "$5" 5 "$gap" "$threads" "$raw.vips-$gap"
        done
    done
    "$out/resampler-bench" compare "$raw" "$2" "$3" "$4" "$5" lanczos3 "$raw.vips-0" "$raw.vips-2"
done
