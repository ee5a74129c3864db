#!/usr/bin/env python3
"""Makes the labelled positions `tuner net` trains on, in one command.

The steps, each skipped when its output is already in OUT_DIR (so a stopped
run goes on where it stopped; delete a file to redo its step):
  0. book.epd, only with --new_book N: N openings the network has never seen,
     made by `arena book` (--book_plies random plausible plies from the
     initial position, kept when close to equal); self-play uses it instead of
     --book.
  1. selfplay.textproto, games/: `default` against itself at node limits (the
     second player gets --nodes x 1.4, so that a pair's two games differ), from
     a shuffled book; with --opponent_elo E, against Stockfish (--engine) at
     UCI_Elo E instead, for positions like those of games against it. To stop
     it early, stop the arena (or this script) and run the same command again:
     the games in the log are kept and used.
  2. positions.epd: `tuner extract --qsearch_config=DEFAULT --format=epd` of
     the games (quiet positions, resolved by `default`'s quiescence; at most
     --max_per_game of each game when it is > 0, since one game's positions
     are alike).
  3. train.epd, valid.epd: the distinct positions, in the order the games were
     played; the last --valid_fraction of them (whole games, bar the one at the
     boundary) are held out.
  4. valid_labelled.epd, train_labelled.epd: both scored by Stockfish at
     --depth (label_positions.py), the held-out ones first. Labelling is the
     slow step (about 300 positions a second at depth 8 on two cores). Stopped,
     it leaves NAME_labelled.partial.epd, which `tuner net` can read as it is;
     run the same command again to label the rest (as often as it is stopped:
     a resumed run's labels are kept too).
  5. judge.epd, judge_labelled.epd, only with --judge_games LOG[,LOG]: the
     distinct quiet positions of other games (say, a ladder's games against
     Stockfish), none of them in train.epd, labelled as above: a held-out set
     of the positions the engine meets where it is judged, which self-play
     positions need not resemble.
Then it prints the `tuner net` command for the result (with judge_labelled.epd
among the held-out sets when there is one). With --previous DIR[,DIR], earlier
runs' OUT_DIRs, their train_labelled.epd are trained on too and their
valid_labelled.epd held out too (and no judge position is in their training
set): positions of games against Stockfish beside one earlier self-play set
fitted its games better but lost self-play games; beside two, the network gained
in self-play too (docs/strength-log.md, 2026-11-27).

Usage (issue 13):
  python3 tests/strength/network_data.py OUT_DIR --games 3000 --nodes 5000 \\
      --opponent_elo 2400 --opponent_nodes 4000 --new_book 2000 --seed 16001 \\
      --judge_games LADDER/games.log --previous /tmp/nd,/tmp/nd2
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

SELFPLAY = """# proto-file: arena/match_config.proto
# proto-message: chess.MatchConfig
name: "network-data"
players {{
  name: "default"
  config_file: "{config}"
  overrides {{ search {{ hash_mb: 4 }} }}
  time_control {{ nodes: {nodes} }}
}}
{opponent}
games: {games}
openings {{
  file: "{book}"
  order: SHUFFLED
}}
time_control {{ nodes: {nodes} }}
adjudication {{
  resign_score_cp: 1000
  resign_moves: 4
  max_moves: 250
}}
concurrency: {concurrency}
seed: {seed}
output_dir: "{games_dir}"
"""


SELF_OPPONENT = """players {{
  name: "default-more-nodes"
  config_file: "{config}"
  overrides {{ search {{ hash_mb: 4 }} }}
  time_control {{ nodes: {nodes} }}
}}"""

STOCKFISH_OPPONENT = """players {{
  name: "stockfish-{elo}"
  external {{
    argv: "{engine}"
    options {{ key: "UCI_LimitStrength" value: "true" }}
    options {{ key: "UCI_Elo" value: "{elo}" }}
    options {{ key: "Hash" value: "4" }}
  }}
  time_control {{ nodes: {nodes} }}
}}"""


def log(message):
    print(f"network_data: {message}", file=sys.stderr, flush=True)


def run(argv):
    log(" ".join(argv))
    result = subprocess.run(argv)
    if result.returncode != 0:
        sys.exit(f"network_data: {argv[0]} exited with {result.returncode}")


def write_lines(path, lines):
    """`lines` to `path`, through a .partial file: a stopped run leaves no
    half-written `path` for the next run to take as done."""
    with open(path + ".partial", "w") as f:
        f.writelines(lines)
    os.rename(path + ".partial", path)


def append_and_remove(source, target):
    """Adds the lines of `source` to `target`, then removes `source`."""
    with open(source) as lines, open(target, "a") as f:
        f.writelines(lines)
    os.remove(source)


def make_book(options, out):
    book = os.path.join(out, "book.epd")
    if os.path.exists(book):
        log(f"{book} exists: book skipped")
    else:
        run([options.arena, "book", f"--out={book}.partial",
             f"--positions={options.new_book}",
             f"--plies={options.book_plies}", f"--seed={options.seed}"])
        os.rename(book + ".partial", book)
    return book


def play(options, out):
    games_dir = os.path.join(out, "games")
    config = os.path.join(out, "selfplay.textproto")
    if os.path.exists(os.path.join(games_dir, "games.log")):
        log(f"{games_dir}/games.log exists: self-play skipped")
        return
    config_path = os.path.abspath(options.config)
    opponent_nodes = options.opponent_nodes or int(options.nodes * 1.4)
    if options.opponent_elo:
        opponent = STOCKFISH_OPPONENT.format(
            elo=options.opponent_elo, engine=os.path.abspath(options.engine),
            nodes=opponent_nodes)
    else:
        opponent = SELF_OPPONENT.format(config=config_path, nodes=opponent_nodes)
    with open(config, "w") as f:
        f.write(SELFPLAY.format(
            config=config_path, nodes=options.nodes, opponent=opponent,
            games=options.games,
            book=os.path.abspath(options.book),
            concurrency=options.concurrency, seed=options.seed,
            games_dir=games_dir))
    run([options.arena, "run", config])


def extract(options, out):
    positions = os.path.join(out, "positions.epd")
    if os.path.exists(positions):
        log(f"{positions} exists: extraction skipped")
        return
    extract_positions(options, [os.path.join(out, "games", "games.log")],
                      positions, options.max_per_game)


def extract_positions(options, game_logs, positions, max_per_game):
    partial = positions + ".partial"
    run([options.tuner, "extract",
         f"--qsearch_config={os.path.abspath(options.config)}",
         "--format=epd", f"--out={partial}",
         f"--max_per_game={max_per_game}", *game_logs])
    os.rename(partial, positions)


def position_key(line):
    """The position of an EPD line: its four FEN fields."""
    return " ".join(line.split()[:4])


def position_keys(path):
    """The positions of the EPD lines of `path`."""
    with open(path) as f:
        return {position_key(line) for line in f}


def comma_list(text):
    """The non-empty items of a comma-separated flag."""
    return [item for item in text.split(",") if item]


def distinct_lines(path):
    """The lines of `path` whose position is new, in order."""
    seen = set()
    kept = []
    with open(path) as f:
        for line in f:
            key = position_key(line)
            if key and key not in seen:
                seen.add(key)
                kept.append(line)
    return kept


def split(options, out):
    train = os.path.join(out, "train.epd")
    valid = os.path.join(out, "valid.epd")
    if os.path.exists(train) and os.path.exists(valid):
        log(f"{train} exists: split skipped")
        return
    lines = distinct_lines(os.path.join(out, "positions.epd"))
    held_out = int(len(lines) * options.valid_fraction)
    cut = len(lines) - held_out
    for path, part in ((valid, lines[cut:]), (train, lines[:cut])):
        write_lines(path, part)
    log(f"{len(lines)} distinct positions: {cut} to train on, "
        f"{held_out} held out")


def judge(options, out, game_logs, previous):
    """The held-out positions of `game_logs` (--judge_games): judge.epd, none
    of them in train.epd or in a `previous` run's train_labelled.epd."""
    judge_epd = os.path.join(out, "judge.epd")
    if os.path.exists(judge_epd):
        log(f"{judge_epd} exists: judge positions skipped")
        return
    positions = os.path.join(out, "judge_positions.epd")
    extract_positions(options, game_logs, positions, 0)
    trained = set().union(*(
        position_keys(path) for path in [
            os.path.join(out, "train.epd"),
            *(os.path.join(p, "train_labelled.epd") for p in previous)]))
    kept = [l for l in distinct_lines(positions)
            if position_key(l) not in trained]
    write_lines(judge_epd, kept)
    os.remove(positions)
    log(f"{len(kept)} distinct positions of --judge_games, none trained on")


def label(options, out, names):
    for name in names:
        labelled = os.path.join(out, f"{name}_labelled.epd")
        if os.path.exists(labelled):
            log(f"{labelled} exists: labelling skipped")
            continue
        partial = os.path.join(out, f"{name}_labelled.partial.epd")
        more = os.path.join(out, f"{name}_labelled.more.epd")
        if os.path.exists(more):
            # A resumed run stopped in its turn: keep what it labelled.
            append_and_remove(more, partial)
        source = os.path.join(out, f"{name}.epd")
        target = partial
        if os.path.exists(partial):
            # A stopped run: label only what it had not reached.
            done = position_keys(partial)
            source = os.path.join(out, f"{name}.rest.epd")
            with open(os.path.join(out, f"{name}.epd")) as f, \
                    open(source, "w") as rest:
                rest.writelines(l for l in f if position_key(l) not in done)
            target = more
            log(f"{len(done)} positions of {name} labelled before: resumed")
        run([sys.executable, os.path.join(HERE, "label_positions.py"),
             source, target, "--depth", str(options.depth),
             "--jobs", str(options.jobs), "--engine", options.engine])
        if target != partial:
            append_and_remove(more, partial)
            os.remove(source)
        os.rename(partial, labelled)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--book", default="/tmp/books/2moves_v1.epd")
    parser.add_argument("--new_book", type=int, default=0,
                        help="openings made by `arena book` instead of --book")
    parser.add_argument("--book_plies", type=int, default=10)
    parser.add_argument("--opponent_elo", type=int, default=0,
                        help="play Stockfish (--engine) at this UCI_Elo "
                        "instead of default at more nodes")
    parser.add_argument("--opponent_nodes", type=int, default=0,
                        help="the second player's nodes (0: 1.4 x --nodes)")
    parser.add_argument("--max_per_game", type=int, default=0)
    parser.add_argument("--judge_games", default="",
                        help="comma-separated arena game logs whose positions "
                        "are held out too")
    parser.add_argument("--previous", default="",
                        help="comma-separated OUT_DIRs of earlier runs whose "
                        "labelled positions the printed command trains on "
                        "and holds out too")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--valid_fraction", type=float, default=0.05)
    parser.add_argument("--engine", default="/usr/games/stockfish")
    parser.add_argument(
        "--config", default=os.path.join(ROOT, "configs/engines/default.textproto"))
    parser.add_argument(
        "--arena", default=os.path.join(ROOT, "bazel-bin/arena/arena"))
    parser.add_argument(
        "--tuner", default=os.path.join(ROOT, "bazel-bin/tuner/tuner"))
    options = parser.parse_args()
    book_file = [] if options.new_book > 0 else [(options.book, "--book")]
    judge_logs = comma_list(options.judge_games)
    previous = [os.path.abspath(p) for p in comma_list(options.previous)]
    for path, what in (*book_file,
                       *((log_path, "--judge_games") for log_path in judge_logs),
                       *((os.path.join(p, f"{name}_labelled.epd"), "--previous")
                         for p in previous for name in ("train", "valid")),
                       (options.config, "--config"),
                       (options.arena, "--arena (bazel build //arena)"),
                       (options.tuner, "--tuner (bazel build //tuner)"),
                       (options.engine, "--engine (apt install stockfish)")):
        if not os.path.exists(path):
            sys.exit(f"network_data: {path} ({what}) does not exist")
    if not 0 < options.valid_fraction < 1:
        sys.exit("network_data: --valid_fraction must be in (0, 1)")
    if min(options.new_book, options.max_per_game, options.opponent_nodes,
           options.opponent_elo) < 0 or options.book_plies < 1:
        sys.exit("network_data: --new_book, --max_per_game, --opponent_elo and "
                 "--opponent_nodes must be >= 0, --book_plies >= 1")
    os.makedirs(options.out_dir, exist_ok=True)
    if options.new_book > 0:
        options.book = make_book(options, options.out_dir)
    play(options, options.out_dir)
    extract(options, options.out_dir)
    split(options, options.out_dir)
    held_out = ["valid"]
    if judge_logs:
        judge(options, options.out_dir, judge_logs, previous)
        held_out.append("judge")
    label(options, options.out_dir, held_out + ["train"])
    out = os.path.abspath(options.out_dir)
    data = ",".join(f"{d}/train_labelled.epd" for d in [out, *previous])
    valid = ",".join([*(f"{out}/{name}_labelled.epd" for name in held_out),
                      *(f"{d}/valid_labelled.epd" for d in previous)])
    print(f"tuner net --data={data} --valid={valid} "
          "--start=configs/engines/default.textproto --out=net.textproto "
          "--settings=configs/tuning/network_continue.textproto")


if __name__ == "__main__":
    main()
