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
import re
import sys

from uci_engine import UciEngine


RANK = re.compile(r"^[pnbrqkPNBRQK1-8]+$")


def fen_problem(fields):
    """Why the line's first four fields are not a position the engine can be
    given (Stockfish crashes on some malformed FENs), or None."""
    if len(fields) < 4:
        return "fewer than four FEN fields"
    board, side, castling, en_passant = fields[:4]
    ranks = board.split("/")
    if len(ranks) != 8 or not all(RANK.match(r) for r in ranks):
        return "the board is not eight ranks of pieces and digits"
    if any(sum(int(c) if c.isdigit() else 1 for c in r) != 8 for r in ranks):
        return "a rank does not hold eight squares"
    if board.count("K") != 1 or board.count("k") != 1:
        return "not exactly one king a side"
    if side not in ("w", "b"):
        return "the side to move is not w or b"
    if not re.match(r"^(-|K?Q?k?q?)$", castling) or not castling:
        return "bad castling field"
    if not re.match(r"^(-|[a-h][36])$", en_passant):
        return "bad en passant field"
    return None


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

    lines = []
    malformed = 0
    with open(options.input) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            problem = fen_problem(line.split())
            if problem is None:
                lines.append(line)
                continue
            malformed += 1
            if malformed <= 10:
                print(f"{options.input}:{number}: {problem}; left out",
                      file=sys.stderr)
    if malformed:
        print(f"{malformed} malformed lines left out", file=sys.stderr)
    chunks = [lines[i:i + options.chunk]
              for i in range(0, len(lines), options.chunk)]
    done = 0
    with open(options.output, "w") as out, \
            multiprocessing.Pool(options.jobs) as pool:
        try:
            for labelled in pool.imap(label_shard,
                                      [(c, options) for c in chunks]):
                out.writelines(l + "\n" for l in labelled)
                out.flush()
                done += 1
                print(f"{done}/{len(chunks)} chunks", file=sys.stderr,
                      flush=True)
        except (OSError, RuntimeError) as e:
            # The chunks before the failing one are in the output already.
            sys.exit(f"label_positions: {options.engine} failed in chunk "
                     f"{done + 1} of {len(chunks)} ({e}); the {done} chunks "
                     f"before it are in {options.output}")


if __name__ == "__main__":
    main()
