#!/usr/bin/env bash
# Fuzzes the readers of user files with libFuzzer (docs/fuzzing.md).
#
#   scripts/fuzz.sh [SECONDS]     installs clang and its runtime if missing, configures build-fuzz/
#                                 with clang and DCT_BUILD_FUZZERS=ON (ASan + UBSan), builds only
#                                 the fuzz targets, then fuzzes each for SECONDS (default 60)
#   scripts/fuzz.sh --merge       minimizes what fuzzing found (build-fuzz/corpus/) into the
#                                 committed corpus tests/fuzz/corpus/ (then review and commit it)
#   scripts/fuzz.sh --list-seeds  prints "TARGET FILE" for every file of the repository that seeds
#                                 a target (tests/fuzz/seeds.txt), and exits
#
# Each target starts from
#   - the repository's own files that tests/fuzz/seeds.txt names (the bundled examples, sweep
#     specs and recipes, every nccl-tests log), read where they are at every run: no copies;
#   - tests/fuzz/corpus/<target>/, the committed corpus: hand-written edge cases and the
#     minimized inputs of earlier runs (--merge);
#   - tests/fuzz/regressions/<target>/, the inputs of defects fuzzing found;
#   - build-fuzz/corpus/<target>/, the working corpus kept from run to run, where new inputs that
#     reach new code are added.
# A crash, sanitizer report, timeout or memory blow-up leaves its input in
# build-fuzz/crashes/<target>/ and makes the script exit 1 once every target has run.
# With DCT_FUZZ_RUNS=N (and DCT_FUZZ_SEED, default 1) each target runs at most N inputs from a
# fixed seed, SECONDS being only a cap: the same inputs on every machine (the CI gate).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

targets=(scenario scenariofields sweepspec store nccltestslog)

# Prints "TARGET FILE" (FILE relative to the source tree) for every seed seeds.txt gives.
list_seeds() {
    local target folder pattern file
    while read -r target folder pattern; do
        [[ -z $target || $target == \#* ]] && continue
        for file in "$folder"/$pattern; do
            [ -f "$file" ] && echo "$target $file"
        done
    done <tests/fuzz/seeds.txt
    return 0
}

# Copies the seeds of target $1 into folder $2 (made empty first), each named after its path.
stage_seeds() {
    local target=$1 dir=$2 t file
    rm -rf "$dir"
    mkdir -p "$dir"
    while read -r t file; do
        [ "$t" = "$target" ] && cp "$file" "$dir/${file//\//_}"
    done < <(list_seeds)
    return 0
}

mode=fuzz
case "${1:-}" in
--list-seeds)
    list_seeds
    exit 0
    ;;
--merge) mode=merge ;;
esac

if [ "$mode" = merge ]; then
    # libFuzzer's -merge=1 OUT IN... adds to OUT only the inputs of IN that reach code OUT does
    # not. OUT starts as what is kept anyway (the seeds and the hand-written inputs, whose names
    # say what they test), so only the new finds of the working corpus and of earlier merges
    # (named by their SHA-1) are added, each once; earlier finds that no longer add anything go.
    for target in "${targets[@]}"; do
        fuzzer="build-fuzz/tests/fuzz/fuzz_$target"
        if [ ! -x "$fuzzer" ] || [ ! -d "build-fuzz/corpus/$target" ]; then
            echo "fuzz: --merge: no $fuzzer or build-fuzz/corpus/$target: run scripts/fuzz.sh first" >&2
            exit 2
        fi
    done
    for target in "${targets[@]}"; do
        committed="tests/fuzz/corpus/$target"
        work="build-fuzz/merge/$target"
        mkdir -p "$committed"
        stage_seeds "$target" "$work/kept"
        found=()
        for file in "$committed"/*; do
            [ -f "$file" ] || continue
            if [[ $(basename "$file") =~ ^[0-9a-f]{40}$ ]]; then
                found+=("$file")
            else
                cp "$file" "$work/kept/"
            fi
        done
        rm -rf "$work/out" "$work/found"
        cp -r "$work/kept" "$work/out"
        mkdir -p "$work/found"
        [ ${#found[@]} -gt 0 ] && cp "${found[@]}" "$work/found/"
        inputs=("$work/found" "build-fuzz/corpus/$target")
        [ -d "tests/fuzz/regressions/$target" ] && inputs+=("tests/fuzz/regressions/$target")
        if ! DCT_DATA_DIR="$root/data" "build-fuzz/tests/fuzz/fuzz_$target" -merge=1 -timeout=10 \
            -rss_limit_mb=2048 "$work/out" "${inputs[@]}" 2>"build-fuzz/merge-$target.log"; then
            tail -n 30 "build-fuzz/merge-$target.log"
            echo "fuzz: --merge: $target failed (build-fuzz/merge-$target.log)" >&2
            exit 1
        fi
        [ ${#found[@]} -gt 0 ] && rm -f "${found[@]}"
        for file in "$work/out"/*; do
            [ -e "$work/kept/$(basename "$file")" ] || cp "$file" "$committed/"
        done
        echo "fuzz: $target: $(find "$committed" -type f | wc -l) inputs," \
            "$(du -sk "$committed" | cut -f1) kB in $committed"
    done
    echo "fuzz: review with git status and commit tests/fuzz/corpus/ (keep it small: a few" \
        "hundred kB in all; inputs that only grow it are not worth keeping)"
    exit 0
fi

seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: $0 [SECONDS] | --merge | --list-seeds   (SECONDS per target, default 60)" >&2
    exit 2
fi

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
    -DDCT_BUILD_BENCHMARKS=OFF -DDCT_PRECOMPILE_HEADERS=OFF "${launcher[@]}" >/dev/null
cmake --build build-fuzz --target dct_fuzzers -j 2

export DCT_DATA_DIR="$root/data"
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
bounded=()
budget="for up to ${seconds} s each"
if [ -n "${DCT_FUZZ_RUNS:-}" ]; then
    bounded=(-runs="$DCT_FUZZ_RUNS" -seed="${DCT_FUZZ_SEED:-1}")
    budget="${DCT_FUZZ_RUNS} inputs each from seed ${DCT_FUZZ_SEED:-1} (a cap of ${seconds} s each)"
fi
failed=()
for target in "${targets[@]}"; do
    corpus="build-fuzz/corpus/$target"
    crashes="build-fuzz/crashes/$target"
    mkdir -p "$corpus" "$crashes"
    stage_seeds "$target" "build-fuzz/seeds/$target"
    echo "=== fuzz: $target, $budget ==="
    # -timeout: one input may take 10 s (an evaluation takes milliseconds); -rss_limit_mb: 2 GB,
    # half of a small CI machine. New inputs go to the first folder, the working corpus.
    inputs=("$corpus" "tests/fuzz/corpus/$target" "build-fuzz/seeds/$target")
    [ -d "tests/fuzz/regressions/$target" ] && inputs+=("tests/fuzz/regressions/$target")
    start=$SECONDS
    if ! "build-fuzz/tests/fuzz/fuzz_$target" -max_total_time="$seconds" "${bounded[@]}" -timeout=10 \
        -rss_limit_mb=2048 -dict=tests/fuzz/json.dict -artifact_prefix="$crashes/" \
        -print_final_stats=1 "${inputs[@]}" 2>"build-fuzz/fuzz-$target.log"; then
        failed+=("$target")
        tail -n 60 "build-fuzz/fuzz-$target.log"
        echo "fuzz: $target failed; the input is in $crashes/ (full log build-fuzz/fuzz-$target.log)"
    else
        units=$(awk '/^stat::number_of_executed_units/ {print $2}' "build-fuzz/fuzz-$target.log")
        added=$(awk '/^stat::new_units_added/ {print $2}' "build-fuzz/fuzz-$target.log")
        echo "fuzz: $target: ${units:-?} inputs run in $((SECONDS - start)) s, ${added:-?} new" \
            "ones kept; $(find "$corpus" -type f | wc -l) inputs in the working corpus"
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]}"
    exit 1
fi
echo "fuzz: no crash in any target ($budget)"
