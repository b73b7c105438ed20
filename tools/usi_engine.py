"""A USI engine driven over pipes, shared by the scripts in `tools/`.

`Engine(cmd, options)` starts the program, sends `usi`, the options (`setoption`) and
`isready`, and returns once it has answered `readyok`. `search(position, go)` sends the two
lines and returns the words of each output line up to and including `bestmove`; the caller
reads the scores it wants from them (`score_in` reads one line's). An engine that quits
early raises `RuntimeError`. The examples run with `python3 -m doctest tools/usi_engine.py`.
"""
import subprocess


def score_in(words):
    """The score of one output line given as words: `(kind, value, bounded)`, or `None` for a
    line without a readable score (`info string` lines included). `kind` is `"cp"` or
    `"mate"`; a mate's value is positive when the side to move mates and at most 0 when it is
    mated (`mate -0` and Stockfish's `mate 0` give 0; USI's bare `mate +` / `mate -` give 1
    and -1). `bounded` is whether the line marks the score as a `lowerbound` or `upperbound`.

    >>> score_in("info depth 9 score cp -31 nodes 5 pv 7g7f".split())
    ('cp', -31, False)
    >>> score_in("info depth 9 score cp 40 lowerbound nodes 5".split())
    ('cp', 40, True)
    >>> [score_in(["info", "score", "mate", t])[1] for t in ("5", "-3", "-0", "+", "-")]
    [5, -3, 0, 1, -1]
    >>> score_in("info string score cp 5".split()) is None
    True
    """
    if len(words) < 2 or words[0] != "info" or words[1] == "string" or "score" not in words:
        return None
    i = words.index("score")
    if i + 2 >= len(words):
        return None
    kind, text = words[i + 1], words[i + 2]
    bounded = "lowerbound" in words or "upperbound" in words
    if kind == "mate" and text in ("+", "-"):
        return kind, 1 if text == "+" else -1, bounded
    try:
        value = int(text)
    except ValueError:
        return None
    return (kind, value, bounded) if kind in ("cp", "mate") else None


def cp_of(score, mate_cp):
    """A `score_in` score in centipawns, a mate counting as `mate_cp` (or `-mate_cp` when mated)."""
    kind, value, _ = score
    if kind == "cp":
        return value
    return mate_cp if value > 0 else -mate_cp


class Engine:
    def __init__(self, cmd, options=()):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        for line in self.p.stdout:
            if line.startswith(word):
                return line
        raise RuntimeError(f"engine quit before '{word}'")

    def new_game(self):
        """`usinewgame`, then waits until the engine is ready (its tables are cleared)."""
        self.send("usinewgame")
        self.send("isready")
        self.wait("readyok")

    def search(self, position, go):
        self.send(position)
        self.send(go)
        out = []
        for line in self.p.stdout:
            words = line.split()
            if not words:
                continue
            out.append(words)
            if words[0] == "bestmove":
                return out
        raise RuntimeError("engine quit before 'bestmove'")

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()
