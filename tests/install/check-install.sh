#!/usr/bin/env bash
# check-install.sh BUILD_DIR PREFIX VERSION desktop|no-desktop report|no-report
# Installs BUILD_DIR into PREFIX (emptied first) and checks the installed programs and files.
set -euo pipefail
build=$1 prefix=$2 version=$3 desktop=$4 report=$5

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
prefix=$(realpath "$prefix") # as the programs see themselves through /proc/self/exe
# The installed programs must not lean on the environment of the build or of the tests.
unset DCT_DATA_DIR DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM
cd "$prefix" # any folder but the source tree

share=$prefix/share
for f in bin/dctwin-cli share/dctwin/catalog/gpus.json share/dctwin/schema/scenario.schema.json \
    share/dctwin/examples/seed-h100-dallas-d2c.json share/man/man1/dctwin-cli.1.gz \
    share/bash-completion/completions/dctwin-cli; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done

# The installed batch program on an installed example.
out=$("$prefix/bin/dctwin-cli" eval "$share/dctwin/examples/seed-h100-dallas-d2c.json") ||
    fail "installed dctwin-cli eval exited $?"
grep -q "PUE" <<<"$out" || fail "installed dctwin-cli eval printed no PUE: $out"
echo "installed dctwin-cli eval: $(wc -l <<<"$out") lines"

# Its data is the installed one: the folder it reports, and without an installed catalog file
# the program must fail and name that file (not fall back to the source tree's data).
data=$("$prefix/bin/dctwin-cli" --print-data-dir) || fail "dctwin-cli --print-data-dir exited $?"
[ "$data" = "$share/dctwin" ] || fail "installed dctwin-cli reads its data from $data"
mv "$share/dctwin/catalog/gpus.json" "$share/dctwin/catalog/gpus.json.away"
if err=$("$prefix/bin/dctwin-cli" catalog gpu 2>&1); then
    fail "dctwin-cli read a catalog that is not the installed one: $err"
fi
report_err=""
if [ "$report" = report ] &&
    report_err=$("$prefix/bin/dctwin-report" --html "$prefix/report.html" \
        "$share/dctwin/examples/seed-h100-dallas-d2c.json" 2>&1); then
    fail "dctwin-report read a catalog that is not the installed one: $report_err"
fi
mv "$share/dctwin/catalog/gpus.json.away" "$share/dctwin/catalog/gpus.json"
grep -q "$share/dctwin/catalog/gpus.json" <<<"$err" ||
    fail "dctwin-cli did not look for its catalog in $share/dctwin: $err"
if [ "$report" = report ]; then
    grep -q "$share/dctwin/catalog/gpus.json" <<<"$report_err" ||
        fail "dctwin-report did not look for its catalog in $share/dctwin: $report_err"
fi
echo "installed dctwin-cli (and dctwin-report) read $share/dctwin"

bash -n "$share/bash-completion/completions/dctwin-cli" || fail "bash completion: syntax error"
gzip -dc "$share/man/man1/dctwin-cli.1.gz" | grep -q "^\.TH DCTWIN-CLI 1 .*DC Twin $version" ||
    fail "dctwin-cli.1 does not name version $version in .TH"

if [ "$report" = report ]; then
    [ "$("$prefix/bin/dctwin-report" --version)" = "dctwin-report $version" ] ||
        fail "dctwin-report --version: $("$prefix/bin/dctwin-report" --version 2>&1)"
    [ -e "$share/man/man1/dctwin-report.1.gz" ] || fail "not installed: dctwin-report.1.gz"
fi

if [ "$desktop" = desktop ]; then
    # --version and --help answer without a display (no DISPLAY, no QT_QPA_PLATFORM).
    [ "$("$prefix/bin/dctwin" --version)" = "dctwin $version" ] ||
        fail "dctwin --version: $("$prefix/bin/dctwin" --version 2>&1)"
    "$prefix/bin/dctwin" --help | grep -q -- "--screenshots" || fail "dctwin --help"
    gzip -dc "$share/man/man1/dctwin.1.gz" | grep -q "^\.TH DCTWIN 1 .*DC Twin $version" ||
        fail "dctwin.1 does not name version $version in .TH"
    desktop_file=$share/applications/dctwin.desktop
    metainfo=$share/metainfo/io.dctwin.DCTwin.metainfo.xml
    [ -e "$desktop_file" ] || fail "not installed: $desktop_file"
    [ -e "$share/icons/hicolor/scalable/apps/dctwin.svg" ] || fail "not installed: icon"
    [ -e "$metainfo" ] || fail "not installed: $metainfo"
    grep -q "<release version=\"$version\"" "$metainfo" ||
        fail "the metainfo has no <release version=\"$version\">"
    if command -v desktop-file-validate >/dev/null; then
        desktop-file-validate "$desktop_file" || fail "desktop-file-validate $desktop_file"
        echo "desktop-file-validate: ok"
    else
        echo "desktop-file-validate not installed (apt-get install desktop-file-utils): skipped"
    fi
    if command -v appstreamcli >/dev/null; then
        appstreamcli validate --no-net "$metainfo" || fail "appstreamcli validate $metainfo"
    else
        echo "appstreamcli not installed (apt-get install appstream): skipped"
    fi
fi
echo "install check passed: $prefix"
