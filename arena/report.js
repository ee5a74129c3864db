// The match report's interactive parts, drawn from window.REPORT (written by
// arena/report.cc): charts, the game list and the game viewer. The URL's
// hash opens a game: #game=INDEX[&ply=N|end][&step=all] (step=all walks to
// the end with the arrow key, as a reader would).
'use strict';
const R = window.REPORT;
const GAME_FIELDS = 8;  // index, white, black, result, termination, plies, round, opening
const RESULT_TEXT = ['*', '1-0', '0-1', '1/2-1/2'];
const CHUNKS = {};
const chunkWaiters = {};

// Called by each chunk of game moves (inline below, or report-games/*.js).
function reportGames(k, games) {
  CHUNKS[k] = games;
  for (const resolve of chunkWaiters[k] || []) resolve(games);
  delete chunkWaiters[k];
}

function loadChunk(k) {
  if (CHUNKS[k]) return Promise.resolve(CHUNKS[k]);
  return new Promise((resolve, reject) => {
    const first = !chunkWaiters[k];
    (chunkWaiters[k] = chunkWaiters[k] || []).push(resolve);
    if (!first || R.chunks.inline) return;
    const script = document.createElement('script');
    script.src = R.chunks.dir + '/chunk-' + k + '.js';
    script.onerror = () => reject(new Error(
        'the moves of this game are in ' + script.src +
        ', which is missing beside the report'));
    document.body.appendChild(script);
  });
}

function gameAt(i) {
  const f = R.games.slice(i * GAME_FIELDS, (i + 1) * GAME_FIELDS);
  return {pos: i, index: f[0], white: f[1], black: f[2], result: f[3],
          termination: f[4], plies: f[5], round: f[6], opening: f[7]};
}
const gameCount = () => R.games.length / GAME_FIELDS;

// ---- charts ----
function drawProgress() {
  const box = document.getElementById('progress');
  R.pairings.slice(0, 12).forEach((p, i) => {
    const card = el('div', {class: 'card'}, box);
    el('h3', {}, card, R.players[p.first] + ' vs ' + R.players[p.second]);
    const measured = p.progress.filter(s => s[1] !== null);
    // The first games' intervals are hundreds of Elo wide: the axis follows
    // the band once a tenth of the games are in.
    const total = measured.length ? measured[measured.length - 1][0] : 0;
    const settled = measured.filter(s => s[0] >= Math.max(10, total / 10));
    const span = settled.length ? settled : measured;
    linePlot(card, [{name: 'Elo', points: measured.map(s => [s[0], s[1]]),
                     band: measured.map(s => [s[0], s[1] - s[2], s[1] + s[2]])}],
             {xLabel: 'games', xInteger: true, yLabel: 'Elo (95% band)', hlines: [{y: 0}],
              width: 460, height: 200,
              yMin: Math.min(0, ...span.map(s => s[1] - s[2])),
              yMax: Math.max(0, ...span.map(s => s[1] + s[2]))});
    if (R.sprt && i === 0) {
      linePlot(card, [{name: 'LLR', points: p.progress.map(s => [s[0], s[3]])}],
               {xLabel: 'games', xInteger: true, yLabel: 'LLR', width: 460, height: 200,
                hlines: [{y: R.sprt.upper, label: 'H1 (elo1 ' + R.sprt.elo1 + ')', color: '#16a34a'},
                         {y: R.sprt.lower, label: 'H0 (elo0 ' + R.sprt.elo0 + ')', color: '#dc2626'}]});
    }
  });
  if (R.pairings.length > 12)
    el('p', {class: 'muted'}, box, (R.pairings.length - 12) + ' more pairings in the standings');
}

function drawBars() {
  const box = document.getElementById('bars');
  const labels = ['LL', 'LD', 'WL+DD', 'WD', 'WW'];
  const colors = ['#dc2626', '#f87171', '#9ca3af', '#4ade80', '#16a34a'];
  R.pairings.slice(0, 12).forEach(p => {
    const card = el('div', {class: 'card'}, box);
    el('h3', {}, card, 'Game pairs: ' + R.players[p.first] + ' vs ' + R.players[p.second]);
    barChart(card, p.penta.map((v, j) => ({label: labels[j], value: v, color: colors[j]})),
             {labelWidth: 60, width: 320});
  });
  const card = el('div', {class: 'card'}, box);
  el('h3', {}, card, 'Terminations');
  barChart(card, R.terminations.map(t => ({label: t[0], value: t[1]})),
           {labelWidth: 190, width: 420});
}

function drawPhases() {
  const box = document.getElementById('phases');
  const kinds = [['time per move (ms)', 1], ['depth', 2], ['nodes', 3]];
  for (const [label, k] of kinds) {
    const series = R.phases.map((cells, p) => ({
      name: R.players[p], dots: true,
      points: cells.map((c, j) => [j * R.phaseMoves + 1, c[k], c[0]])
                   .filter(pt => pt[2] > 0).map(pt => [pt[0], pt[1]])}));
    const card = el('div', {class: 'card'}, box);
    el('h3', {}, card, 'Average ' + label);
    linePlot(card, series, {xLabel: 'move number (last point: ' +
                                     ((R.phaseMoves * 7) + 1) + ' and later)',
                            width: 360, height: 190, legend: true});
  }
}

// ---- game list ----
let listLimit = 200;
function drawGameList() {
  const box = document.getElementById('games');
  const bar = el('div', {}, box);
  const result = el('select', {id: 'filter-result'}, bar);
  for (const [v, t] of [['', 'all results'], ['1', '1-0'], ['2', '0-1'], ['3', '1/2-1/2'], ['0', 'unfinished']])
    el('option', {value: v}, result, t);
  const term = el('select', {id: 'filter-termination'}, bar);
  el('option', {value: ''}, term, 'all terminations');
  for (const t of R.terminations)
    el('option', {value: String(R.terminationNames.indexOf(t[0]))}, term, t[0]);
  const player = el('select', {id: 'filter-player'}, bar);
  el('option', {value: ''}, player, 'all players');
  R.players.forEach((p, i) => el('option', {value: String(i)}, player, p));
  const count = el('span', {class: 'muted', id: 'games-count'}, bar);
  const wrap = el('div', {class: 'gamelist'}, box);
  const more = el('button', {id: 'games-more'}, box, 'show more');
  const render = () => {
    wrap.textContent = '';
    const t = el('table', {id: 'game-table'}, wrap);
    const head = el('tr', {}, t);
    for (const h of ['#', 'White', 'Black', 'Result', 'Termination', 'Plies', 'Round', 'Opening'])
      el('th', {}, head, h);
    let shown = 0, matched = 0;
    for (let i = 0; i < gameCount(); ++i) {
      const g = gameAt(i);
      if (result.value !== '' && g.result !== +result.value) continue;
      if (term.value !== '' && g.termination !== +term.value) continue;
      if (player.value !== '' && g.white !== +player.value && g.black !== +player.value) continue;
      ++matched;
      if (shown >= listLimit) continue;
      ++shown;
      const tr = el('tr', {'data-pos': i}, t);
      for (const v of [g.index, R.players[g.white], R.players[g.black], RESULT_TEXT[g.result],
                       R.terminationNames[g.termination], g.plies, g.round, g.opening])
        el('td', {}, tr, String(v));
      tr.addEventListener('click', () => openGame(i, 0));
    }
    count.textContent = ' ' + matched + ' games' + (matched > shown ? ', first ' + shown + ' shown' : '');
    more.hidden = matched <= shown;
  };
  for (const s of [result, term, player]) s.addEventListener('change', () => { listLimit = 200; render(); });
  more.addEventListener('click', () => { listLimit += 500; render(); });
  render();
}

// ---- board ----
const GLYPH = {K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659',
               k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f\ufe0e'};
const isWhite = p => p !== '' && p === p.toUpperCase();
const squareIndex = s => (8 - Number(s[1])) * 8 + (s.charCodeAt(0) - 97);
const squareName = i => 'abcdefgh'[i % 8] + (8 - Math.floor(i / 8));

function parseFen(fen) {
  const [placement, side, castling, ep, half, full] = fen.split(' ');
  const board = [];
  for (const c of placement.replace(/\//g, '')) {
    if (c >= '1' && c <= '8') for (let k = 0; k < +c; ++k) board.push('');
    else board.push(c);
  }
  return {board, white: side !== 'b', castling: castling || '-', ep: ep || '-',
          half: +(half || 0), full: +(full || 1)};
}

function toFen(pos) {
  let rows = [];
  for (let r = 0; r < 8; ++r) {
    let row = '', empty = 0;
    for (let f = 0; f < 8; ++f) {
      const p = pos.board[r * 8 + f];
      if (!p) { ++empty; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p;
    }
    rows.push(row + (empty ? empty : ''));
  }
  return [rows.join('/'), pos.white ? 'w' : 'b', pos.castling || '-', pos.ep,
          pos.half, pos.full].join(' ');
}

// A legal move in UCI notation (the log holds only moves the arena replayed).
function applyMove(pos, uci) {
  const b = pos.board.slice();
  const from = squareIndex(uci.slice(0, 2)), to = squareIndex(uci.slice(2, 4));
  const piece = b[from], target = b[to];
  const kind = piece.toLowerCase();
  let castling = pos.castling, ep = '-';
  const ownRook = target && target.toLowerCase() === 'r' && isWhite(target) === isWhite(piece);
  if (kind === 'k' && (Math.abs(to % 8 - from % 8) === 2 || ownRook)) {
    const row = from - from % 8, kingside = to % 8 > from % 8;
    const rookFrom = ownRook ? to : row + (kingside ? 7 : 0);
    const rook = b[rookFrom];
    b[from] = ''; b[rookFrom] = '';
    b[row + (kingside ? 6 : 2)] = piece; b[row + (kingside ? 5 : 3)] = rook;
  } else {
    if (kind === 'p' && from % 8 !== to % 8 && !target) b[to + (isWhite(piece) ? 8 : -8)] = '';
    if (kind === 'p' && Math.abs(to - from) === 16) ep = squareName((from + to) / 2);
    b[to] = uci.length > 4 ? (isWhite(piece) ? uci[4].toUpperCase() : uci[4]) : piece;
    b[from] = '';
  }
  if (kind === 'k') castling = castling.replace(isWhite(piece) ? /[KQ]/g : /[kq]/g, '');
  const corner = {56: 'Q', 63: 'K', 0: 'q', 7: 'k'};
  for (const s of [from, to]) if (corner[s]) castling = castling.replace(corner[s], '');
  return {board: b, white: !pos.white, castling: castling || '-', ep,
          half: kind === 'p' || target ? 0 : pos.half + 1,
          full: pos.full + (pos.white ? 0 : 1)};
}

// The page's compact moves (arena/report.cc): a square per character, and a
// promotion mark after a promoting move.
const SQUARE_CODES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PROMOTION = {'+': 'q', '*': 'r', '~': 'b', '!': 'n'};
function decodeMoves(text) {
  const square = c => {
    const i = SQUARE_CODES.indexOf(c);
    return 'abcdefgh'[i % 8] + (Math.floor(i / 8) + 1);
  };
  const moves = [];
  for (let i = 0; i + 1 < text.length; i += 2) {
    let m = square(text[i]) + square(text[i + 1]);
    if (PROMOTION[text[i + 2]]) m += PROMOTION[text[i++ + 2]];
    moves.push(m);
  }
  return moves;
}

// ---- viewer ----
const viewer = {game: null, positions: [], moves: [], scores: [], ply: 0, flipped: false};

function scoreText(s) {
  if (s === null || s === undefined) return '';
  if (Math.abs(s) >= 100000) return (s > 0 ? '#' : '#-') + (Math.abs(s) - 100000);
  return (s >= 0 ? '+' : '') + (s / 100).toFixed(2);
}
const scorePawns = s => Math.abs(s) >= 100000 ? Math.sign(s) * 10 : Math.max(-10, Math.min(10, s / 100));

function buildViewer() {
  const box = document.getElementById('viewer');
  box.innerHTML = '<p id="viewer-title" class="muted">Click a game in the list (or use #game=N in the address).</p>' +
      '<div class="grid"><div><div id="board" class="board"></div>' +
      '<p><button id="first" title="Home">|&#x25c0;</button> <button id="prev" title="left arrow">&#x25c0;</button> ' +
      '<button id="next" title="right arrow">&#x25b6;</button> <button id="last" title="End">&#x25b6;|</button> ' +
      '<button id="flip">flip</button> ply <span id="viewer-ply">0</span>/<span id="viewer-plies">0</span></p>' +
      '<p>FEN <code id="viewer-fen"></code></p></div>' +
      '<div id="movelist" class="moves card"></div><div id="evalgraph" class="card"></div></div>';
  document.getElementById('first').onclick = () => goTo(0);
  document.getElementById('prev').onclick = () => goTo(viewer.ply - 1);
  document.getElementById('next').onclick = () => goTo(viewer.ply + 1);
  document.getElementById('last').onclick = () => goTo(viewer.moves.length);
  document.getElementById('flip').onclick = () => { viewer.flipped = !viewer.flipped; drawBoard(); };
  document.addEventListener('keydown', e => {
    if (!viewer.game || e.target.tagName === 'SELECT') return;
    const step = {ArrowLeft: -1, ArrowRight: 1}[e.key];
    if (step) goTo(viewer.ply + step);
    else if (e.key === 'Home') goTo(0);
    else if (e.key === 'End') goTo(viewer.moves.length);
    else return;
    e.preventDefault();
  });
}

function drawBoard() {
  const board = document.getElementById('board');
  board.textContent = '';
  const pos = viewer.positions[viewer.ply];
  let last = [];
  if (viewer.ply > 0) {
    const m = viewer.moves[viewer.ply - 1];
    last = [squareIndex(m.slice(0, 2)), squareIndex(m.slice(2, 4))];
  }
  for (let k = 0; k < 64; ++k) {
    const i = viewer.flipped ? 63 - k : k;
    const light = (Math.floor(i / 8) + i % 8) % 2 === 0;
    const sq = el('div', {class: 'sq ' + (light ? 'light' : 'dark') + (last.includes(i) ? ' last' : ''),
                          'data-square': squareName(i)}, board);
    if (pos.board[i]) sq.textContent = GLYPH[pos.board[i]];
  }
  document.getElementById('viewer-fen').textContent = toFen(pos);
  document.getElementById('viewer-ply').textContent = String(viewer.ply);
  for (const s of document.querySelectorAll('#movelist .mv'))
    s.classList.toggle('current', +s.dataset.ply === viewer.ply);
  // Scrolls the move list only, never the page.
  const current = document.querySelector('#movelist .mv.current');
  const list = document.getElementById('movelist');
  if (current) {
    const top = current.offsetTop;  // the list is the offset parent
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20)
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
  const marker = document.getElementById('eval-marker');
  if (marker) {
    const svg = marker.ownerSVGElement, x = svg.X(viewer.ply);
    marker.setAttribute('x1', x); marker.setAttribute('x2', x);
  }
}

function goTo(ply) {
  if (!viewer.game) return;
  viewer.ply = Math.max(0, Math.min(viewer.moves.length, ply));
  drawBoard();
}

function drawMoveList(startPos) {
  const list = document.getElementById('movelist');
  list.textContent = '';
  let number = startPos.full, white = startPos.white;
  viewer.moves.forEach((m, i) => {
    if (white || i === 0) el('span', {class: 'num'}, list, number + (white ? '. ' : '... '));
    const s = el('span', {class: 'mv', 'data-ply': i + 1, title: scoreText(viewer.scores[i])}, list, m);
    s.addEventListener('click', () => goTo(i + 1));
    list.appendChild(document.createTextNode(' '));
    if (!white) ++number;
    white = !white;
  });
}

function drawEvalGraph(startWhite) {
  const box = document.getElementById('evalgraph');
  box.textContent = '';
  el('h3', {}, box, 'Evaluation (White\'s view, pawns; each engine\'s own score)');
  const g = viewer.game, series = [[], []];
  viewer.scores.forEach((s, i) => {
    if (s === null) return;
    const whiteMoved = (i % 2 === 0) === startWhite;
    series[whiteMoved ? 0 : 1].push([i + 1, scorePawns(s)]);
  });
  const svg = linePlot(box, [{name: R.players[g.white] + ' (White)', points: series[0], color: '#2563eb'},
                             {name: R.players[g.black] + ' (Black)', points: series[1], color: '#dc2626'}],
                       {xLabel: 'ply', xInteger: true, width: 420, height: 220, yMin: -10, yMax: 10, hlines: [{y: 0}],
                        legend: true, onClick: x => goTo(Math.round(x))});
  svgEl('line', {id: 'eval-marker', x1: 0, x2: 0, y1: svg.margin.t, y2: 220 - svg.margin.b,
                 stroke: '#111', 'stroke-width': 1}, svg);
}

async function openGame(pos, ply) {
  const g = gameAt(pos);
  const title = document.getElementById('viewer-title');
  try {
    const chunk = await loadChunk(Math.floor(pos / R.chunks.size));
    const [fen, moves, scores] = chunk[pos % R.chunks.size];
    viewer.game = g;
    viewer.moves = decodeMoves(moves);
    viewer.scores = scores;
    viewer.positions = [parseFen(fen)];
    for (const m of viewer.moves)
      viewer.positions.push(applyMove(viewer.positions[viewer.positions.length - 1], m));
    title.textContent = 'Game ' + g.index + ': ' + R.players[g.white] + ' vs ' + R.players[g.black] +
        ', ' + RESULT_TEXT[g.result] + ' (' + R.terminationNames[g.termination] + '), round ' +
        g.round + ', opening ' + g.opening;
    document.getElementById('viewer-plies').textContent = String(viewer.moves.length);
    drawMoveList(viewer.positions[0]);
    drawEvalGraph(viewer.positions[0].white);
    for (const tr of document.querySelectorAll('#game-table tr'))
      tr.classList.toggle('selected', +tr.dataset.pos === pos);
    goTo(ply === 'end' ? viewer.moves.length : ply);
  } catch (e) {
    title.textContent = 'Game ' + g.index + ': ' + e.message;
    console.error(e.message);
  }
}

function openFromHash() {
  const args = new URLSearchParams(location.hash.slice(1));
  if (!args.has('game')) return;
  const index = +args.get('game');
  let pos = -1;
  for (let i = 0; i < gameCount(); ++i) if (R.games[i * GAME_FIELDS] === index) { pos = i; break; }
  if (pos < 0) { console.error('no game ' + index + ' in this report'); return; }
  const ply = args.get('ply') === 'end' ? 'end' : +(args.get('ply') || 0);
  openGame(pos, ply).then(() => {
    if (args.get('step') !== 'all') return;
    goTo(0);
    for (let i = 0; i < viewer.moves.length; ++i)
      document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    document.body.dataset.stepped = String(viewer.ply);
  });
}

document.addEventListener('DOMContentLoaded', () => {
  drawProgress();
  drawBars();
  drawPhases();
  drawGameList();
  buildViewer();
  openFromHash();
  window.addEventListener('hashchange', openFromHash);
});
