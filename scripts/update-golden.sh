#!/usr/bin/env bash
# Writes the golden evaluations (tests/golden/*.json) anew from the current model. Run it after an
# intended change of a figure; the diff of tests/golden/ is then what a reviewer reads, and the
# commit message says why each figure moved.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build --preset default --target test_golden
DCT_UPDATE_GOLDEN=1 DCT_DATA_DIR="$PWD/data" ./build/tests/golden/test_golden "[golden]" >/dev/null
git --no-pager diff --stat -- tests/golden/ || true
