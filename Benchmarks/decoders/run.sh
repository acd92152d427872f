#!/bin/sh
# Builds the decoder benchmark with `swiftc -O -wmo` (and the C walls with cc -O2) straight
# from the sources and runs it.
# Usage (from anywhere): Benchmarks/decoders/run.sh [CORPUS_DIR] [repeats]   (default ../shared/corpus, 5)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/darkroom-decoders-bench
mkdir -p "$out/CJPEG" "$out/CPNG"
swiftc -O -wmo -parse-as-library -emit-module -emit-library -static -module-name DarkroomCore \
    -emit-module-path "$out/DarkroomCore.swiftmodule" -o "$out/libDarkroomCore.a" \
    $(find "$root/Sources/DarkroomCore" -name '*.swift')
# The C walls as static libraries, each with a module map for Swift.
for wall in CJPEG CPNG; do
    for source in "$root/Sources/$wall"/*.c; do
        cc -O2 -I "$root/Sources/$wall/include" -c "$source" -o "$out/$wall/$(basename "$source" .c).o"
    done
    ar rcs "$out/lib$wall.a" "$out/$wall"/*.o
    printf 'module %s {\n    header "%s"\n    link "%s"\n    export *\n}\n' \
        "$wall" "$root/Sources/$wall/include/$wall.h" "$wall" > "$out/$wall/module.modulemap"
done
for module in DarkroomJPEG DarkroomPNG; do
    wall=C${module#Darkroom}
    swiftc -O -wmo -parse-as-library -emit-module -emit-library -static -module-name "$module" \
        -I "$out" -I "$out/$wall" -emit-module-path "$out/$module.swiftmodule" -o "$out/lib$module.a" \
        "$root/Sources/$module"/*.swift
done
swiftc -O -wmo -module-name DecoderBenchmark -I "$out" -I "$out/CJPEG" -I "$out/CPNG" -L "$out" \
    -lDarkroomJPEG -lDarkroomPNG -lCJPEG -lCPNG -lDarkroomCore -ljpeg -lpng16 -ldeflate \
    "$root/Benchmarks/decoders/main.swift" -o "$out/decoders-bench"
"$out/decoders-bench" "${1:-$root/../shared/corpus}" "${2:-5}"
