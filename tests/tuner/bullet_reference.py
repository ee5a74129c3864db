#!/usr/bin/env python3
"""bullet's (768 -> N) x 2 -> 1 SCReLU network, written and evaluated the way
bullet's documentation describes it, with nothing from this project: an
independent check of what our engine reads.

  bullet_reference.py write HIDDEN SEED OUT.bin
      a network as bullet quantises one (QA 255, QB 64): weights drawn as
      floats within bullet's clip of +-1.98 and rounded
  bullet_reference.py eval NET.bin QA QB SCALE < FENS
      each FEN's evaluation by bullet's reference inference, a line each
"""
import random
import struct
import sys

PIECES = "pnbrqk"


def write(hidden, seed, out):
    rng = random.Random(seed)
    qa, qb = 255, 64
    values = [round(rng.uniform(-0.06, 0.06) * qa) for _ in range(768 * hidden)]
    values += [round(rng.uniform(0.0, 0.3) * qa) for _ in range(hidden)]
    values += [round(rng.uniform(-1.98, 1.98) * qb) for _ in range(2 * hidden)]
    values += [round(0.1 * qa * qb)]
    data = struct.pack("<%dh" % len(values), *values)
    data += b"\0" * (-len(data) % 64)
    with open(out, "wb") as f:
        f.write(data)


def features(fen):
    """Chess768 indices for the side to move and the other side."""
    board, side = fen.split()[:2]
    stm, ntm = [], []
    rank = 7
    file = 0
    for c in board:
        if c == "/":
            rank -= 1
            file = 0
        elif c.isdigit():
            file += int(c)
        else:
            square = rank * 8 + file
            white = c.isupper()
            piece = PIECES.index(c.lower())
            # From White's view: White's pieces are "ours".
            white_view = (0 if white else 384) + 64 * piece + square
            black_view = (0 if not white else 384) + 64 * piece + (square ^ 56)
            if side == "w":
                stm.append(white_view)
                ntm.append(black_view)
            else:
                stm.append(black_view)
                ntm.append(white_view)
            file += 1
    return stm, ntm


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def evaluate(net, hidden, qa, qb, scale, fen):
    n = 768 * hidden
    weights, biases = net[:n], net[n:n + hidden]
    out_w = net[n + hidden:n + 3 * hidden]
    out_b = net[n + 3 * hidden]
    total = 0
    for half, feats in enumerate(features(fen)):
        acc = list(biases)
        for f in feats:
            row = weights[f * hidden:(f + 1) * hidden]
            acc = [a + w for a, w in zip(acc, row)]
        for j in range(hidden):
            v = min(max(acc[j], 0), qa)
            total += v * v * out_w[half * hidden + j]
    output = trunc_div(total, qa) + out_b
    return trunc_div(output * scale, qa * qb)


def main():
    if sys.argv[1] == "write":
        write(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
        return
    path, qa, qb, scale = sys.argv[2], *map(int, sys.argv[3:6])
    data = open(path, "rb").read()
    count = len(data) // 2
    net = struct.unpack("<%dh" % count, data[:2 * count])
    hidden = (len(data) - 2) // 2 // 771
    hidden -= hidden % 32
    for line in sys.stdin:
        fen = line.strip()
        if fen:
            print(evaluate(net, hidden, qa, qb, scale, fen))


if __name__ == "__main__":
    main()
