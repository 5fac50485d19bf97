#!/usr/bin/env bash
# Renders the reports a planner gets, a single-scenario report and a comparison report, to PDF
# with dctwin-cli and turns every page into a small PNG (pdftoppm) under docs/report-pages/, so
# the pages can be looked at without running the program.
#   scripts/report-pages.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, docs/report-pages)
# Needs poppler-utils (pdftoppm). The PNGs are 50 dpi: readable, and a few MB in all.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
out="${2:-docs/report-pages}"
cli="$build/app/cli/dctwin-cli"
resolution="${DCT_REPORT_PAGES_DPI:-50}"
[ -x "$cli" ] || { echo "report-pages.sh: $cli not found: build first" >&2; exit 1; }
command -v pdftoppm >/dev/null || { echo "report-pages.sh: pdftoppm not found (poppler-utils)" >&2; exit 1; }
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -f "$out"/single-*.png "$out"/comparison-*.png
examples=data/examples
# The seed case alone, then the seed against the same racks packed under air cooling.
"$cli" report --pdf "$work/single.pdf" "$examples/seed-h100-dallas-d2c.json"
"$cli" report --pdf "$work/comparison.pdf" "$examples/seed-h100-dallas-d2c.json" \
    "$examples/overpacked-air-h100-dallas.json"
for name in single comparison; do
    pdftoppm -png -r "$resolution" "$work/$name.pdf" "$out/$name"
done
ls "$out"/*.png | wc -l | xargs echo "report-pages.sh: pages written to $out:"
du -sh "$out"
