#!/usr/bin/env bash
# Runs one CI gate (.ci/run runs them all, in this order):
#   test     the README's test command: scripts/test.sh (setup, build and ctest of the default
#            preset, in build/)
#   dev      the dev preset (Debug, assertions, full warning set) with warnings as errors, and
#            its tests (build-dev/)
#   asan     the asan preset (the dev preset's Debug build, assertions and warning set, with ASan +
#            UBSan + LeakSanitizer) with warnings as errors, and its tests (build-asan/): it
#            checks all that the dev gate checks, which .ci/run therefore does not run; the
#            collectives engine, its calibration and the site year at -O1 (DCT_OPTIMIZE_HOT_PATHS)
#   format   clang-format 14 --dry-run --Werror on every tracked .cpp/.h (scripts/check-format.sh;
#            it refuses any other clang-format version)
#   package  the .deb from build/ (cpack), installed with apt-get and run from /usr/bin: every
#            program's --version, an evaluation, and the data read from /usr/share/dctwin
#   fuzz     libFuzzer on the readers of user files: DCT_FUZZ_RUNS (default 20000) inputs per
#            target from seed DCT_FUZZ_SEED (default 1), under a cap of DCT_FUZZ_SECONDS (default
#            120) per target (scripts/fuzz.sh: clang, build-fuzz/; the working corpus is kept there)
# Usage: scripts/ci-gate.sh NAME [NAME...]; prints the time each gate takes; exits 1 if any failed.
# With DCT_CI_CLEAN=1 (.ci/run sets it) a gate's build tree is deleted once no later gate needs
# it (dev: build-dev/, asan: build-asan/, package: build/), so that only one tree is on disk at a
# time: CI machines have run out of disk with all three (about 10 GB even with compressed
# debug information).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
jobs=2

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

gate_test() {
    ./scripts/test.sh
}

# Configures PRESET (extra cache variables after it), builds everything it can (ninja -k 0, so
# that one run shows every error it can reach) and runs its tests when the build succeeded.
build_and_test() {
    local preset=$1
    shift
    cmake --preset "$preset" "$@" >/dev/null || return 1
    if ! cmake --build --preset "$preset" -j "$jobs" -- -k 0; then
        echo "ci: $preset: the build failed (errors above); tests not run"
        return 1
    fi
    ctest --preset "$preset" -j "$jobs"
}

gate_dev() {
    ./scripts/setup.sh --packages-only || return 1
    # Benchmarks are not tests (not registered with ctest, no warning set): not built here.
    build_and_test dev -DDCT_WARNINGS_AS_ERRORS=ON -DDCT_BUILD_BENCHMARKS=OFF
}

gate_asan() {
    ./scripts/setup.sh --packages-only || return 1
    # Set for the build too: catch_discover_tests runs every test program right after linking.
    export ASAN_OPTIONS="detect_leaks=1"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
    build_and_test asan -DDCT_WARNINGS_AS_ERRORS=ON # the preset has DCT_BUILD_BENCHMARKS=OFF
}

gate_format() {
    ./scripts/setup.sh --packages-only || return 1
    ./scripts/check-format.sh
}

gate_package() {
    ./scripts/setup.sh || return 1 # builds build/ if the test gate did not
    rm -f build/dctwin_*.deb
    (cd build && cpack) || return 1
    local deb
    deb=$(ls build/dctwin_*.deb) || return 1
    dpkg-deb --info "$deb"
    dpkg-deb --contents "$deb"
    # A package of the same version already installed would not be replaced: remove it first.
    if dpkg-query -W -f='${Status}' dctwin 2>/dev/null | grep -q "install ok installed"; then
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq dctwin >/dev/null
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y ./build/dctwin_*.deb || return 1
    local status=0
    # The installed programs, away from the source tree and without its environment (no display
    # either: --version answers without one).
    local run=(env -u DCT_DATA_DIR -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM -C /)
    local program
    for program in dctwin-cli dctwin-report dctwin; do
        "${run[@]}" "/usr/bin/$program" --version || {
            echo "ci: package: the installed $program --version failed"
            status=1
        }
    done
    "${run[@]}" /usr/bin/dctwin-cli eval /usr/share/dctwin/examples/seed-h100-dallas-d2c.json ||
        status=1
    # The installed programs read the installed data, never the source tree's data/ (the
    # programs fall back to the folder they were built from when <prefix>/share/dctwin has no
    # catalog): the data folder dctwin-cli reports, and, with an installed catalog file moved
    # away, both batch programs fail naming the installed file.
    local data
    data=$("${run[@]}" /usr/bin/dctwin-cli --print-data-dir)
    if [ "$data" != /usr/share/dctwin ]; then
        echo "ci: package: the installed dctwin-cli reads its data from '$data', not /usr/share/dctwin"
        status=1
    fi
    local gpus=/usr/share/dctwin/catalog/gpus.json out
    $sudo mv "$gpus" "$gpus.away" || return 1
    for program in "dctwin-cli catalog gpu" \
        "dctwin-report --html /tmp/dctwin-package-gate.html /usr/share/dctwin/examples/seed-h100-dallas-d2c.json"; do
        # shellcheck disable=SC2086 # the program and its arguments
        if out=$("${run[@]}" /usr/bin/$program 2>&1) || ! grep -qF "$gpus" <<<"$out"; then
            echo "ci: package: without $gpus, '$program' did not fail naming it: $out"
            status=1
        fi
    done
    $sudo mv "$gpus.away" "$gpus" || return 1
    rm -f /tmp/dctwin-package-gate.html
    [ $status -eq 0 ] && echo "ci: package: the installed programs read /usr/share/dctwin"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq dctwin >/dev/null || status=1
    return $status
}

gate_fuzz() {
    ./scripts/setup.sh --packages-only || return 1
    # A fixed seed and a fixed number of inputs per target (DCT_FUZZ_RUNS), under a time cap:
    # the gate fuzzes the same inputs on every machine, so what it finds reproduces, and a
    # passing commit does not fail later by chance. Longer exploratory runs: scripts/fuzz.sh N.
    DCT_FUZZ_RUNS="${DCT_FUZZ_RUNS:-20000}" DCT_FUZZ_SEED="${DCT_FUZZ_SEED:-1}" \
        ./scripts/fuzz.sh "${DCT_FUZZ_SECONDS:-120}" # installs clang and its runtime if missing
}

if [ $# -eq 0 ]; then
    echo "usage: $0 test|dev|asan|format|package|fuzz [...]" >&2
    exit 2
fi
for name in "$@"; do
    if ! declare -F "gate_$name" >/dev/null; then
        echo "ci: unknown gate '$name' (test, dev, asan, format, package, fuzz)" >&2
        exit 2
    fi
done

# The build tree a gate leaves that no later gate reads (package reads the test gate's build/).
tree_of_gate() {
    case $1 in
    dev) echo build-dev ;;
    asan) echo build-asan ;;
    package) echo build ;;
    esac
}

disk_free() {
    df -h --output=avail "$root" | tail -1 | tr -d ' '
}

failed=()
summary=()
for name in "$@"; do
    echo
    echo "=== ci: gate $name ($(date -u +%H:%M:%S) UTC, $(disk_free) free on disk) ==="
    start=$SECONDS
    (cd "$root" && "gate_$name")
    status=$?
    tree=$(tree_of_gate "$name")
    if [ "${DCT_CI_CLEAN:-0}" = 1 ] && [ -n "$tree" ] && [ -d "$root/$tree" ]; then
        echo "ci: $name: $(du -sh "$root/$tree" | cut -f1) in $tree/, deleted (DCT_CI_CLEAN=1)"
        rm -rf "${root:?}/$tree"
    fi
    elapsed=$((SECONDS - start))
    result=passed
    if [ $status -ne 0 ]; then
        result=FAILED
        failed+=("$name")
    fi
    line=$(printf "%-8s %-6s %3dm%02ds" "$name" "$result" $((elapsed / 60)) $((elapsed % 60)))
    summary+=("$line")
    echo "=== ci: gate $line ==="
done

echo
echo "=== ci: summary ==="
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "ci: failed gates: ${failed[*]}"
    exit 1
fi
echo "ci: all gates passed"
