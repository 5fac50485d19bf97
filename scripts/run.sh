#!/usr/bin/env bash
# Quick start: installs what is missing, builds, and evaluates every bundled example scenario
# with the batch program, then compares the seed case with its air-cooled twin.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export DCT_DATA_DIR="$PWD/data"
# Exit status 1 means a design is infeasible (the overpacked air hall is, by design): its
# figures and verdict are printed all the same. Anything else is a real failure.
status=0
./build/app/cli/dctwin-cli eval data/examples/*.json || status=$?
if [ "$status" -gt 1 ]; then
    exit "$status"
fi
if ./build/app/cli/dctwin-cli --help 2>/dev/null | grep -q compare; then
    echo
    ./build/app/cli/dctwin-cli compare data/examples/seed-h100-dallas-d2c.json \
        data/examples/legacy-air-h100-dallas.json
fi
