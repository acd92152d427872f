# Sourced by scripts/demo, scripts/test and .ci/run: the system and Python packages Darkroom
# needs, and one way to install what is missing. Quiet when everything is installed.

# MARK: - What each command needs

# To build Darkroom and run the `darkroom` tool (libgd, libcurl and libmemcached are loaded on
# first use; their -dev packages bring the shared libraries and keep the headers at hand).
DARKROOM_BUILD_PACKAGES=(
    libgd-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libtiff-dev libdeflate-dev libcurl4-openssl-dev
    libmemcached-dev pkg-config
)

# To run the tests as well: the loopback HTTP/1.1 and HTTP/2 origins (python3, python3-h2),
# ImageMagick as a reference decoder, real memcached servers, pip for moto (the S3 server),
# systemd's tools some server tests use, exiftool and webpinfo, which read back the metadata
# `strip = false` keeps, and gifsicle, which writes the animation tests' disposal variants (and is
# the animation benchmark's peer).
DARKROOM_TEST_PACKAGES=(
    "${DARKROOM_BUILD_PACKAGES[@]}"
    python3 python3-h2 python3-pip imagemagick memcached systemd libimage-exiftool-perl webp gifsicle
)

# The S3-compatible server the s3:// source tests start (moto's server mode checks SigV4).
DARKROOM_PYTHON_PACKAGES=('moto[s3,iam]==5.2.5' flask flask-cors)

# MARK: - Installing what is missing

# Prints the packages of "$@" that dpkg does not list as installed.
darkroom_missing_packages() {
    local package
    for package in "$@"; do
        if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]; then
            printf '%s\n' "$package"
        fi
    done
}

# Prints how to run "$@" as root ("" when this is root, "sudo" when sudo may be used), or
# fails when neither is possible.
darkroom_root_prefix() {
    if [ "$(id -u)" -eq 0 ]; then
        printf '\n'
    elif command -v sudo > /dev/null 2>&1; then
        printf 'sudo\n'
    else
        return 1
    fi
}

# Installs the Debian packages of "$@" that are missing: apt-get as root, else through sudo,
# else prints the exact command to run and fails. Does nothing (and prints nothing) when all
# are installed.
darkroom_require_packages() {
    if ! command -v dpkg-query > /dev/null 2>&1; then
        echo "darkroom: no dpkg here; install the equivalents of: $*" >&2
        return 0
    fi
    local missing
    missing=$(darkroom_missing_packages "$@" | tr '\n' ' ')
    [ -z "$missing" ] && return 0
    local prefix
    if ! prefix=$(darkroom_root_prefix); then
        echo "darkroom: missing system packages; as root, run:" >&2
        echo "  apt-get update && apt-get install -y --no-install-recommends $missing" >&2
        return 1
    fi
    echo "darkroom: installing $missing" >&2
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $prefix apt-get update -qq > /dev/null \
        && DEBIAN_FRONTEND=noninteractive $prefix apt-get install -y -qq --no-install-recommends $missing > /dev/null
}

# Installs moto and its server's dependencies for the python3 first on PATH when it cannot
# import them yet (the tests look for moto there, then in /usr/bin/python3).
darkroom_require_python_packages() {
    if python3 -c 'import moto.server, flask, flask_cors' > /dev/null 2>&1; then
        return 0
    fi
    echo "darkroom: installing ${DARKROOM_PYTHON_PACKAGES[*]} with pip" >&2
    python3 -m pip install --quiet --break-system-packages "${DARKROOM_PYTHON_PACKAGES[@]}"
}
