#!/usr/bin/env bash
# Two builds of Darkroom side by side in one run: peers.sh's T1 and T2 (`batch --jobs 1`, and T1
# with `--jobs 2`) and the pipeline micro-benchmark's memory hit, to show what a change to the
# engine costs. Each round runs both builds back to back (order swapped every other round), and
# the ratio AFTER/BEFORE is taken round by round; the report gives the median ratio of each pair.
#
#   Benchmarks/engine-ab.sh BEFORE_DIR AFTER_DIR [CORPUS_DIR]
#
# Each DIR holds `darkroom` and `PipelineBenchmark` release binaries (build them as peers.sh
# does, e.g. from a clone checked out at the older commit). RUNS=N rounds (default 9) after a
# warm-up round. Both builds are timed with peers/timed_exec (wall time from spawn to reap).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
before="${1:?usage: engine-ab.sh BEFORE_DIR AFTER_DIR [CORPUS_DIR]}"
after="${2:?usage: engine-ab.sh BEFORE_DIR AFTER_DIR [CORPUS_DIR]}"
corpus="$(cd "${3:-../shared/corpus}" && pwd)"
runs="${RUNS:-9}"
for dir in "$before" "$after"; do
    [ -x "$dir/darkroom" ] && [ -x "$dir/PipelineBenchmark" ] || { echo "engine-ab.sh: $dir needs darkroom and PipelineBenchmark" >&2; exit 1; }
done
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/timed_exec" "$root/Benchmarks/peers/timed_exec.c"
config="$root/Benchmarks/peers/filters.d"
declare -A files
for task in T1 T2; do files[$task]="$(python3 "$root/Benchmarks/peers/tasks.py" inputs "$task" "$corpus")"; done

# One timed batch: BUILD TASK JOBS → seconds on stdout.
batch() {
    local dir="$1" task="$2" jobs="$3" out="$work/out"
    local -a inputs; mapfile -t inputs <<<"${files[$task]}"
    rm -rf "$out"; mkdir -p "$out"
    "$work/timed_exec" "$work/measured" "$dir/darkroom" batch "${inputs[@]}" --variant "$(tr T t <<<"$task")" \
        --out "$out" --jobs "$jobs" --config "$config" --no-cache >/dev/null 2>&1
    cut -d' ' -f1 "$work/measured"
}
# One memory-hit median (ns) from the micro-benchmark.
hit() { "$1/PipelineBenchmark" | sed -n 's/^memory-cache hit, MemorySource[^:]*: \([0-9]*\) ns.*/\1/p'; }

: >"$work/rows"
for round in $(seq 0 "$runs"); do
    echo "engine-ab.sh: round $round of $runs" >&2
    for pair in "T1 1" "T2 1" "T1 2"; do
        set -- $pair
        if (( round % 2 )); then a=$(batch "$after" "$1" "$2"); b=$(batch "$before" "$1" "$2")
        else b=$(batch "$before" "$1" "$2"); a=$(batch "$after" "$1" "$2"); fi
        (( round > 0 )) && echo "$1 --jobs $2 (s)	$b	$a" >>"$work/rows"
    done
    if (( round % 2 )); then a=$(hit "$after"); b=$(hit "$before"); else b=$(hit "$before"); a=$(hit "$after"); fi
    (( round > 0 )) && echo "memory hit (ns)	$b	$a" >>"$work/rows"
done

python3 - "$work/rows" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, b, a = line.rstrip("\n").split("\t")
    rows.setdefault(name, []).append((float(b), float(a)))
print(f"{'measurement':<20}{'before':>12}{'after':>12}{'after/before':>16}  (medians of {len(next(iter(rows.values())))} rounds)")
for name, pairs in rows.items():
    ratio = statistics.median(a / b for b, a in pairs)
    print(f"{name:<20}{statistics.median(b for b, _ in pairs):>12.4g}{statistics.median(a for _, a in pairs):>12.4g}{ratio:>15.3f}x")
EOF
