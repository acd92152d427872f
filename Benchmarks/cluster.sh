#!/usr/bin/env bash
# Two darkroom-servers sharing two memcached on loopback (see Benchmarks/cluster/bench.py and
# Benchmarks/README.md, "Cluster"): requests/s, p50 and p99 for shared-layer hits against local
# memory hits, renders per distinct variant across the cluster (goal exactly 1.0), and what
# memcached being stuck or down costs a request (goal: p99 within the timeout of a render's).
#
#   Benchmarks/cluster.sh [CORPUS_DIR]          (default: ../shared/corpus)
#   RUNS=7 SECONDS_PER_RUN=10 MEMCACHED_TIMEOUT_MS=50 Benchmarks/cluster.sh
#   DARKROOM_SERVER_BIN=path Benchmarks/cluster.sh   (measure that binary instead of building one)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
corpus="${1:-../shared/corpus}"
export PYTHONDONTWRITEBYTECODE=1

die() { echo "cluster.sh: error: $*" >&2; exit 1; }
[ -d "$corpus/photos" ] || die "no corpus folder with photos/ at '$corpus' (give one as the first argument)"
corpus="$(cd "$corpus" && pwd)"
[ "$(nproc)" -ge 2 ] || die "needs two CPUs (one for the servers, one for memcached and wrk)"

# MARK: - Tools (installed only when missing)

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
for tool in wrk memcached; do
    command -v "$tool" >/dev/null && continue
    echo "cluster.sh: installing $tool (apt-get)" >&2
    as_root apt-get install -y "$tool" >/dev/null 2>&1 \
        || { as_root apt-get update >/dev/null && as_root apt-get install -y "$tool" >/dev/null; } \
        || die "could not install $tool with apt-get"
done
dpkg -s libmemcached11 >/dev/null 2>&1 || as_root apt-get install -y libmemcached11 libmemcachedutil2 >/dev/null \
    || die "could not install libmemcached with apt-get"

# MARK: - darkroom-server, release build

source "$root/Benchmarks/common/servers.sh"
release_server_binary cluster.sh

# MARK: - Run

photo_work_folder "$corpus" cluster
python3 "$root/Benchmarks/cluster/bench.py" "$work/root" "$work" "$bin" "$(command -v memcached)" \
    "$root/Benchmarks/server/paths.lua"
