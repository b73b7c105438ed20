#!/usr/bin/env python3
"""Where did a side lose? Replays the games a player lost and scores them with a USI engine.

Usage: drift.py ENGINE RECORDS PLAYER [--depth D] [--variant V] [--top N]

RECORDS is a `shishi match --usi-out` file; PLAYER is the name a lost game gives the player
(`# game N VARIANT BLACK vs WHITE: RESULT`). For each of the player's moves in each lost game,
ENGINE (e.g. Fairy-Stockfish, with `UCI_Variant` set to V) scores the position before and
after it at depth D. Printed per game: the trajectory `ply:score` (before each of the player's
moves, from the player's side, until the engine sees a mate) and the N moves with the largest
drop (score before minus score after), with the engine's best move and line.
"""
import argparse
import re

from usi_engine import Engine, cp_of, score_in


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("records")
    ap.add_argument("player")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--variant", default="shogi")
    ap.add_argument("--top", type=int, default=3)
    a = ap.parse_args()
    e = Engine(a.engine, [("UCI_Variant", a.variant)])

    def score(sfen, moves):
        s, pv = 0, []
        for w in e.search(f"position sfen {sfen}" + (f" moves {' '.join(moves)}" if moves else ""), f"go depth {a.depth}"):
            sc = score_in(w)
            if sc:
                s = cp_of(sc, 10000)
                pv = w[w.index("pv") + 1 :][:5] if "pv" in w else []
            if w[0] == "bestmove":
                return s, w[1], pv

    lines = open(a.records).read().split("\n")
    for i, line in enumerate(lines[:-1]):
        m = re.match(r"# game (\d+) \S+ (\S+) vs (\S+): (\S+)", line)
        mm = re.match(r"position sfen (.*?) moves (.*)", lines[i + 1])
        if not m or not mm:
            continue
        number, black, white, result = m.groups()
        as_black = black == a.player
        if (result, as_black) not in (("0-1", True), ("1-0", False)) or a.player not in (black, white):
            continue
        sfen, moves = mm.group(1), mm.group(2).split()
        black_first = sfen.split()[1] == "b"
        rows = []
        for k, mv in enumerate(moves):
            if (black_first == (k % 2 == 0)) != as_black:
                continue
            before, best, pv = score(sfen, moves[:k])
            after = -score(sfen, moves[: k + 1])[0]
            rows.append((before - after, k, mv, best, before, after, pv))
            if before <= -10000:
                break
        print(f"game {number} ({'black' if as_black else 'white'}), {len(moves)} plies")
        print("  trajectory", " ".join(f"{k}:{b}" for _, k, _, _, b, _, _ in rows))
        for d, k, mv, best, before, after, pv in sorted(rows, reverse=True)[: a.top]:
            print(f"  ply {k}: played {mv}, best {best}; {before} -> {after} (drop {d}); line {' '.join(pv)}")
    e.quit()


if __name__ == "__main__":
    main()
