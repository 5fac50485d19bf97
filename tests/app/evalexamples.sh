#!/bin/bash
# Runs the real `dctwin-cli eval` on scenario files, as a user does, and checks its exit code and
# the verdict it prints for each file (the line after "Scenario: ...  [FILE]"). Run as
#   bash evalexamples.sh <dctwin-cli> <expected exit code> FILE VERDICT [FILE VERDICT ...]
# VERDICT is the exact text after "Verdict: " ("Feasible", "Feasible with warnings", "Infeasible").
set -u
if [ $# -lt 4 ] || [ $(($# % 2)) -ne 0 ]; then
    echo "usage: $0 CLI EXIT FILE VERDICT [FILE VERDICT ...]" >&2
    exit 2
fi
cli=$1 expected=$2
shift 2
files=()
verdicts=()
while [ $# -gt 0 ]; do
    files+=("$1")
    verdicts+=("$2")
    shift 2
done

errfile=$(mktemp)
out=$("$cli" eval "${files[@]}" 2>"$errfile")
rc=$?
err=$(cat "$errfile")
rm -f "$errfile"
failed=0
fail() {
    echo "FAIL: $*" >&2
    failed=1
}
[ "$rc" -eq "$expected" ] || fail "dctwin-cli eval exited $rc, expected $expected: $err"
for i in "${!files[@]}"; do
    file=${files[$i]}
    # The verdict line right after the file's heading (awk: no regular expression from a path).
    got=$(awk -v tag="  [$file]" '
        found { sub(/^Verdict: /, ""); print; exit }
        substr($0, 1, 10) == "Scenario: " && substr($0, length($0) - length(tag) + 1) == tag {
            found = 1
        }' <<<"$out")
    if [ "$got" != "${verdicts[$i]}" ]; then
        fail "$file: verdict '${got:-(no heading for the file)}', expected '${verdicts[$i]}'"
    else
        echo "$file: Verdict: $got"
    fi
done
# Each scenario's figures are printed, infeasible ones included.
headings=$(grep -c "^Scenario: " <<<"$out")
pue=$(grep -c "^  PUE (annual) " <<<"$out")
[ "$headings" -eq "${#files[@]}" ] || fail "$headings scenario headings for ${#files[@]} files"
[ "$pue" -eq "${#files[@]}" ] || fail "$pue annual PUE lines for ${#files[@]} files"
[ "$failed" -eq 0 ] && echo "dctwin-cli eval: exit $rc, ${#files[@]} verdicts as expected"
exit $failed
