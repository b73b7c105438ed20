#!/usr/bin/env python3
"""USI adapter for GNU Shogi 1.4 (which speaks only the xshogi protocol), so that
`shishi match` can play it:  --engine "gnushogi=usi:python3 tools/gnushogi-usi.py".

For each `go` it starts `gnushogi -a -h SECONDS` (no pondering, no hash file, SECONDS per
move), enters `force`, replays the game's moves, lets GNU Shogi play the side to move and
answers `bestmove`. SECONDS comes from the `go` command: byoyomi (or movetime) rounded down
to whole seconds, at least 1; with a main clock, remaining/40 + increment. USI and GNU
Shogi share the move notation (7g7f, 8h2b+, P*5e). Only `position startpos [moves ...]`
(or `position sfen` of the standard start position) is supported; anything else is answered
with `info string error`.

GNU Shogi 1.4.2 does not keep to short per-move times in this mode (it takes 3-5 s when told
1 s); with GNUSHOGI_DEPTH=N in the environment it searches to a fixed depth N instead.
"""
import os
import re
import subprocess
import sys

GNUSHOGI = "/usr/games/gnushogi"
REPLY = re.compile(r"\d+\.\s+\.\.\.\s+(\S+)")
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def seconds(words, black_to_move):
    args = dict(zip(words[::2], words[1::2]))

    def ms(name):
        try:
            return int(args.get(name, "0"))
        except ValueError:
            return 0

    if ms("byoyomi") or ms("movetime"):
        return max(1, (ms("byoyomi") or ms("movetime")) // 1000)
    left = ms("btime" if black_to_move else "wtime")
    inc = ms("binc" if black_to_move else "winc")
    return max(1, (left // 40 + inc) // 1000)


def think(moves, secs):
    p = subprocess.Popen([GNUSHOGI, "-a", "-h", str(secs)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    side = "black" if len(moves) % 2 == 0 else "white"
    depth = os.environ.get("GNUSHOGI_DEPTH", "")
    limit = "depth\n%d\n" % int(depth) if depth.isdigit() else ""
    p.stdin.write(limit + "force\n" + "".join(m + "\n" for m in moves) + side + "\ngo\n")
    p.stdin.flush()
    best = None
    for line in p.stdout:
        m = REPLY.search(line)
        if m:
            best = m.group(1)
            break
        if "Illegal" in line or "mate" in line.lower():
            break
    try:
        p.stdin.write("quit\n")
        p.stdin.flush()
    except BrokenPipeError:
        pass
    p.wait(timeout=5)
    return best


def main():
    moves = []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "usi":
            out("id name GNU Shogi 1.4 (USI adapter)")
            out("id author the GNU Shogi authors")
            out("usiok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "position":
            rest = words[1:]
            if rest[:1] == ["startpos"]:
                rest = rest[1:]
            elif rest[:1] == ["sfen"] and " ".join(rest[1:4]) == START:
                rest = rest[5:]  # the SFEN's four fields
            else:
                out("info string error only the standard start position is supported")
                continue
            moves = rest[1:] if rest[:1] == ["moves"] else []
        elif cmd == "go":
            best = think(moves, seconds(words[1:], len(moves) % 2 == 0))
            out("bestmove " + (best if best else "resign"))
        elif cmd == "quit":
            return
        # usinewgame, setoption, stop, gameover, ponderhit: nothing to do.


if __name__ == "__main__":
    main()
