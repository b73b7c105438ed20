#!/usr/bin/env bash
# Instructions a node under callgrind (valgrind's instruction counter), for comparing builds
# that search the same trees: one search per position, run as the README of
# docs/proof/speed describes (64 MB less: 16 MB of hash, no book, the built-in network).
#
# Usage: tools/instructions-per-node.sh ENGINE [ENGINE...]
# For each engine: chu from the start (depth 13), chu after 300 plies (12) and after 450
# (14), and shogi after 110 plies (10); the engines run side by side, the positions of one
# engine one after the other. Prints "engine variant position depth: nodes N instr I
# per_node P". Needs valgrind (Debian: apt-get install valgrind); a few minutes a position.
set -euo pipefail
cd "$(dirname "$0")/.."
speed=docs/proof/speed

one() {
    local engine=$1 variant=$2 file=$3 depth=$4 line work
    if [ "$file" = startpos ]; then line="position startpos"; else line=$(cat "$speed/$file"); fi
    work=$(mktemp -d)
    mkfifo "$work/in"
    {
        printf 'usi\nsetoption name USI_Variant value %s\nsetoption name USI_OwnBook value false\n' "$variant"
        printf 'setoption name USI_Hash value 16\nisready\n%s\ngo depth %s\n' "$line" "$depth"
        until grep -q '^bestmove' "$work/out" 2>/dev/null; do sleep 0.5; done
        echo quit
    } > "$work/in" &
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$engine" < "$work/in" > "$work/out" 2>/dev/null
    local nodes instr
    nodes=$(grep "^info depth $depth " "$work/out" | tail -n 1 | grep -o 'nodes [0-9]*' | cut -d' ' -f2)
    instr=$(callgrind_annotate "$work/cg" 2>/dev/null | grep 'PROGRAM TOTALS' | tr -d ',' | awk '{print $1}')
    echo "$(basename "$engine") $variant $file d$depth: nodes $nodes instr $instr per_node $((instr / nodes))"
    rm -rf "$work"
}

for engine in "$@"; do
    (
        one "$engine" chushogi startpos 13
        one "$engine" chushogi chu-ply300.usi 12
        one "$engine" chushogi chu-ply450.usi 14
        one "$engine" shogi shogi-ply110.usi 10
    ) &
done
wait
