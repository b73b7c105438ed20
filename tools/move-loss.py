#!/usr/bin/env python3
"""Scores an engine's move choice against a stronger judge: mean loss per position.

Usage: move-loss.py JUDGE CANDIDATE POSITIONS OUT [--nodes N] [--depth D | --jnodes N]
       [--cache FILE] [--jobs N] [--copt NAME=VALUE ...] [--jopt NAME=VALUE ...] [--limit N]

POSITIONS holds one position per line, `sfen S [moves M...]` (a leading `position` and a
trailing ` score CP` are ignored). CANDIDATE (a USI engine, e.g. Shishi) picks a move in each
with `go nodes N` after `usinewgame` (a node limit, so that a single-threaded engine's choice
is the same on every run); JUDGE (a USI engine, e.g. Fairy-Stockfish) searches the position to
DEPTH for its best score, and to DEPTH with `searchmoves` limited to the candidate's move for
that move's score (both after `usinewgame`, so its scores do not depend on the order of the
work; `--jnodes N` limits the judge by nodes instead, for a judge such as Shishi itself). The
loss of a position is best - move's score, at least 0, both capped at +-1000 cp (mate scores
count as +-1000). The judge's answers are kept in the cache (JSON lines), so a second
candidate costs only the judge's searches of moves it has not seen yet.

OUT gets one line per position, `index move loss`, for paired comparisons of candidates
(`--compare OLD NEW` instead of a run prints the mean paired difference and its standard error).
The summary goes to stdout: positions, how many moves agree with the judge's best, mean loss in
cp with its standard error, and mean loss in expected score (logistic of cp / 250).
"""
import json
import math
import os
import sys
import threading

from usi_engine import Engine, cp_of, score_in

CAP = 1000


def search(engine, position, go):
    """Searches `position` after `usinewgame`; returns (bestmove, last exact score in cp from
    the side to move, capped; mate scores count as the cap)."""
    engine.new_game()
    lines = engine.search(position, go)
    score = None
    for w in lines:
        s = score_in(w)
        if s and not s[2]:
            score = cp_of(s, CAP)
    return lines[-1][1], None if score is None else max(-CAP, min(CAP, score))


def parse_positions(path):
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "position":
                w = w[1:]
            if "score" in w:
                w = w[: w.index("score")]
            if w and w[0] == "sfen":
                out.append("position " + " ".join(w))
    return out


def expected(cp):
    return 1 / (1 + math.exp(-cp / 250))


def mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / max(1, n - 1)
    return m, math.sqrt(var / n)


def compare(old, new):
    def read(p):
        d = {}
        with open(p) as f:
            for line in f:
                i, m, loss = line.split()
                d[int(i)] = (m, int(loss))
        return d

    a, b = read(old), read(new)
    keys = sorted(set(a) & set(b))
    diff = [b[k][1] - a[k][1] for k in keys]
    m, se = mean_se(diff)
    same = sum(a[k][0] == b[k][0] for k in keys)
    print(f"positions {len(keys)} same move {same} mean loss new - old {m:+.1f} +- {se:.1f} cp")


def main():
    args = sys.argv[1:]
    if args and args[0] == "--compare":
        compare(args[1], args[2])
        return
    opts = {"--nodes": "150000", "--depth": "14", "--jnodes": "0", "--cache": None, "--jobs": "2", "--limit": "0"}
    copt, jopt, pos = [], [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--copt", "--jopt"):
            name, _, value = args[i + 1].partition("=")
            (copt if a == "--copt" else jopt).append((name, value))
            i += 2
        elif a in opts:
            opts[a] = args[i + 1]
            i += 2
        else:
            pos.append(a)
            i += 1
    if len(pos) != 4:
        sys.exit(__doc__)
    judge_cmd, cand_cmd, positions_path, out_path = pos
    positions = parse_positions(positions_path)
    if int(opts["--limit"]) > 0:
        positions = positions[: int(opts["--limit"])]
    depth = int(opts["--depth"])
    jnodes = int(opts["--jnodes"])
    limit = f"nodes {jnodes}" if jnodes > 0 else f"depth {depth}"
    tag = f"n{jnodes}" if jnodes > 0 else f"{depth}"
    cache_path = opts["--cache"]
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            for line in f:
                e = json.loads(line)
                cache[e["k"]] = (e["m"], e["s"])
    lock = threading.Lock()
    results = {}
    work = list(enumerate(positions))

    def judged(judge, key, position, go):
        with lock:
            if key in cache:
                return cache[key]
        m, s = search(judge, position, go)
        with lock:
            cache[key] = (m, s)
            if cache_path:
                with open(cache_path, "a") as f:
                    f.write(json.dumps({"k": key, "m": m, "s": s}) + "\n")
        return m, s

    def worker():
        cand = Engine(cand_cmd, copt)
        judge = Engine(judge_cmd, jopt)
        while True:
            with lock:
                if not work:
                    break
                idx, position = work.pop(0)
            mv, _ = search(cand, position, f"go nodes {opts['--nodes']}")
            best_m, best_s = judged(judge, f"{tag}|{position}|*", position, f"go {limit}")
            if mv == best_m:
                s = best_s
            else:
                _, s = judged(judge, f"{tag}|{position}|{mv}", position, f"go {limit} searchmoves {mv}")
            if best_s is None or s is None:
                continue
            with lock:
                results[idx] = (mv, best_m, best_s, s)
        cand.quit()
        judge.quit()

    threads = [threading.Thread(target=worker) for _ in range(int(opts["--jobs"]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    losses, wp, agree = [], [], 0
    with open(out_path, "w") as f:
        for idx in sorted(results):
            mv, best_m, best_s, s = results[idx]
            loss = max(0, best_s - s)
            losses.append(loss)
            wp.append(max(0.0, expected(best_s) - expected(s)))
            agree += mv == best_m
            f.write(f"{idx} {mv} {loss}\n")
    m, se = mean_se(losses)
    w, wse = mean_se(wp)
    print(f"positions {len(losses)} agree {agree} mean loss {m:.1f} +- {se:.1f} cp, expected score {w:.4f} +- {wse:.4f}")


if __name__ == "__main__":
    main()
