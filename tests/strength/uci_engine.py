"""A UCI engine process driven line by line, for the strength scripts
(label_positions.py, analyze_games.py): start it with options, set up a
position, search it to a depth and read back the final exact score."""

import subprocess


class UciEngine:
    def __init__(self, path="/usr/games/stockfish", options=None):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True,
                                        bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in (options or {}).items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix):
        """The engine's lines up to and including the first that starts with
        `prefix`, stripped."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited")
            lines.append(line.strip())
            if lines[-1].startswith(prefix):
                return lines

    def position(self, fen, moves=()):
        self.send(f"position fen {fen}" +
                  (" moves " + " ".join(moves) if moves else ""))

    def search(self, fen, depth, moves=()):
        """(score, lines): the last exact score of `go depth`, ('cp', n) or
        ('mate', n) from the side to move (None if it gave none), and the
        engine's lines up to bestmove."""
        self.position(fen, moves)
        self.send(f"go depth {depth}")
        lines = self.wait_for("bestmove")
        score = None
        for line in lines:
            fields = line.split()
            if fields[:1] != ["info"] or "score" not in fields:
                continue
            i = fields.index("score")
            if fields[i + 3:i + 4] in (["lowerbound"], ["upperbound"]):
                continue
            score = (fields[i + 1], int(fields[i + 2]))
        return score, lines

    def quit(self):
        self.send("quit")
        self.process.wait()
