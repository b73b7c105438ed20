#!/usr/bin/env bash
# Profile-guided build of the engine (what Stockfish's `make profile-build` does): an
# instrumented build searches the `bench` positions of every variant and the game positions
# of docs/proof/speed, and the final build is optimised with the profile that run wrote.
# It plays the same moves as a plain `cargo build --release` (the same `bench` node count);
# only the speed differs. The binary: target/pgo/release/shishi.
#
# Needs rustup's llvm-tools (for llvm-profdata of the compiler's own LLVM); the script adds
# the component when it is missing. Both builds target x86-64-v3 on x86-64, as
# .cargo/config.toml does; RUSTFLAGS, if set, replaces that (say `-C target-cpu=native`).
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot=$(rustc --print sysroot)
find_profdata() { find "$sysroot" -name llvm-profdata -type f 2>/dev/null | head -n 1; }
profdata=$(find_profdata)
if [ -z "$profdata" ]; then
    rustup component add llvm-tools >&2
    profdata=$(find_profdata)
fi
if [ -z "$profdata" ]; then
    echo "pgo-build: llvm-profdata not found; install it with: rustup component add llvm-tools" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# RUSTFLAGS replaces the flags of .cargo/config.toml, so its x86-64 target is named again
# here for the builds below (unless RUSTFLAGS is given).
default=""
if [ "$(uname -m)" = x86_64 ]; then default="-C target-cpu=x86-64-v3"; fi
flags=${RUSTFLAGS:-$default}

echo "pgo-build: instrumented build" >&2
RUSTFLAGS="$flags -Cprofile-generate=$work/raw" cargo build --release --target-dir target/pgo-gen
gen=target/pgo-gen/release/shishi

echo "pgo-build: training run" >&2
"$gen" bench --depth 9 >/dev/null 2>&1
# One search of a position (a file of docs/proof/speed, or `startpos`) to the depth given,
# through the USI loop.
search() {
    local variant=$1 file=$2 depth=$3 line
    coproc ENGINE { "$gen" 2>/dev/null; }
    printf 'usi\nsetoption name USI_Variant value %s\nsetoption name USI_OwnBook value false\nisready\n' \
        "$variant" >&"${ENGINE[1]}"
    if [ "$file" = startpos ]; then
        echo 'position startpos' >&"${ENGINE[1]}"
    else
        cat "docs/proof/speed/$file" >&"${ENGINE[1]}"
    fi
    printf 'go depth %s\n' "$depth" >&"${ENGINE[1]}"
    while read -r line <&"${ENGINE[0]}"; do
        [[ $line == bestmove* ]] && break
    done
    echo quit >&"${ENGINE[1]}"
    wait "$ENGINE_PID"
}
search chushogi startpos 10
search chushogi chu-ply300.usi 10
search chushogi chu-ply450.usi 10
search shogi shogi-ply110.usi 10
search shoshogi sho-ply300.usi 10

"$profdata" merge -o "$work/merged.profdata" "$work/raw"

echo "pgo-build: optimised build" >&2
RUSTFLAGS="$flags -Cprofile-use=$work/merged.profdata" cargo build --release --target-dir target/pgo
target/pgo/release/shishi bench 2>&1 | grep -E '^Nodes' >&2
echo target/pgo/release/shishi
