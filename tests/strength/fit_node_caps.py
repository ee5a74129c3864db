#!/usr/bin/env python3
"""Fits UCI_Elo's node caps (engine/skill.cc) to matches against Stockfish.

Each match: our engine at full strength capped at NODES a move against
Stockfish 15.1 at UCI_Elo ANCHOR (300,000 nodes a move), with W-D-L from
`arena summary`. The fit is the line Elo = a + b log2(nodes / 16,000) that
makes every game's result most likely (logistic expected score against the
anchor), found on a grid of whole a and half b. Prints, for each engine's
matches, a, b, the caps for some settings, and each match's score beside the
line's. engine/skill.cc holds the fit of `default`'s matches.
"""
import math

# nodes, Stockfish's UCI_Elo, wins, draws, losses (docs/engine.md, 2026-11-29).
# `stockfish_taught`, `default` until 2026-11-29:
STOCKFISH_TAUGHT = [
    (4000, 1900, 14, 7, 20),
    (16000, 2150, 5, 6, 20),
    (64000, 2400, 1, 4, 17),
    (64000, 2100, 9, 4, 10),
    (250000, 2300, 10, 8, 7),
    (1000000, 2400, 2, 2, 4),
    (18539, 2000, 33, 18, 52),
    (104873, 2200, 24, 30, 45),
    (593251, 2400, 14, 18, 23),
]
# The self-taught `default` (gen12), at the caps stockfish_taught's line gave:
SELF_TAUGHT = [
    (26375, 2000, 40, 10, 49),
    (173908, 2200, 27, 11, 34),
    (1146694, 2400, 14, 15, 30),
]
# The self-taught `default` at the caps of its own line (engine/skill.cc), the
# check of that line: each match's score beside the line's.
SELF_TAUGHT_AT_ITS_CAPS = [
    (316048, 2200, 20, 15, 28),
    (2904351, 2400, 11, 2, 12),
]
SHIPPED_LINE = (1931, 62.5)
REFERENCE_NODES = 16000


def expected_score(elo, anchor):
    return 1 / (1 + 10 ** ((anchor - elo) / 400))


def negative_log_likelihood(matches, a, b):
    total = 0.0
    for nodes, anchor, wins, draws, losses in matches:
        p = expected_score(a + b * math.log2(nodes / REFERENCE_NODES), anchor)
        total -= (wins + draws / 2) * math.log(p)
        total -= (losses + draws / 2) * math.log(1 - p)
    return total


def report(name, matches):
    _, a, b = min((negative_log_likelihood(matches, a, b / 2), a, b / 2)
                  for a in range(1800, 2200) for b in range(40, 300))
    print(f"{name}: Elo = {a} + {b} log2(nodes / {REFERENCE_NODES})")
    for elo in (1850, 2000, 2200, 2400):
        print(f"UCI_Elo {elo}: {round(REFERENCE_NODES * 2 ** ((elo - a) / b))} nodes")
    compare(matches, a, b)


def compare(matches, a, b):
    for nodes, anchor, wins, draws, losses in matches:
        score = (wins + draws / 2) / (wins + draws + losses)
        line = expected_score(a + b * math.log2(nodes / REFERENCE_NODES), anchor)
        print(f"{nodes:>9} vs {anchor}: score {score:.3f}, the line's {line:.3f}")


def main():
    report("stockfish_taught", STOCKFISH_TAUGHT)
    report("default", SELF_TAUGHT)
    print(f"default at the caps of {SHIPPED_LINE[0]} + {SHIPPED_LINE[1]} log2(nodes / {REFERENCE_NODES}):")
    compare(SELF_TAUGHT_AT_ITS_CAPS, *SHIPPED_LINE)


if __name__ == "__main__":
    main()
