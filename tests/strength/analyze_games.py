#!/usr/bin/env python3
"""Where a player's games against Stockfish go wrong: every position of an arena
PGN is analysed by /usr/games/stockfish at full strength (`go depth N`), then
each move's loss and the gap between the player's own recorded score and the
analysis are summarised. A diagnosis tool (issue 13), not part of the tests:

  python3 tests/strength/analyze_games.py out/diag/games.pgn default 13 [out.json]

Needs the arena's PGN comments ({+0.53/20 0.367s}) and Stockfish's `d`,
`go perft 1` and `go depth` commands; SAN is matched against Stockfish's legal
moves, so no chess library is needed.
"""
import re, sys, json
from concurrent.futures import ThreadPoolExecutor

from uci_engine import UciEngine

class SF(UciEngine):
    def __init__(self):
        super().__init__('/usr/games/stockfish', {'Hash': 64})
    def board(self, fen, moves):
        self.position(fen, moves); self.send('d'); lines = self.wait_for('Checkers')
        f = [l for l in lines if l.startswith('Fen:')][0][5:]
        return f
    def legal(self, fen, moves):
        self.position(fen, moves); self.send('go perft 1'); lines = self.wait_for('Nodes searched')
        return [l.split(':')[0] for l in lines if re.match(r'^[a-h][1-8][a-h][1-8][qrbn]?:', l)]
    def evaluate(self, fen, moves, depth):
        score, lines = self.search(fen, depth, moves)
        sc = None
        if score:
            sc = score[1] if score[0] == 'cp' else (10000 if score[1] > 0 else -10000)
        return sc, lines[-1].split()[1]

def san_to_uci(sf, fen, moves, san):
    san = san.rstrip('+#!?')
    legal = sf.legal(fen, moves)
    board_fen = sf.board(fen, moves)
    placement, stm = board_fen.split()[0], board_fen.split()[1]
    sq = {}
    r = 7
    for row in placement.split('/'):
        f = 0
        for c in row:
            if c.isdigit(): f += int(c)
            else: sq['abcdefgh'[f] + str(r + 1)] = c; f += 1
        r -= 1
    if san in ('O-O', 'O-O-O'):
        rank = '1' if stm == 'w' else '8'
        return 'e' + rank + ('g' if san == 'O-O' else 'c') + rank
    promo = ''
    m = re.match(r'^(.*)=([QRBN])$', san)
    if m: san, promo = m.group(1), m.group(2).lower()
    piece = san[0] if san[0] in 'KQRBN' else 'P'
    body = san[1:] if piece != 'P' else san
    body = body.replace('x', '')
    to = body[-2:]; dis = body[:-2]
    cands = []
    for u in legal:
        if u[2:4] != to or (u[4:] != promo): continue
        p = sq.get(u[:2], '?').upper()
        if p != piece: continue
        if dis and not all(ch in u[:2] for ch in dis): continue
        cands.append(u)
    assert len(cands) == 1, (san, cands, board_fen)
    return cands[0]

def parse_pgn(path):
    games = []
    for block in open(path).read().split('[Event ')[1:]:
        hdr = dict(re.findall(r'\[(\w+) "([^"]*)"\]', '[Event ' + block))
        body = re.sub(r'\{[^}]*\}', '', block.split('\n\n', 1)[1])
        comments = re.findall(r'\{([^}]*)\}', block.split('\n\n', 1)[1])
        toks = [t for t in body.split() if not re.match(r'^\d+\.+$', t) and t not in ('1-0', '0-1', '1/2-1/2', '*')]
        toks = [re.sub(r'^\d+\.+', '', t) for t in toks]
        games.append((hdr, toks, comments))
    return games

def analyze(args):
    gi, (hdr, sans, comments) = args
    sf = SF()
    fen = hdr['FEN']
    moves = []
    for s in sans: moves.append(san_to_uci(sf, fen, moves, s))
    stm0 = fen.split()[1]
    out = []
    for i in range(len(moves) + 1):
        sc, best = sf.evaluate(fen, moves[:i], DEPTH) if i < len(moves) else (None, None)
        white_to_move = (stm0 == 'w') == (i % 2 == 0)
        out.append(dict(ply=i, fen=sf.board(fen, moves[:i]), sf_stm=sc, sf_best=best,
                        white_to_move=white_to_move, played=moves[i] if i < len(moves) else None,
                        comment=comments[i] if i < len(comments) else None))
    sf.process.kill()
    return dict(game=gi, white=hdr['White'], result=hdr['Result'], plies=out)

def report(res, player):
    # A move's loss: the analysis's score before it, less the score after it
    # (both from the mover's side, capped at 10 pawns).
    cap = lambda x: max(-1000, min(1000, x))
    losses = {'ours': [], 'theirs': []}
    gaps = []
    for g in res:
        ps = g['plies']
        for i in range(len(ps) - 1):
            if ps[i]['sf_stm'] is None or ps[i + 1]['sf_stm'] is None: continue
            ours = ps[i]['white_to_move'] == (g['white'] == player)
            losses['ours' if ours else 'theirs'].append(cap(ps[i]['sf_stm']) + cap(ps[i + 1]['sf_stm']))
            m = re.match(r'([+-]?\d+\.\d+)/', ps[i]['comment'] or '')
            if ours and m:
                score = int(round(float(m.group(1)) * 100))
                if abs(score) <= 800 and abs(ps[i]['sf_stm']) <= 800:
                    gaps.append(score - ps[i]['sf_stm'])
    for side, v in losses.items():
        print('%s moves %d  mean loss %.1f cp  >= 100 cp: %d  >= 200 cp: %d' % (
            side, len(v), sum(v) / len(v), sum(x >= 100 for x in v), sum(x >= 200 for x in v)))
    gaps.sort()
    print('our score minus the analysis: %d positions, mean %+.0f cp, median %+.0f cp' % (
        len(gaps), sum(gaps) / len(gaps), gaps[len(gaps) // 2]))

if __name__ == '__main__':
    # analyze_games.py GAMES.PGN PLAYER [DEPTH] [OUT.json]
    pgn, player = sys.argv[1], sys.argv[2]
    DEPTH = int(sys.argv[3]) if len(sys.argv) > 3 else 13
    with ThreadPoolExecutor(2) as ex:
        res = list(ex.map(analyze, enumerate(parse_pgn(pgn))))
    if len(sys.argv) > 4: json.dump(res, open(sys.argv[4], 'w'))
    report(res, player)
