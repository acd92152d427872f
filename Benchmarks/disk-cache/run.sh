#!/bin/sh
# Builds the disk-cache micro-benchmark in release mode and runs it.
# Usage (from anywhere): Benchmarks/disk-cache/run.sh [FOLDER]   (default: a new folder in $TMPDIR or /tmp)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
swift build -c release --product DiskCacheBenchmark
"$(swift build -c release --show-bin-path)/DiskCacheBenchmark" "$@"
