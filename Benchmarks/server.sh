#!/usr/bin/env bash
# darkroom-server against thumbor, side by side (see Benchmarks/server/bench.py and
# Benchmarks/README.md, "Server"): T1's seven JPEGs (photos/*.jpg + large/*.jpg) served as
# thumbnails (fit within 256×256, JPEG q80) over HTTP on loopback, each server on one CPU,
# wrk on the other; alternating rounds, medians, darkroom-server/thumbor ratios pair by pair;
# then memory-cache hits against a bare Hummingbird server's fixed 8 KiB answer (the ceiling).
#
#   Benchmarks/server.sh [CORPUS_DIR]          (default: ../shared/corpus)
#   RUNS=7 SECONDS_PER_RUN=10 Benchmarks/server.sh   (HIT_RUNS: the hit/ceiling rounds, default RUNS but at least 9)
#   DARKROOM_SERVER_BIN=path Benchmarks/server.sh   (measure that binary instead of building one)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
corpus="${1:-../shared/corpus}"
export PYTHONDONTWRITEBYTECODE=1

die() { echo "server.sh: error: $*" >&2; exit 1; }
[ -d "$corpus/photos" ] || die "no corpus folder with photos/ at '$corpus' (give one as the first argument)"
corpus="$(cd "$corpus" && pwd)"
[ "$(nproc)" -ge 2 ] || die "needs two CPUs (one for the server, one for wrk)"

# MARK: - Tools (installed only when missing)

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v wrk >/dev/null; then
    echo "server.sh: installing wrk (apt-get)" >&2
    as_root apt-get install -y wrk >/dev/null 2>&1 \
        || { as_root apt-get update >/dev/null && as_root apt-get install -y wrk >/dev/null; } \
        || die "could not install wrk with apt-get"
fi
venv="$root/.build-server-bench/venv"
if [ ! -x "$venv/bin/thumbor" ]; then
    echo "server.sh: installing thumbor (pip, in $venv)" >&2
    python3 -m venv "$venv" || die "could not make a virtual environment"
    "$venv/bin/pip" install --quiet thumbor || die "could not pip install thumbor"
fi

# MARK: - darkroom-server, release build

source "$root/Benchmarks/common/servers.sh"
release_server_binary server.sh
# The framework's ceiling: a bare Hummingbird server (Benchmarks/server/ceiling), release build.
echo "server.sh: building hummingbird-ceiling (release)" >&2
ceiling_flags=(-c release --package-path "$root/Benchmarks/server/ceiling" --scratch-path "$root/.build-server-bench/ceiling")
swift build "${ceiling_flags[@]}" >/dev/null || die "the release build of Benchmarks/server/ceiling failed"
ceiling="$(swift build "${ceiling_flags[@]}" --show-bin-path)/hummingbird-ceiling"

# MARK: - Run

photo_work_folder "$corpus" server
"$venv/bin/python" "$root/Benchmarks/server/bench.py" "$work/root" "$work" "$bin" "$venv/bin/thumbor" \
    "$root/Benchmarks/server/filters.d" "$root/Benchmarks/server/paths.lua" "$ceiling"
