# Shared by Benchmarks/server.sh and Benchmarks/cluster.sh (sourced; `die` and `root` are theirs).

# darkroom-server in release, or $DARKROOM_SERVER_BIN: sets `bin`.
release_server_binary() {  # SCRIPT_NAME
    bin="${DARKROOM_SERVER_BIN:-}"
    if [ -z "$bin" ]; then
        echo "$1: building darkroom-server (release)" >&2
        swift build -c release --product darkroom-server >/dev/null || die "release build failed"
        bin="$(swift build -c release --show-bin-path)/darkroom-server"
    fi
    [ -x "$bin" ] || die "no darkroom-server at '$bin'"
}

# A work folder (removed on exit) whose root/ holds copies of T1's photos: sets `work`.
photo_work_folder() {  # CORPUS NAME
    work="$(mktemp -d "${TMPDIR:-/tmp}/darkroom-$2-bench.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    mkdir "$work/root"
    # Copies, not links: darkroom-server refuses symbolic links that lead outside its root.
    cp "$1"/photos/*.jpg "$1"/large/*.jpg "$work/root/"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(uname -sr)"
}
