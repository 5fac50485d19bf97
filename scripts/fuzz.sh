#!/usr/bin/env bash
# Fuzzes the readers of user files with libFuzzer (docs/fuzzing.md): installs clang and its
# runtime if missing, configures build-fuzz/ with clang and DCT_BUILD_FUZZERS=ON (ASan + UBSan),
# builds only the fuzz targets, then runs each for SECONDS (default 60) on its seed corpus
# (tests/fuzz/corpus/<target>/) and its working corpus (build-fuzz/corpus/<target>/, kept from
# run to run: new inputs that reach new code are added there).
# A crash, sanitizer report, timeout or memory blow-up leaves its input in
# build-fuzz/crashes/<target>/ and makes the script exit 1 once every target has run.
# With DCT_FUZZ_RUNS=N (and DCT_FUZZ_SEED, default 1) each target runs at most N inputs from a
# fixed seed, SECONDS being only a cap: the same inputs on every machine (the CI gate).
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: $0 [SECONDS]   (seconds per target, default 60)" >&2
    exit 2
fi
targets=(scenario scenariofields sweepspec store nccltestslog)

packages=(clang-14 libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "fuzz: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCT_BUILD_FUZZERS=ON -DDCT_BUILD_UI=OFF \
    -DDCT_BUILD_BENCHMARKS=OFF "${launcher[@]}" >/dev/null
cmake --build build-fuzz --target dct_fuzzers -j 2

export DCT_DATA_DIR="$root/data"
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
failed=()
for target in "${targets[@]}"; do
    corpus="build-fuzz/corpus/$target"
    crashes="build-fuzz/crashes/$target"
    mkdir -p "$corpus" "$crashes"
    echo "=== fuzz: $target for ${seconds} s ==="
    # -timeout: one input may take 10 s (an evaluation takes milliseconds); -rss_limit_mb: 2 GB,
    # half of a small CI machine. New inputs go to the first folder, the working corpus.
    inputs=("$corpus" "tests/fuzz/corpus/$target")
    [ -d "tests/fuzz/regressions/$target" ] && inputs+=("tests/fuzz/regressions/$target")
    bounded=()
    if [ -n "${DCT_FUZZ_RUNS:-}" ]; then
        bounded=(-runs="$DCT_FUZZ_RUNS" -seed="${DCT_FUZZ_SEED:-1}")
    fi
    if ! "build-fuzz/tests/fuzz/fuzz_$target" -max_total_time="$seconds" "${bounded[@]}" -timeout=10 \
        -rss_limit_mb=2048 -dict=tests/fuzz/json.dict -artifact_prefix="$crashes/" \
        -print_final_stats=1 "${inputs[@]}" 2>"build-fuzz/fuzz-$target.log"; then
        failed+=("$target")
        tail -n 60 "build-fuzz/fuzz-$target.log"
        echo "fuzz: $target failed; the input is in $crashes/ (full log build-fuzz/fuzz-$target.log)"
    else
        grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::new_units_added)" \
            "build-fuzz/fuzz-$target.log" || true
    fi
    echo "fuzz: $target: $(find "$corpus" -type f | wc -l) inputs in the working corpus"
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]}"
    exit 1
fi
echo "fuzz: every target ran ${seconds} s without a crash"
