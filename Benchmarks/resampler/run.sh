#!/bin/sh
# Builds the resampler benchmark with `swiftc -O` straight from the sources and runs it.
# Usage (from the repository root): Benchmarks/resampler/run.sh [kernel ...]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/darkroom-resampler-bench
mkdir -p "$out"
swiftc -O -wmo -parse-as-library -emit-module -emit-library -static -module-name DarkroomCore \
    -emit-module-path "$out/DarkroomCore.swiftmodule" -o "$out/libDarkroomCore.a" \
    $(find "$root/Sources/DarkroomCore" -name '*.swift')
swiftc -O -wmo -module-name ResamplerBenchmark -I "$out" -L "$out" -lDarkroomCore \
    "$root"/Sources/DarkroomFilters/Resampling/*.swift "$root/Benchmarks/resampler/main.swift" "$root/Benchmarks/resampler/passes.swift" "$root/Benchmarks/resampler/float_variant.swift" \
    -o "$out/resampler-bench"
"$out/resampler-bench" "$@"
