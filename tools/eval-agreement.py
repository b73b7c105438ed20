#!/usr/bin/env python3
"""How well an engine's scores rank positions the way scored records do.

Usage: eval-agreement.py ENGINE RECORDS [--shallow D] [--deep D] [--sample N] [--seed S]
       [--balanced CP] [--option NAME=VALUE ...]

RECORDS holds lines `sfen S [moves ...] score CP` (CP from the side to move), as written by
`tools/label-scores.py`; gzipped files are read too. A sample of N of them (seeded) is searched
by ENGINE (USI, after `usinewgame`) to the shallow depth (default 1: the static evaluation
plus quiescence) and to the deep depth (default 9). Printed: Spearman rank correlations of
shallow with deep (the engine's consistency with itself), deep with the records, and shallow
with the records, over all positions and over those whose record score is within +-CP
(default 300): the balanced positions, where material no longer decides the ranking.
Positions with a mate score at either depth are left out. Rank correlation ignores the
engines' scales (Shishi's shogi centipawns are about four of Fairy-Stockfish's).

Example (twelfth session): Shishi on 300 positions of
docs/proof/tuning/shogi-fsf-depth10-round4.txt.gz gave 0.10 for shallow against the records on
the balanced ones, Fairy-Stockfish 0.74; in shoshogi (round 5 records) Shishi gave 0.86.
"""
import argparse
import gzip
import random
import statistics

from usi_engine import Engine, score_in


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [line.strip() for line in f if " score " in line]


def rank(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0] * len(values)
    for r, i in enumerate(order):
        ranks[i] = r
    return ranks


def spearman(pairs):
    if len(pairs) < 3:
        return float("nan")
    return statistics.correlation(rank([a for a, _ in pairs]), rank([b for _, b in pairs]))


def search(engine, position, depth):
    score = None
    engine.new_game()
    for words in engine.search(f"position {position}", f"go depth {depth}"):
        s = score_in(words)
        if s:
            score = s[1] if s[0] == "cp" else None
    return score


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("records")
    ap.add_argument("--shallow", type=int, default=1)
    ap.add_argument("--deep", type=int, default=9)
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--balanced", type=int, default=300)
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    lines = read(a.records)
    random.seed(a.seed)
    lines = random.sample(lines, min(a.sample, len(lines)))
    options = [tuple(o.split("=", 1)) for o in a.option]
    e = Engine(a.engine, options)
    rows = []
    for line in lines:
        position, cp = line.rsplit(" score ", 1)
        shallow, deep = search(e, position, a.shallow), search(e, position, a.deep)
        if shallow is not None and deep is not None:
            rows.append((shallow, deep, int(cp)))
    e.quit()
    for name, subset in (("all", rows), (f"|record| < {a.balanced}", [r for r in rows if abs(r[2]) < a.balanced])):
        print(
            f"{name}: {len(subset)} positions; shallow~deep {spearman([(s, d) for s, d, _ in subset]):.3f}, "
            f"deep~records {spearman([(d, c) for _, d, c in subset]):.3f}, "
            f"shallow~records {spearman([(s, c) for s, _, c in subset]):.3f}"
        )


if __name__ == "__main__":
    main()
