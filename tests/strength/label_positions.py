#!/usr/bin/env python3
"""Labels positions with a strong engine's judgement, for `tuner texel`.

Reads EPD lines as `tuner extract --format=epd` writes them (the four FEN
fields, then opcodes such as `c9 "1-0";`), searches each position with a UCI
engine (default /usr/games/stockfish) to a fixed depth, and writes the same
line with `ce` (centipawns, side to move's view, as EPD defines it) replaced by
the engine's score, times --scale. Texel with --result_weight below 1 then
fits the evaluation to that score as well as to the game's result.

Positions whose score is a mate, or beyond --max_cp, are left out: the
evaluation cannot express them. Several engine processes run at once (--jobs).

A data tool (issue 13; label_positions_test.sh checks it against Stockfish):
  python3 tests/strength/label_positions.py IN.epd OUT.epd --depth 8 --jobs 2
"""

import argparse
import multiprocessing
import sys

from uci_engine import UciEngine


def label_shard(args):
    lines, options = args
    engine = UciEngine(options.engine,
                       {"Threads": 1, "Hash": options.hash})
    out = []
    try:
        for line in lines:
            fields = line.split()
            fen = " ".join(fields[:4]) + " 0 1"
            score, _ = engine.search(fen, options.depth)
            if score is None or score[0] != "cp":
                continue
            cp = round(score[1] * options.scale)
            if abs(cp) > options.max_cp:
                continue
            opcodes = " ".join(fields[4:]).split(";")
            kept = [op.strip() for op in opcodes
                    if op.strip() and not op.strip().startswith("ce ")]
            out.append(" ".join(fields[:4]) + f" ce {cp}; "
                       + " ".join(op + ";" for op in kept))
    finally:
        engine.quit()
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--engine", default="/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiplies the engine's scores (to our scale)")
    parser.add_argument("--max_cp", type=int, default=2000)
    parser.add_argument("--chunk", type=int, default=2000,
                        help="positions per task (progress is shown per task)")
    options = parser.parse_args()

    with open(options.input) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    chunks = [lines[i:i + options.chunk]
              for i in range(0, len(lines), options.chunk)]
    done = 0
    with open(options.output, "w") as out, \
            multiprocessing.Pool(options.jobs) as pool:
        for labelled in pool.imap(label_shard,
                                  [(c, options) for c in chunks]):
            out.writelines(l + "\n" for l in labelled)
            out.flush()
            done += 1
            print(f"{done}/{len(chunks)} chunks", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
