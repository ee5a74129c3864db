#!/usr/bin/env python3
"""Builds suite.epd: edge_cases.fen plus seeded random positions, counted by Stockfish.

Usage (from the repository root, with Debian's stockfish installed):
  bazel build //tests/perft:random_fens
  python3 tests/perft/make_suite.py > tests/perft/suite.epd
  python3 tests/perft/make_suite.py --chess960 > tests/perft/chess960.epd
With --chess960: the positions of chess960.fen, counted with UCI_Chess960 on.

Each position gets counts for depths 1.. until the next depth would pass NODE_BUDGET.
"""
import subprocess
import sys

STOCKFISH = "/usr/games/stockfish"
NODE_BUDGET = 40_000_000
MAX_DEPTH = 6


def stockfish_counts(engine, fen):
    counts = []
    for depth in range(1, MAX_DEPTH + 1):
        engine.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
        engine.stdin.flush()
        while True:
            line = engine.stdout.readline()
            if line.startswith("Nodes searched:"):
                nodes = int(line.split(":")[1])
                break
        counts.append((depth, nodes))
        if depth >= 2 and nodes * (nodes / max(counts[-2][1], 1)) > NODE_BUDGET:
            break
        if nodes == 0:
            break
    return counts


def main():
    here = "tests/perft"
    chess960 = "--chess960" in sys.argv[1:]
    source = "chess960.fen" if chess960 else "edge_cases.fen"
    fens = [l.strip() for l in open(f"{here}/{source}")
            if l.strip() and not l.startswith("#")]
    if not chess960:
        random_fens = subprocess.run(
            ["bazel-bin/tests/perft/random_fens", "--count=90", "--seed=20261122"],
            check=True, capture_output=True, text=True).stdout.split("\n")
        fens += [f for f in random_fens if f]
    engine = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    if chess960:
        engine.stdin.write("setoption name UCI_Chess960 value true\n")
    print("# Perft suite" + (" (Chess960: run with --chess960)" if chess960 else "") +
          ": FEN ;D<depth> <nodes> ... Counts by Debian's stockfish 15.1 "
          "(go perft); built by make_suite.py.")
    for fen in fens:
        counts = stockfish_counts(engine, fen)
        print(fen + "".join(f" ;D{d} {n}" for d, n in counts))
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait()


if __name__ == "__main__":
    sys.exit(main())
