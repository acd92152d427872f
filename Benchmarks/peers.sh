#!/usr/bin/env bash
# Darkroom against its peers — libvips 8.18 (the newest, PyPI's pyvips-binary) and 8.14 (Debian's),
# ImageMagick, GraphicsMagick, Pillow and Pillow-SIMD (both with JPEG draft) —
# on five tasks (see Benchmarks/peers/tasks.py and Benchmarks/README.md, "Peers"):
#   T1 thumb-jpeg  photos/*.jpg + large/*.jpg  fit within 256×256, JPEG q80
#   T2 fill-jpeg   same                        aspect-fill 200×200, centre crop, JPEG q80
#   T3 thumb-png   large/*.png                 fit within 512×512, PNG (zlib level 6)
#   T4 transcode   photos/*.jpg                full-size decode, JPEG q80
#   T5 blur        photos/*.jpg                fit 1024 wide, Gaussian blur σ=4, JPEG q80
# Every tool does a whole task in ONE process, single-threaded; libvips is driven by a C program
# (peers/vips_task.c) so no interpreter is in its time. Pillow's runs include Python's start-up
# and imports, which are timed alone too (pillow-startup) and shown apart: per image without them.
# Darkroom is timed as a user builds it (`swift build -c release`: darkroom-plain) and as the
# tuned static build (darkroom). A warm-up round, then RUNS rounds
# (default 5) that alternate all tools (order reversed every other round); wall time and peak RSS
# of each process; medians and Darkroom/peer ratios taken round by round. Then every output of the
# last round is checked (size, PSNR against a Lanczos3 reference) and the goals are judged.
#
#   Benchmarks/peers.sh [CORPUS_DIR]        (default: ../shared/corpus)
#   RUNS=7 Benchmarks/peers.sh              (more rounds)
#   KEEP=1 Benchmarks/peers.sh              (keep the work folder with every output)
#   DARKROOM_BIN=path Benchmarks/peers.sh   (measure that binary as the tuned build instead of building one)
#   DARKROOM_PLAIN_BIN=path ...             (and that one as the plain `swift build -c release`)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
here="$root/Benchmarks/peers"
corpus="${1:-../shared/corpus}"
runs="${RUNS:-5}"
export PYTHONDONTWRITEBYTECODE=1

die() { echo "peers.sh: error: $*" >&2; exit 1; }
[ -d "$corpus" ] || die "no corpus folder at '$corpus' (give one as the first argument)"
corpus="$(cd "$corpus" && pwd)"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$runs'"

# MARK: - Tools (installed only when missing)

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {  # PACKAGE...
    echo "peers.sh: installing $* (apt-get)" >&2
    as_root apt-get install -y "$@" >/dev/null 2>&1 \
        || { as_root apt-get update >/dev/null && as_root apt-get install -y "$@" >/dev/null; } \
        || die "could not install $* with apt-get"
}
command -v cc >/dev/null || apt_install gcc
[ -f /usr/include/vips/vips.h ] || apt_install libvips-dev
[ -f /usr/include/zlib.h ] && [ -f /usr/include/jpeglib.h ] || apt_install zlib1g-dev libjpeg62-turbo-dev
[ -x /usr/bin/mogrify ] || apt_install imagemagick
command -v gm >/dev/null || apt_install graphicsmagick
# The real interpreter, not a version-manager shim (a shim would add its own start-up to Pillow's).
py="$(python3 -c 'import sys; print(sys.executable)')" || die "python3 is needed"
for module in PIL:pillow numpy:numpy; do
    "$py" -c "import ${module%%:*}" 2>/dev/null && continue
    echo "peers.sh: installing ${module#*:} (pip)" >&2
    "$py" -m pip install --quiet "${module#*:}" || die "could not pip install ${module#*:}"
done
# The benchmark's own virtual environments: libvips 8.18 as pyvips-binary bundles it (its shared
# library is what the C driver links), and Pillow-SIMD (which replaces Pillow, so apart; built
# from source with AVX2, as its authors advise).
venv() {  # FOLDER PACKAGE [CC]
    local folder="$1" package="$2"
    [ -x "$folder/bin/python3" ] || "$py" -m venv "$folder" || die "could not make a virtual environment in $folder"
    "$folder/bin/python3" -m pip show "${package%%=*}" >/dev/null 2>&1 && return
    echo "peers.sh: installing $package (pip, into $folder)" >&2
    CC="${3:-cc}" "$folder/bin/python3" -m pip install --quiet "$package" || die "could not pip install $package"
}
venv "$root/.build/peers-venv" "pyvips-binary==8.18.7"
venv "$root/.build/peers-venv-simd" "pillow-simd" "cc -mavx2"
py_simd="$root/.build/peers-venv-simd/bin/python3"
libvips_new="$(ls "$root"/.build/peers-venv/lib/python3*/site-packages/pyvips_binary.libs/libvips-*.so.42 2>/dev/null | head -1)"
[ -f "$libvips_new" ] || die "pyvips-binary installed no libvips shared library"

# MARK: - Darkroom, release build

# How we ship the CLI on Linux: the Swift runtime and Foundation linked statically
# (`--static-swift-stdlib`; 0.90x T1 wall time, the dynamic loader's symbol lookups across the
# Swift libraries being a third of the ~27 ms start-up), and the position-independent
# executable's 86k relative relocations packed (`-z pack-relative-relocs`, GNU ld; glibc 2.36+
# applies them in a fraction of the time: start-up 5.6 -> 4.7 ms, ASLR kept).
release_flags=(-c release --static-swift-stdlib)
if ld.bfd --help 2>/dev/null | grep -q pack-relative-relocs; then
    release_flags+=(-Xswiftc -use-ld=bfd -Xlinker -z -Xlinker pack-relative-relocs)
fi
# The C++ runtime and the unwinder that the Swift runtime needs, linked statically too: loading
# and relocating libstdc++.so and libgcc_s.so took ~1 ms of every start-up (`--version`
# 5.2 -> 4.2 ms). The toolchain asks for `-lstdc++` and `-lgcc_s` itself, so a folder searched
# first answers with one-line linker scripts that name the archives. The executable exports
# none of it, so a library that libgd loads later and needs libstdc++ gets the shared one.
static_cxx="$root/.build/static-cxx"
if [ -f "$(cc -print-file-name=libstdc++.a)" ] && [ -f "$(cc -print-file-name=libgcc_eh.a)" ]; then
    mkdir -p "$static_cxx"
    echo 'INPUT(libstdc++.a)' >"$static_cxx/libstdc++.so"
    echo 'INPUT(libgcc_eh.a)' >"$static_cxx/libgcc_s.so"
    release_flags+=(-Xswiftc -L -Xswiftc "$static_cxx")
fi
build_log="$(mktemp)"
build_note="swift build ${release_flags[*]}"
if [ -n "${DARKROOM_BIN:-}" ]; then
    bin="$DARKROOM_BIN"; build_note="DARKROOM_BIN=$bin (not built by this script)"
elif swift build "${release_flags[@]}" --scratch-path .build/peers-static --product darkroom >"$build_log" 2>&1; then
    bin="$(swift build "${release_flags[@]}" --scratch-path .build/peers-static --show-bin-path)/darkroom"
else
    # Swift 6.3.1's SIL ownership verifier crashes in CopyPropagation on
    # DarkroomConfig.CacheSettings.read(_:) in release builds; that pass off, the build succeeds.
    grep -m2 -E "error|Error in Function" "$build_log" >&2 || true
    echo "peers.sh: the release build failed (above); retrying without the SIL copy-propagation pass" >&2
    workaround=("${release_flags[@]}" --scratch-path .build/peers-workaround
        -Xswiftc -Xllvm -Xswiftc -sil-disable-pass=copy-propagation)
    swift build "${workaround[@]}" --product darkroom >"$build_log" 2>&1 \
        || { tail -20 "$build_log" >&2; die "the release build of darkroom failed"; }
    bin="$(swift build "${workaround[@]}" --show-bin-path)/darkroom"
    build_note="swift build ${workaround[*]} (plain release build crashes the compiler)"
fi
rm -f "$build_log"
[ -x "$bin" ] || die "no darkroom binary at $bin"
# As a user builds it: the README's `swift build -c release`, nothing else.
if [ -n "${DARKROOM_PLAIN_BIN:-}" ]; then
    plain_bin="$DARKROOM_PLAIN_BIN"; plain_note="DARKROOM_PLAIN_BIN=$plain_bin"
else
    swift build -c release --product darkroom >/dev/null 2>&1 || die "swift build -c release failed"
    plain_bin="$(swift build -c release --show-bin-path)/darkroom"; plain_note="swift build -c release"
fi
[ -x "$plain_bin" ] || die "no darkroom binary at $plain_bin"
config="$here/filters.d"

work="$(mktemp -d)"
if [ "${KEEP:-0}" = 1 ]; then echo "peers.sh: outputs kept in $work" >&2; else trap 'rm -rf "$work"' EXIT; fi
# The timer: spawns a tool, waits, and records its wall time and peak RSS (timed_exec.c).
timer="$work/timed_exec"
cc -O2 -o "$timer" "$here/timed_exec.c" || die "could not compile Benchmarks/peers/timed_exec.c"
# libvips's driver, against Debian's headers: linked with Debian's libvips and with the bundled one.
vips_814="$work/vips_task_814" vips_818="$work/vips_task_818"
# shellcheck disable=SC2046
cc -O2 -o "$vips_814" "$here/vips_task.c" $(pkg-config --cflags --libs vips) || die "could not compile vips_task.c"
# shellcheck disable=SC2046
cc -O2 -o "$vips_818" "$here/vips_task.c" $(pkg-config --cflags vips) "$libvips_new" -Wl,-rpath,"$(dirname "$libvips_new")" \
    || die "could not link vips_task.c with $libvips_new"

# MARK: - One run of one tool on one task

tasks=(T1 T2 T3 T4 T5)
tools=(darkroom darkroom-plain vips-8.18 vips-8.14 imagemagick graphicsmagick pillow-draft pillow-simd-draft
    pillow-startup pillow-simd-startup)
declare -A files_of
for task in "${tasks[@]}"; do
    files_of[$task]="$("$py" "$here/tasks.py" inputs "$task" "$corpus")" || die "no inputs for $task"
done

# Sets `cmd` to the command line of TOOL doing TASK into OUT (run with the corpus as working folder)
# and `envs` to the NAME=VALUE settings it runs with.
command_for() {  # TASK TOOL OUT
    local task="$1" tool="$2" out="$3" variant ext
    envs=()
    local -a files relative
    mapfile -t files <<<"${files_of[$task]}"
    relative=("${files[@]#"$corpus"/}")
    variant="$(tr 'T' 't' <<<"$task")"
    ext=jpg; [ "$task" = T3 ] && ext=png
    local -A fit=([T1]=256x256 [T3]=512x512)
    case "$tool" in
    darkroom | darkroom-j2 | darkroom-plain)
        local jobs=1 program="$bin"; [ "$tool" = darkroom-j2 ] && jobs=2; [ "$tool" = darkroom-plain ] && program="$plain_bin"
        cmd=("$program" batch "${files[@]}" --variant "$variant" --out "$out" --jobs "$jobs" --config "$config" --no-cache) ;;
    vips-8.18) envs=(VIPS_CONCURRENCY=1); cmd=("$vips_818" "$task" "$out" "${files[@]}") ;;
    vips-8.14) envs=(VIPS_CONCURRENCY=1); cmd=("$vips_814" "$task" "$out" "${files[@]}") ;;
    imagemagick | graphicsmagick)
        local -a ops
        case "$task" in
        T1 | T3) ops=(-resize "${fit[$task]}") ;;
        T2) ops=(-resize '200x200^' -gravity center -extent 200x200) ;;
        T4) ops=() ;;
        T5) ops=(-resize 1024x16384 -blur 0x4) ;;
        esac
        if [ "$task" = T3 ]; then ops+=(-define png:compression-level=6); else ops+=(-quality 80); fi
        if [ "$tool" = imagemagick ]; then
            envs=(MAGICK_THREAD_LIMIT=1); cmd=(/usr/bin/mogrify -limit thread 1 -path "$out" -format "$ext"
                -filter Lanczos "${ops[@]}" -strip "${files[@]}")
        else  # gm writes OUT/RELATIVE-PATH, hence relative inputs
            envs=(OMP_NUM_THREADS=1); cmd=(gm mogrify -limit threads 1 -output-directory "$out" -create-directories
                -format "$ext" -filter Lanczos "${ops[@]}" +profile '*' "${relative[@]}")
        fi ;;
    pillow-draft)
        cmd=("$py" "$here/pillow_task.py" "$task" "$out" "${files[@]}") ;;
    pillow-simd-draft)
        cmd=("$py_simd" "$here/pillow_task.py" "$task" "$out" "${files[@]}") ;;
    pillow-startup | pillow-simd-startup)  # the interpreter and the imports alone, no image
        local python="$py"; [ "$tool" = pillow-simd-startup ] && python="$py_simd"
        cmd=("$python" "$here/pillow_task.py" --startup-only) ;;
    *) die "unknown tool $tool" ;;
    esac
}

# Runs TOOL on TASK once into a fresh folder; appends "round task tool seconds peak-KiB" to timings.
timed_run() {  # ROUND TASK TOOL
    local round="$1" task="$2" tool="$3" out="$work/out/$2/$3" seconds rss
    rm -rf "$out"; mkdir -p "$out"
    command_for "$task" "$tool" "$out"
    # The tool's environment is set before the clock starts (no `env` process in the timing).
    if ! (cd "$corpus" && env "${envs[@]}" "$timer" "$work/measured" "${cmd[@]}") >"$work/log" 2>&1; then
        tail -15 "$work/log" >&2
        die "$tool failed on $task: ${cmd[*]}"
    fi
    read -r seconds rss <"$work/measured"
    # Darkroom's own figure too: the seconds its batch summary reports (rendering only,
    # without process start-up and exit); "-" for the peers.
    local own=-
    case "$tool" in darkroom*) own=$(sed -n 's/^batch: .* files written, \([0-9.]*\) s, .*/\1/p' "$work/log" | tail -1) ;; esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$task" "$tool" "$seconds" "$rss" "${own:--}" >>"$work/timings.tsv"
}

# MARK: - Rounds

echo "peers.sh: darkroom = $bin; corpus = $corpus; warm-up + $runs rounds" >&2
: >"$work/timings.tsv"
for round in $(seq 0 "$runs"); do   # round 0 is the warm-up, dropped by the report
    echo "peers.sh: round $round of $runs" >&2
    for task in "${tasks[@]}"; do
        # T1 also runs darkroom --jobs 2, right after --jobs 1 (before it in reversed rounds): a
        # pair run back to back sees the same host, and their ratio is the one judged.
        order=("${tools[@]}"); [ "$task" = T1 ] && order=(darkroom darkroom-j2 "${tools[@]:1}")
        if (( round % 2 == 1 )); then
            for (( i = ${#order[@]} - 1; i >= 0; i-- )); do timed_run "$round" "$task" "${order[$i]}"; done
        else
            for tool in "${order[@]}"; do timed_run "$round" "$task" "$tool"; done
        fi
    done
done

# The same Darkroom chains rendered to PNG (untimed), for the lossless quality check.
for task in T1 T2 T4 T5; do
    variant="$(tr 'T' 't' <<<"$task")-png"
    mapfile -t files <<<"${files_of[$task]}"
    "$bin" batch "${files[@]}" --variant "$variant" --out "$work/png/$task" --jobs 1 --config "$config" --no-cache \
        >"$work/log" 2>&1 || { tail -15 "$work/log" >&2; die "darkroom failed on the PNG twin $variant"; }
done
cp -r "$work/out/T3/darkroom" "$work/png/T3"
# libvips 8.18's T1/T2 as PNG too, to tell resampling error from JPEG loss.
for task in T1 T2; do
    mkdir -p "$work/vips-png/$task"
    mapfile -t files <<<"${files_of[$task]}"
    VIPS_CONCURRENCY=1 "$vips_818" "$task-png" "$work/vips-png/$task" "${files[@]}" >"$work/log" 2>&1 \
        || { tail -15 "$work/log" >&2; die "vips failed on the PNG twin of $task"; }
done

# MARK: - Report

echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(uname -sr)"
echo "darkroom: $build_note; darkroom-plain: $plain_note; $("$bin" --version 2>/dev/null || git rev-parse --short HEAD)"
echo "peers: vips-8.18 = $("$vips_818" --version) (pyvips-binary); vips-8.14 = $("$vips_814" --version) (Debian); $(/usr/bin/mogrify -version | head -1 | cut -d' ' -f2-3); $(gm version | head -1 | cut -d' ' -f1-2); Pillow $("$py" -c 'import PIL; print(PIL.__version__)'); Pillow-SIMD $("$py_simd" -c 'import PIL; print(PIL.__version__)')"
"$py" "$here/report.py" "$work" "$corpus" "$runs"
