#!/usr/bin/env python3
"""Time to a fixed depth over a file of positions, for a USI engine.

Usage: time-to-depth.py ENGINE VARIANT DEPTH POSITIONS [EvalFile]

POSITIONS holds one SFEN a line (docs/proof/speed/chu-suite.sfen: 16 chu positions from the
engine's own self-play, move numbers 21 to 498). For each, a fresh ENGINE searches `go depth DEPTH`
with 64 MB of hash and no book; the nodes and time of the last `info depth DEPTH` line are
summed. Prints the total nodes, the total milliseconds and their rate. Two builds with the
same trees give the same nodes, so the time alone compares their speed; with other trees,
the time to depth weighs the tree's size with the speed.
"""
import subprocess
import sys


def run(engine, variant, depth, sfen, evalfile):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    setup = [
        "usi",
        f"setoption name USI_Variant value {variant}",
        "setoption name USI_OwnBook value false",
        "setoption name USI_Hash value 64",
    ]
    if evalfile:
        setup.append(f"setoption name EvalFile value {evalfile}")
    setup += ["isready", f"position sfen {sfen}", f"go depth {depth}"]
    p.stdin.write("\n".join(setup) + "\n")
    p.stdin.flush()
    last = None
    for line in p.stdout:
        w = line.split()
        if w[:2] == ["info", "depth"] and int(w[2]) == depth and "nodes" in w and "time" in w:
            last = w
        if w and w[0] == "bestmove":
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    if last is None:
        sys.exit(f"no depth {depth} line for {sfen}")
    return int(last[last.index("nodes") + 1]), int(last[last.index("time") + 1])


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    engine, variant, depth, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    evalfile = sys.argv[5] if len(sys.argv) > 5 else None
    nodes = ms = 0
    with open(path) as f:
        for sfen in f:
            if sfen.strip():
                n, t = run(engine, variant, depth, sfen.strip(), evalfile)
                nodes += n
                ms += t
    print(f"nodes {nodes} ms {ms} nps {nodes * 1000 // max(ms, 1)}")


if __name__ == "__main__":
    main()
