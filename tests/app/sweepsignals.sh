#!/bin/bash
# A sweep stopped by SIGINT or SIGTERM exits 130 or 143 and leaves no temporary file; one killed
# with SIGKILL leaves its temporary file, which the next run writing the same output removes
# (while that of a running process stays). Also: a sweep over the variant cap is refused at
# once without --force. Run as
#   bash sweepsignals.sh <dctwin-cli> <scratch folder> <base scenario>
set -u
set -m # background jobs get their own process group, and SIGINT is not ignored for them
CLI=$1
WORK=$2
BASE=$3
rm -rf "$WORK"
mkdir -p "$WORK"
fail() {
    echo "FAIL: $*" >&2
    [ -n "${PID:-}" ] && kill -9 "$PID" 2>/dev/null
    exit 1
}

# 10^7 variants: minutes of work, so that the signal comes while it runs.
cat >"$WORK/big.json" <<SPEC
{"base": "$BASE",
 "axes": [{"field": "/compute/node_count", "from": 8, "to": 1007, "step": 1},
          {"field": "/network/tiers", "values": [0]},
          {"field": "/workload/mfu", "sample": "uniform", "min": 0.3, "max": 0.5, "count": 100, "seed": 1},
          {"field": "/compute/utilization", "sample": "uniform", "min": 0.5, "max": 0.95, "count": 100, "seed": 2}],
 "metrics": ["compute.training_days", "cooling.pue", "cost.tco_usd_per_year"]}
SPEC
cat >"$WORK/small.json" <<SPEC
{"base": "$BASE", "axes": [{"field": "/compute/node_count", "values": [16, 32]}],
 "metrics": ["compute.training_days"]}
SPEC
OUT="$WORK/out.csv"

# Starts the big sweep in the background and waits until its temporary file has rows.
start_and_wait() {
    "$CLI" sweep "$WORK/big.json" --force -q -o "$OUT" 2>"$WORK/err.txt" &
    PID=$!
    for _ in $(seq 1200); do
        for part in "$OUT".part-*; do
            [ -s "$part" ] && return 0
        done
        kill -0 "$PID" 2>/dev/null || fail "the sweep ended before writing: $(cat "$WORK/err.txt")"
        sleep 0.1
    done
    fail "no temporary file with rows after 120 s"
}

# Over the cap without --force: refused at once, with the count and how to pass.
"$CLI" sweep "$WORK/big.json" -o "$OUT" 2>"$WORK/cap.txt"
rc=$?
[ "$rc" -eq 2 ] || fail "a sweep over the cap exited $rc, expected 2"
grep -q "10,000,000 variants" "$WORK/cap.txt" || fail "no variant count: $(cat "$WORK/cap.txt")"
grep -q -- "--force" "$WORK/cap.txt" || fail "--force not suggested: $(cat "$WORK/cap.txt")"
[ ! -e "$OUT" ] || fail "a refused sweep wrote $OUT"

for signal in INT TERM; do
    start_and_wait
    kill -s "$signal" "$PID"
    wait "$PID"
    rc=$?
    expected=130
    [ "$signal" = TERM ] && expected=143
    PID=
    [ "$rc" -eq "$expected" ] || fail "SIG$signal: exit $rc, expected $expected: $(cat "$WORK/err.txt")"
    grep -q "stopped by SIG$signal" "$WORK/err.txt" || fail "SIG$signal: $(cat "$WORK/err.txt")"
    left=$(ls "$OUT".part-* 2>/dev/null)
    [ -z "$left" ] || fail "SIG$signal left $left"
    [ ! -e "$OUT" ] || fail "SIG$signal left a partial $OUT"
    [ ! -e "$OUT.shard.json" ] || fail "SIG$signal left a record"
    echo "SIG$signal: exit $rc, no temporary file left"
done

# SIGKILL cannot be caught: the temporary file stays, named after the dead process.
start_and_wait
kill -9 "$PID"
wait "$PID"
PID=
stale=$(ls "$OUT".part-* 2>/dev/null)
[ -n "$stale" ] || fail "SIGKILL left no temporary file (nothing to clean up?)"
# A temporary file of a running process (this shell) must survive the clean-up.
host=$(uname -n | tr -c 'A-Za-z0-9.\n-' '_')
live="$OUT.part-$host-$$"
: >"$live"
"$CLI" sweep "$WORK/small.json" -q -o "$OUT" || fail "the next run failed"
[ ! -e "$stale" ] || fail "the next run left the stale $stale"
[ -e "$live" ] || fail "the next run removed $live of a running process"
[ -s "$OUT" ] && [ -s "$OUT.shard.json" ] || fail "the next run wrote no output and record"
rm -f "$live"
echo "SIGKILL: the next run removed $(basename "$stale")"
rm -rf "$WORK"
