#!/usr/bin/env bash
# Installs the Debian packages DC Twin needs (only those missing), then configures and builds
# the project in build/ with the default preset. Safe to run again: it does only what is left.
# scripts/setup.sh --packages-only: only the packages.
# clang-format is pinned to version 14 (clang-format-14, Debian 12's): another version formats
# the same .clang-format differently, and scripts/check-format.sh refuses it.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    build-essential cmake ninja-build lld
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libqt6sql6-sqlite
    libeigen3-dev libboost-graph-dev libsqlite3-dev nlohmann-json3-dev catch2
    libcli11-dev libexpected-dev libfmt-dev libbenchmark-dev
    xvfb xauth poppler-utils fonts-dejavu-core libxkbcommon-dev
    clang-format-14 desktop-file-utils appstream
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

[ "${1:-}" = "--packages-only" ] && exit 0

if [ ! -f build/CMakeCache.txt ]; then
    cmake --preset default >/dev/null
fi
cmake --build --preset default
