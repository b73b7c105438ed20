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
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("records")
    ap.add_argument("player")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--variant", default="shogi")
    ap.add_argument("--top", type=int, default=3)
    a = ap.parse_args()
    p = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait(token):
        for line in p.stdout:
            if line.startswith(token):
                return line
        raise SystemExit("engine quit")

    send("usi")
    wait("usiok")
    send(f"setoption name UCI_Variant value {a.variant}")
    send("isready")
    wait("readyok")

    def score(sfen, moves):
        send(f"position sfen {sfen}" + (f" moves {' '.join(moves)}" if moves else ""))
        send(f"go depth {a.depth}")
        s, pv = 0, []
        for line in p.stdout:
            w = line.split()
            if "score" in w and len(w) > w.index("score") + 2:
                i = w.index("score")
                v = int(w[i + 2])
                s = v if w[i + 1] == "cp" else (10000 if v > 0 else -10000)
                pv = w[w.index("pv") + 1 :][:5] if "pv" in w else []
            if line.startswith("bestmove"):
                return s, w[1], pv
        raise SystemExit("engine quit")

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
    send("quit")


if __name__ == "__main__":
    main()
