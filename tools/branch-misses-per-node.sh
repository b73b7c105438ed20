#!/usr/bin/env bash
# Mispredicted branches, first-level data-cache read misses and last-level misses a node under
# cachegrind's simulation (valgrind --tool=cachegrind with --branch-sim=yes, an 8 MB last-level
# cache), with the instructions a node, for comparing builds that search the same trees. Where
# the clock is too noisy to show a few percent, these counts show what the instruction count
# alone does not: a node's time on the 2-core machine went mostly into mispredicted branches
# (the end of a walk along a line) and waits on memory (forty-sixth and forty-seventh sessions).
#
# Usage: tools/branch-misses-per-node.sh ENGINE VARIANT POSITION DEPTH [HASH_MB]
#   POSITION is a USI `position ...` line (e.g. "$(cat docs/proof/speed/chu-ply450.usi)").
# Prints: engine, nodes, and per node Ir (instructions), Bm (mispredicted conditional and
# indirect branches), D1mr (first-level data read misses), DLLm (last-level misses, reads
# and writes). Needs valgrind; about a minute for a search of 500,000 chu nodes.
set -euo pipefail
engine=$1 variant=$2 line=$3 depth=$4 hash=${5:-64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/in"
{
    printf 'usi\nsetoption name USI_Variant value %s\nsetoption name USI_OwnBook value false\n' "$variant"
    printf 'setoption name USI_Hash value %s\nisready\n%s\ngo depth %s\n' "$hash" "$line" "$depth"
    until grep -q '^bestmove' "$work/out" 2>/dev/null; do sleep 0.5; done
    echo quit
} > "$work/in" &
valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --LL=8388608,16,64 \
    --cachegrind-out-file="$work/cg" "$engine" < "$work/in" > "$work/out" 2>/dev/null
nodes=$(grep "^info depth $depth " "$work/out" | tail -n 1 | grep -o 'nodes [0-9]*' | cut -d' ' -f2)
# cg_annotate's totals line: each count is followed by its percentage.
cg_annotate "$work/cg" 2>/dev/null | grep -m1 'PROGRAM TOTALS' | tr -d ',' |
    awk -v n="$nodes" -v e="$(basename "$engine")" '{
        printf "%s nodes %d Ir %.0f Bm %.1f D1mr %.1f DLLm %.2f\n", e, n, $1 / n, ($21 + $25) / n, $9 / n, ($11 + $17) / n
    }'
