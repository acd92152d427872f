#!/usr/bin/env bash
# What decoding in worker processes (darkroom-server --isolate-decoders, issue 29 item 2) costs
# per request, format by format: two release servers side by side, one decoding in process
# (--isolate-decoders none), one in workers (all), both without caches, asked the same request
# in alternation over keep-alive connections from one Python client; the median latency of each
# and the difference. The client's own time is in both columns alike.
#
#   Benchmarks/decoder-workers.sh [CORPUS] [REQUESTS]    # default ../shared/corpus, 40
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
corpus="${1:-../shared/corpus}"
requests="${2:-40}"
die() { echo "decoder-workers.sh: error: $*" >&2; exit 1; }
[ -d "$corpus/photos" ] || die "no corpus folder with photos/ at '$corpus'"
source "$root/Benchmarks/common/servers.sh"
release_server_binary decoder-workers.sh
swift build --product darkroom >/dev/null || die "the debug darkroom build failed"
darkroom="$(swift build --show-bin-path)/darkroom"

work="$(mktemp -d "${TMPDIR:-/tmp}/darkroom-workers-bench.XXXXXX")"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/root"
photo="$(ls "$corpus"/photos/*.jpg | head -1)"
# One 2560×1600 photo in every format Darkroom writes, plus the HEIF fixture (nothing here writes HEIF).
cp "$photo" "$work/root/photo.jpg"
for format in png webp tiff avif; do
    "$darkroom" convert "$photo" --output "$work/root/photo.$format" >/dev/null
done
cp Tests/Fixtures/gradient.heic "$work/root/photo.heic"

start() {  # PORT ISOLATION
    "$bin" --root "$work/root" --host 127.0.0.1 --port "$1" --no-cache --no-remote --jobs 1 \
        --isolate-decoders "$2" --log-level warning >"$work/server-$1.log" 2>&1 &
    for _ in $(seq 100); do grep -q listening "$work/server-$1.log" && return; sleep 0.1; done
    die "the server on port $1 did not start: $(cat "$work/server-$1.log")"
}
start 18401 none
start 18402 all
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "GET /thumbnail/photo.EXT, $requests requests each, alternating; median milliseconds"
python3 - "$work/root" "$requests" <<'PY'
import http.client, os, statistics, sys, time
folder, count = sys.argv[1], int(sys.argv[2])
print("| format | file | in process | in a worker | added | ratio |")
print("| --- | --- | --- | --- | --- | --- |")
for ext in ["jpg", "png", "webp", "tiff", "avif", "heic"]:
    path = f"/thumbnail/photo.{ext}"
    connections = {port: http.client.HTTPConnection("127.0.0.1", port) for port in (18401, 18402)}
    times = {18401: [], 18402: []}
    for i in range(count + 2):
        for port in ((18401, 18402) if i % 2 == 0 else (18402, 18401)):
            began = time.perf_counter()
            connections[port].request("GET", path)
            response = connections[port].getresponse()
            body = response.read()
            elapsed = time.perf_counter() - began
            if response.status != 200:
                sys.exit(f"{path} on {port}: {response.status} {body[:200]!r}")
            if i >= 2:  # the first two warm up (and start the worker)
                times[port].append(elapsed * 1000)
    local, isolated = statistics.median(times[18401]), statistics.median(times[18402])
    size = os.path.getsize(os.path.join(folder, f"photo.{ext}"))
    print(f"| {ext} | {size // 1024} KiB | {local:.1f} | {isolated:.1f} | {isolated - local:+.1f} | {isolated / local:.2f}× |")
PY
