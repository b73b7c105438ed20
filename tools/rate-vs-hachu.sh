#!/usr/bin/env bash
# Chu nodes a second of HaChu and of Shishi builds on the positions of docs/proof/speed,
# by alternating runs of a fixed amount of work, for a host whose clock is noisy: HaChu's
# `analyze` until an iteration completes (its printed nodes over its printed time), each
# Shishi `go nodes N` (nodes over time from its last `info`), one run after the other, one
# round per engine at a time, each engine's rates printed sorted. Noise only slows a run,
# so the best of many runs is the engine's rate on a quiet moment: compare the last
# columns. (The README's runs, `go movetime 5000` against `analyze` 5 s, suit a quiet host.)
#
# Usage: tools/rate-vs-hachu.sh ROUNDS ENGINE [ENGINE...]
# Positions: chu from the start (HaChu to depth 7, Shishi 1,500,000 nodes), after 300 plies
# (depth 6, 1,200,000) and after 450 (depth 7, 1,500,000): about two seconds a run each.
# Needs HaChu (Debian: apt-get install hachu, /usr/games/hachu; HACHU=path to change it).
set -euo pipefail
cd "$(dirname "$0")/.."
speed=docs/proof/speed
hachu=${HACHU:-/usr/games/hachu}
rounds=$1
shift

# HaChu's rate: analyze from the position until iteration `depth` is printed.
hachu_rate() {
    local moves=$1 depth=$2 work
    work=$(mktemp -d)
    mkfifo "$work/in"
    {
        printf 'xboard\nprotover 2\n'
        sleep 0.3
        printf 'memory 64\nnew\nvariant chu\nforce\n'
        for m in $moves; do echo "usermove $m"; done
        printf 'post\nanalyze\n'
        until grep -qE "^ *$depth " "$work/out" 2>/dev/null; do sleep 0.05; done
        printf 'exit\nquit\n'
    } > "$work/in" &
    "$hachu" < "$work/in" > "$work/out" 2>/dev/null
    wait
    # A line: depth, score, time in centiseconds, nodes, principal variation.
    grep -E "^ *$depth " "$work/out" | tail -n 1 | awk '{printf "%d", $4 * 100 / $3}'
    rm -rf "$work"
}

# Shishi's rate: `go nodes N` from the position, 64 MB of hash, no book.
shishi_rate() {
    local engine=$1 line=$2 nodes=$3 work
    work=$(mktemp)
    {
        printf 'usi\nsetoption name USI_Variant value chushogi\nsetoption name USI_OwnBook value false\n'
        printf 'setoption name USI_Hash value 64\nisready\n%s\ngo nodes %s\n' "$line" "$nodes"
        until grep -q '^bestmove' "$work"; do sleep 0.05; done
        echo quit
    } | "$engine" > "$work" 2>/dev/null
    grep '^info' "$work" | grep ' time ' | tail -n 1 |
        awk '{for (i = 1; i < NF; i++) { if ($i == "nodes") n = $(i + 1); if ($i == "time") t = $(i + 1) }; printf "%d", n * 1000 / t}'
    rm -f "$work"
}

for spec in "startpos 7 1500000" "chu-ply300 6 1200000" "chu-ply450 7 1500000"; do
    read -r pos depth nodes <<< "$spec"
    if [ "$pos" = startpos ]; then
        line="position startpos" moves=""
    else
        line=$(cat "$speed/$pos.usi") moves=$(cat "$speed/$pos.xboard")
    fi
    declare -A rates=()
    for _ in $(seq "$rounds"); do
        rates[hachu]="${rates[hachu]:-} $(hachu_rate "$moves" "$depth")"
        for engine in "$@"; do
            rates[$engine]="${rates[$engine]:-} $(shishi_rate "$engine" "$line" "$nodes")"
        done
    done
    for k in hachu "$@"; do
        echo "$pos $(basename "$k"): $(echo ${rates[$k]} | tr ' ' '\n' | sort -n | tr '\n' ' ')"
    done
    unset rates
done
