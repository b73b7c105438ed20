#!/usr/bin/env python3
"""How well each engine's own scores foretold its games, from `shishi match` PGNs.

Usage: pgn-calibration.py [--from-ply N] GAMES.pgn...

`shishi match` writes after every move a comment `{+0.35/12 0.512s}`: the mover's last
reported score (pawns, its own view; `+M5` for a mate), depth and time. For each engine and
each threshold T, this counts the games in which the engine reported at least +T at some ply
from N on (default 20), and how those games ended for it. An engine whose high scores often
end in losses misjudges those positions (its scale is its own, so thresholds compare an
engine with itself, not with the other engine). Mates count as +/-100.
"""
import re
import sys

THRESHOLDS = (1, 2, 3, 5, 8, 12)


def games(path):
    for g in open(path).read().split('[Event ')[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', g))
        body = g.split(']\n\n')[-1].replace('\n', ' ')
        # Every move's comment, then the termination's.
        comments = re.findall(r'\{([^}]*)\}', body)[:-1]
        yield tags, comments


def score_of(comment):
    m = re.match(r'([+-])(M?)([\d.]+)/\d+ ', comment)
    if not m:
        return None
    v = 100.0 if m.group(2) else float(m.group(3))
    return -v if m.group(1) == '-' else v


def main():
    args = sys.argv[1:]
    from_ply = 20
    if args[:1] == ['--from-ply'] and len(args) > 1:
        from_ply, args = int(args[1]), args[2:]
    if not args:
        sys.exit(__doc__)
    rows = {}
    for path in args:
        for tags, comments in games(path):
            # XBoard's White moves first in these PGNs.
            players = (tags.get('White'), tags.get('Black'))
            result = tags.get('Result')
            for side, name in enumerate(players):
                scores = [score_of(c) for i, c in enumerate(comments) if i % 2 == side and i >= from_ply]
                scores = [s for s in scores if s is not None]
                if not scores:
                    continue
                won = result == ('1-0' if side == 0 else '0-1')
                lost = result == ('0-1' if side == 0 else '1-0')
                outcome = 0 if won else 2 if lost else 1
                for t in THRESHOLDS:
                    if max(scores) >= t:
                        rows.setdefault((name, t), [0, 0, 0])[outcome] += 1
    for (name, t), (w, d, l) in sorted(rows.items()):
        print(f"{name}: reported >= +{t} in {w + d + l} games; it won {w}, drew {d}, lost {l}")


if __name__ == '__main__':
    main()
