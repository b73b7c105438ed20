#!/usr/bin/env bash
# Nodes a second of builds that search the same trees, compared on this noisy machine: one
# fixed-depth search of a position per run, the builds alternating, N rounds; prints each
# build's best and median. Timing differences of a few percent need several rounds (the
# 2-core machine varies by about that much from run to run).
#
# Usage: [VAR=variant] [HASH=MB] tools/nps-ab.sh N DEPTH POSFILE ENGINE [ENGINE...]
# POSFILE holds a USI `position ...` line (docs/proof/speed/*.usi); VAR defaults to
# chushogi, HASH to 64. Example (forty-sixth session):
#   tools/nps-ab.sh 8 15 docs/proof/speed/chu-ply450.usi OLD NEW
set -euo pipefail
n=$1 depth=$2 posfile=$3
shift 3
line=$(cat "$posfile")
declare -A all
one() {
    local engine=$1 work
    work=$(mktemp)
    {
        printf 'usi\nsetoption name USI_Variant value %s\nsetoption name USI_OwnBook value false\n' "${VAR:-chushogi}"
        printf 'setoption name USI_Hash value %s\nisready\n%s\ngo depth %s\n' "${HASH:-64}" "$line" "$depth"
        until grep -q '^bestmove' "$work"; do sleep 0.1; done
        echo quit
    } | "$engine" > "$work" 2>/dev/null
    grep "^info depth $depth " "$work" | tail -n 1 | grep -o ' nps [0-9]*' | awk '{print $2}'
    rm -f "$work"
}
for _ in $(seq "$n"); do
    for engine in "$@"; do
        all[$engine]="${all[$engine]:-} $(one "$engine")"
    done
done
for engine in "$@"; do
    echo "$(basename "$engine"): $(echo ${all[$engine]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print "best", a[NR], "median", a[int((NR+1)/2)], "runs", NR}')"
done
