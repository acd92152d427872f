#!/bin/sh
# Builds the memory-cache benchmark with `swiftc -O -wmo` straight from the sources and runs it.
# Usage (from anywhere): Benchmarks/memory-cache/run.sh [entries]     (default 100000)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/darkroom-memory-cache-bench
mkdir -p "$out"
swiftc -O -wmo -parse-as-library -emit-module -emit-library -static -module-name DarkroomCore \
    -emit-module-path "$out/DarkroomCore.swiftmodule" -o "$out/libDarkroomCore.a" \
    $(find "$root/Sources/DarkroomCore" -name '*.swift')
# The memory cache's sources join the benchmark's module (so it can time the internal store);
# the CacheKey forms are left out, as they need swift-crypto.
swiftc -O -wmo -module-name MemoryCacheBenchmark -I "$out" -L "$out" -lDarkroomCore \
    $(find "$root/Sources/DarkroomCache/Memory" -name '*.swift' ! -name 'AutoPurgingImageCache+Keys.swift') \
    "$root/Benchmarks/memory-cache/main.swift" \
    -o "$out/memory-cache-bench"
"$out/memory-cache-bench" "$@"
