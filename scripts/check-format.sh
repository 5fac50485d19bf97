#!/usr/bin/env bash
# Checks that every tracked .cpp/.h file is formatted as .clang-format says (clang-format 14, the
# version of Debian 12), without changing anything. Prints the offending files (and, with -v,
# what clang-format would change) and exits 1 if there are any.
#   scripts/check-format.sh        # the whole tree
#   scripts/check-format.sh -v     # also the diff of each offender
#   scripts/check-format.sh FILE.. # only these files
# To fix a file: clang-format-14 -i FILE (the tree is reformatted in one commit, not piecemeal).
set -euo pipefail
cd "$(dirname "$0")/.."

verbose=0
if [ "${1:-}" = "-v" ]; then
    verbose=1
    shift
fi

# Pinned to clang-format 14 (Debian 12's clang-format-14, installed by scripts/setup.sh): other
# versions format the same .clang-format differently, so their verdict would not be the tree's.
required=14
clang_format=""
for c in clang-format-$required clang-format; do
    if command -v "$c" >/dev/null; then
        clang_format=$c
        break
    fi
done
if [ -z "$clang_format" ]; then
    echo "check-format: clang-format $required not found (apt-get install clang-format-$required)" >&2
    exit 2
fi
version=$("$clang_format" --version)
if ! [[ $version =~ clang-format\ version\ $required\. ]]; then
    echo "check-format: $clang_format is not clang-format $required (it says: $version);" \
        "the tree is formatted with clang-format $required: apt-get install clang-format-$required" >&2
    exit 2
fi

if [ $# -gt 0 ]; then
    files=("$@")
else
    mapfile -t files < <(git ls-files -- '*.cpp' '*.h')
fi

offenders=()
for f in "${files[@]}"; do
    if ! "$clang_format" --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then
        offenders+=("$f")
        if [ "$verbose" -eq 1 ]; then
            diff -u "$f" <("$clang_format" --style=file "$f") \
                --label "$f" --label "$f (clang-format)" || true
        fi
    fi
done

echo "check-format: $("$clang_format" --version | head -n1)"
if [ ${#offenders[@]} -gt 0 ]; then
    echo "check-format: ${#offenders[@]} of ${#files[@]} files are not formatted:"
    printf '  %s\n' "${offenders[@]}"
    exit 1
fi
echo "check-format: all ${#files[@]} files are formatted"
