#!/usr/bin/env bash
# Quick start: installs what is missing, builds, and evaluates every bundled example scenario
# with the batch program, then compares the seed case with its air-cooled twin.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export DCT_DATA_DIR="$PWD/data"
./build/app/cli/dctwin-cli eval data/examples/*.json
if ./build/app/cli/dctwin-cli --help 2>/dev/null | grep -q compare; then
    echo
    ./build/app/cli/dctwin-cli compare data/examples/seed-h100-dallas-d2c.json \
        data/examples/legacy-air-h100-dallas.json
fi
