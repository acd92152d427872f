#!/usr/bin/env bash
# Measures what shrink-on-load saves: `darkroom convert --max-size 256x256` on every JPEG of the
# corpus, with DCT-domain shrink-on-load (the default) and without (--no-shrink-on-load),
# alternating the two, 5 runs each after a warm-up, and prints medians and their ratio.
#
#   Benchmarks/shrink-on-load.sh [CORPUS_DIR]      (default: ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-../shared/corpus}"
runs="${RUNS:-5}"
swift build -c release --product darkroom >/dev/null
bin="$(swift build -c release --show-bin-path)/darkroom"
mapfile -t files < <(find "$corpus" -name '*.jpg' | sort)
[ "${#files[@]}" -gt 0 ] || { echo "no JPEGs under $corpus" >&2; exit 1; }
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT

one_pass() {  # $1 = extra flag or empty; prints seconds for the whole set
    local start end
    start=$(date +%s%N)
    for f in "${files[@]}"; do
        "$bin" convert "$f" -o "$out/$(basename "$f" .jpg).jpg" --max-size 256x256 --quality 80 $1 >/dev/null
    done
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000 ))e-6"
}

one_pass "" >/dev/null; one_pass "--no-shrink-on-load" >/dev/null   # warm-up
with=(); without=()
for _ in $(seq "$runs"); do
    with+=("$(one_pass "")")
    without+=("$(one_pass "--no-shrink-on-load")")
done
python3 - "${#files[@]}" "${with[*]}" "${without[*]}" <<'PY'
import statistics, sys
n = int(sys.argv[1]); a = [float(x) for x in sys.argv[2].split()]; b = [float(x) for x in sys.argv[3].split()]
ratios = [x / y for x, y in zip(a, b)]
print(f"{n} JPEGs, fit 256x256, {len(a)} alternating runs each (medians)")
print(f"  shrink-on-load      {statistics.median(a):7.3f} s   {n / statistics.median(a):6.1f} img/s")
print(f"  full decode         {statistics.median(b):7.3f} s   {n / statistics.median(b):6.1f} img/s")
print(f"  ratio (pairwise)    {statistics.median(ratios):7.3f}   (shrink-on-load / full decode)")
PY
