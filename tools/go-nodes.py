#!/usr/bin/env python3
"""Runs a USI engine with every search limited to a fixed number of nodes.

Usage: go-nodes.py NODES ENGINE [ARGS...]

Lines from stdin go to ENGINE unchanged, except that each `go …` (but `go ponder`) becomes
`go nodes NODES`; the engine's output goes straight to stdout. With it, `shishi match` plays
games at equal (or set) nodes whatever the clock says: give the match a clock long enough
never to matter (e.g. `--tc 60+1`), and wrap each engine in a two-line script, since
`--engine` takes a command without arguments:

    printf '#!/bin/sh\\nexec python3 tools/go-nodes.py 20000 BIN\\n' > shishi-20k.sh
"""
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    nodes = sys.argv[1]
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        if line.startswith('go') and 'ponder' not in line.split():
            line = f'go nodes {nodes}\n'
        engine.stdin.write(line)
        engine.stdin.flush()
        if line.strip() == 'quit':
            break
    engine.stdin.close()
    engine.wait()


if __name__ == '__main__':
    main()
