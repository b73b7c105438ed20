#!/usr/bin/env bash
# Nodes a second of Fairy-Stockfish and of a Shishi build from the start position of shogi,
# shoshogi and cannonshogi, one thread each: `go movetime MS` (default 5000) with 64 MB of
# hash, the engines taking turns, ROUNDS runs each; prints each engine's rates per variant
# (the last `info` line's nps). Noise only slows a run: compare the best of each.
#
# Usage: FSF=path/to/Fairy-Stockfish/src tools/rate-vs-fsf.sh ENGINE ROUNDS [MS]
# FSF is the source directory of a Fairy-Stockfish build (its `stockfish` binary and the
# `variants.ini` that defines cannonshogi), built as the README says
# (`make -j2 build ARCH=x86-64-avx2 largeboards=yes all=yes`).
set -euo pipefail
fsf=${FSF:?set FSF to the Fairy-Stockfish src directory}
shishi=$1 rounds=$2 ms=${3:-5000}
wait_s=$((ms / 1000 + 2))

# The last reported nps of an engine fed `setup` lines, `go movetime`, then `quit`.
rate() {
    local engine=$1 setup=$2
    { printf '%s\ngo movetime %s\n' "$setup" "$ms"; sleep "$wait_s"; echo quit; } | "$engine" 2>/dev/null |
        grep '^info' | grep -o ' nps [0-9]*' | tail -n 1 | awk '{print $2}'
}

for v in shogi shoshogi cannonshogi; do
    fsf_setup=$(printf 'uci\nsetoption name VariantPath value %s/variants.ini\nsetoption name UCI_Variant value %s\nsetoption name Hash value 64\nisready\nposition startpos' "$fsf" "$v")
    shishi_setup=$(printf 'usi\nsetoption name USI_Variant value %s\nsetoption name USI_OwnBook value false\nsetoption name USI_Hash value 64\nisready\nposition startpos' "$v")
    a="" b=""
    for _ in $(seq "$rounds"); do
        a="$a $(rate "$fsf/stockfish" "$fsf_setup")"
        b="$b $(rate "$shishi" "$shishi_setup")"
    done
    echo "$v fairy-stockfish:$a"
    echo "$v $(basename "$shishi"):$b"
done
