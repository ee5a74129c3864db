#!/usr/bin/env python3
"""bullet's (768 -> N) x 2 -> 1 SCReLU network, written and evaluated the way
bullet's documentation describes it, with nothing from this project: an
independent check of what our engine reads. Optionally with king buckets
(ChessBucketsMirrored: LAYOUT is 64 comma-separated numbers, a1 first) and
output buckets (MaterialCount<N>).

  bullet_reference.py write HIDDEN SEED OUT.bin [LAYOUT [OUTPUT_BUCKETS]]
      a network as bullet quantises one (QA 255, QB 64): weights drawn as
      floats within bullet's clip of +-1.98 and rounded
  bullet_reference.py eval NET.bin QA QB SCALE [LAYOUT [OUTPUT_BUCKETS]] < FENS
      each FEN's evaluation by bullet's reference inference, a line each
"""
import random
import struct
import sys

PIECES = "pnbrqk"


def parse_shape(args):
    layout = [int(x) for x in args[0].split(",")] if args and args[0] else []
    outputs = int(args[1]) if len(args) > 1 else 1
    return layout, outputs


def write(hidden, seed, out, layout, outputs):
    rng = random.Random(seed)
    qa, qb = 255, 64
    buckets = max(layout) + 1 if layout else 1
    values = [round(rng.uniform(-0.06, 0.06) * qa)
              for _ in range(buckets * 768 * hidden)]
    values += [round(rng.uniform(0.0, 0.3) * qa) for _ in range(hidden)]
    values += [round(rng.uniform(-1.98, 1.98) * qb)
               for _ in range(outputs * 2 * hidden)]
    values += [round(rng.uniform(-0.2, 0.2) * qa * qb) for _ in range(outputs)]
    data = struct.pack("<%dh" % len(values), *values)
    data += b"\0" * (-len(data) % 64)
    with open(out, "wb") as f:
        f.write(data)


def pieces_of(fen):
    """(white, piece 0-5, square a1=0) for each piece, and the side to move."""
    board, side = fen.split()[:2]
    out = []
    rank, file = 7, 0
    for c in board:
        if c == "/":
            rank -= 1
            file = 0
        elif c.isdigit():
            file += int(c)
        else:
            out.append((c.isupper(), PIECES.index(c.lower()), rank * 8 + file))
            file += 1
    return out, side


def features(pieces, white_view, layout):
    """Chess768 (bucketed, mirrored) indices seen from one side."""
    def relative(square):
        return square if white_view else square ^ 56
    king = next(relative(s) for w, p, s in pieces if p == 5 and w == white_view)
    flip = 7 if layout and king % 8 > 3 else 0
    offset = 768 * layout[king] if layout else 0
    return [offset + (0 if w == white_view else 384) + 64 * p +
            (relative(s) ^ flip) for w, p, s in pieces]


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def evaluate(net, hidden, qa, qb, scale, layout, outputs, fen):
    buckets = max(layout) + 1 if layout else 1
    n = buckets * 768 * hidden
    weights, biases = net[:n], net[n:n + hidden]
    out_w = net[n + hidden:n + hidden + outputs * 2 * hidden]
    out_b = net[n + hidden + outputs * 2 * hidden:]
    pieces, side = pieces_of(fen)
    bucket = min((len(pieces) - 2) // -(-32 // outputs), outputs - 1)
    total = 0
    for half, white_view in enumerate((side == "w", side != "w")):
        acc = list(biases)
        for f in features(pieces, white_view, layout):
            row = weights[f * hidden:(f + 1) * hidden]
            acc = [a + w for a, w in zip(acc, row)]
        for j in range(hidden):
            v = min(max(acc[j], 0), qa)
            total += v * v * out_w[(2 * bucket + half) * hidden + j]
    output = trunc_div(total, qa) + out_b[bucket]
    return trunc_div(output * scale, qa * qb)


def main():
    if sys.argv[1] == "write":
        layout, outputs = parse_shape(sys.argv[5:])
        write(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], layout, outputs)
        return
    path, qa, qb, scale = sys.argv[2], *map(int, sys.argv[3:6])
    layout, outputs = parse_shape(sys.argv[6:])
    buckets = max(layout) + 1 if layout else 1
    data = open(path, "rb").read()
    net = struct.unpack("<%dh" % (len(data) // 2), data)
    # The largest N whose values fit the file (the rest is padding).
    hidden = max(h for h in range(32, 1025, 32)
                 if 2 * (buckets * 768 * h + h + outputs * 2 * h + outputs)
                 <= len(data))
    for line in sys.stdin:
        fen = line.strip()
        if fen:
            print(evaluate(net, hidden, qa, qb, scale, layout, outputs, fen))


if __name__ == "__main__":
    main()
