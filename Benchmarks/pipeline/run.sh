#!/bin/sh
# Builds the pipeline micro-benchmark in release mode and runs it.
# Usage (from anywhere): Benchmarks/pipeline/run.sh
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
swift build -c release --product PipelineBenchmark
"$(swift build -c release --show-bin-path)/PipelineBenchmark" "$@"
