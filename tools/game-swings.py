#!/usr/bin/env python3
"""Scores every position of `shishi match` PGN games with a USI judge, from Shishi's side.

Usage: game-swings.py JUDGE DEPTH GAMES.pgn...

For shogi games whose players are named `shishi` and another engine. The PGN's XBoard moves
(files a-i from the left, ranks 1-9 from the bottom, drops `P@e5`) are turned into USI, and
the judge (e.g. Fairy-Stockfish) searches each position to DEPTH after `usinewgame`. One line
per game: the result for Shishi, the plies, Shishi's three moves that lost most by the judge's
scores (capped at ±2,000), and the score every tenth ply (capped at ±999).
"""
import re
import sys

from usi_engine import Engine, cp_of, score_in


def square(s):
    return f"{9 - (ord(s[0]) - 97)}{chr(ord('a') + 9 - int(s[1:]))}"


def usi_move(m):
    if '@' in m:
        return m[0] + '*' + square(m[2:4])
    promote = m.endswith('+')
    m = m.rstrip('+=')
    return square(m[0:2]) + square(m[2:4]) + ('+' if promote else '')


def score_of(out):
    """The last score of a search (bounds too), mates as +-30000; 0 without one."""
    score = 0
    for w in out:
        s = score_in(w)
        if s:
            score = cp_of(s, 30000)
    return score


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    judge, depth = Engine(sys.argv[1], [('USI_Hash', 64)]), int(sys.argv[2])
    for path in sys.argv[3:]:
        for n, g in enumerate(open(path).read().split('[Event ')[1:]):
            first = re.search(r'\[White "(\w+)"', g).group(1) == 'shishi'  # XBoard's White moves first
            result = re.search(r'\[Result "([^"]+)"', g).group(1)
            board, rest = re.search(r'\[FEN "([^"]+)"', g).group(1).split('[')
            hand, side = rest.split(']')
            sfen = f"{board} {'b' if side.split()[0] == 'w' else 'w'} {hand or '-'} 1"
            body = re.sub(r'\{[^}]*\}', '', g.split(']\n\n')[-1])
            moves = [usi_move(t) for t in body.split()
                     if not re.match(r'^\d+\.$', t) and t not in ('1-0', '0-1', '1/2-1/2', '*')]
            scores = []
            judge.new_game()
            for i in range(len(moves) + 1):
                tail = f" moves {' '.join(moves[:i])}" if i else ''
                s = score_of(judge.search(f"position sfen {sfen}{tail}", f"go depth {depth}"))
                scores.append(s if (i % 2 == 0) == first else -s)
            clip = [max(-2000, min(2000, s)) for s in scores]
            losses = sorted(((clip[i] - clip[i + 1], i) for i in range(len(moves)) if (i % 2 == 0) == first), reverse=True)
            won = 'draw' if result == '1/2-1/2' else ('won' if (result == '1-0') == first else 'lost')
            print(path.split('/')[-1], n + 1, won, len(moves), 'worst:',
                  ' '.join(f"ply{i}:{clip[i]}->{clip[i + 1]}" for _, i in losses[:3]),
                  'every 10 plies:', ' '.join(str(max(-999, min(999, s))) for s in scores[::10]), flush=True)


if __name__ == '__main__':
    main()
