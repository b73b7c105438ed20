#!/usr/bin/env python3
"""Labels the positions of `shishi match --usi-out` records with a USI engine's scores.

Usage: label-scores.py ENGINE DEPTH RECORDS OUT [--every N] [--skip N] [--jobs N]
       [--option NAME=VALUE ...]

Every N-th position (after the first `skip` plies) of every game is searched to DEPTH by
ENGINE (a USI engine, e.g. Shishi itself or Fairy-Stockfish in USI mode); lines
`sfen S moves ... score CP` (CP from the side to move) are written to OUT for
`shishi tune --records OUT`. Mate scores are left out.
"""
import sys
import threading

from usi_engine import Engine, score_in


def label(engine, depth, options, jobs_in, out, lock):
    e = Engine(engine, options)
    for sfen, moves in jobs_in:
        tail = f" moves {' '.join(moves)}" if moves else ""
        score = None
        # The last exact centipawn score; a mate score (bound or not) after it drops the position.
        for words in e.search(f"position sfen {sfen}{tail}", f"go depth {depth}"):
            s = score_in(words)
            if s and s[0] == "cp" and not s[2]:
                score = s[1]
            elif s and s[0] == "mate":
                score = None
        if score is not None:
            with lock:
                out.write(f"sfen {sfen}{tail} score {score}\n")
    e.quit()


def main():
    args = sys.argv[1:]
    if len(args) < 4:
        sys.exit(__doc__)
    engine, depth, records, out_path = args[:4]
    every, skip, jobs, options = 2, 8, 2, []
    rest = args[4:]
    while rest:
        if len(rest) < 2:
            sys.exit(f"{rest[0]} needs a value\n{__doc__}")
        flag, value = rest[0], rest[1]
        rest = rest[2:]
        if flag in ("--every", "--skip", "--jobs") and not value.isdigit():
            sys.exit(f"{flag} needs a whole number, not {value!r}")
        if flag == "--every":
            every = max(1, int(value))
        elif flag == "--skip":
            skip = int(value)
        elif flag == "--jobs":
            jobs = max(1, int(value))
        elif flag == "--option":
            name, _, v = value.partition("=")
            options.append((name, v))
        else:
            sys.exit(f"unknown flag {flag}")
    work = []
    for line in open(records):
        line = line.strip()
        if not line.startswith("position sfen "):
            continue
        body = line[len("position sfen "):]
        sfen, _, moves = body.partition(" moves")
        moves = moves.split()
        for ply in range(skip, len(moves) + 1, every):
            work.append((sfen, moves[:ply]))
    lock = threading.Lock()
    with open(out_path, "w") as out:
        threads = [threading.Thread(target=label, args=(engine, depth, options, work[i::jobs], out, lock)) for i in range(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    print(f"{len(work)} positions searched", file=sys.stderr)


if __name__ == "__main__":
    main()
