"""A USI engine driven over pipes, shared by the scripts in `tools/`.

`Engine(cmd, options)` starts the program, sends `usi`, the options (`setoption`) and
`isready`, and returns once it has answered `readyok`. `search(position, go)` sends the two
lines and returns the words of each output line up to and including `bestmove`; the caller
reads the scores it wants from them. An engine that quits early raises `RuntimeError`.
"""
import subprocess


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
