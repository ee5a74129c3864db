// The tuning report's charts, drawn from window.REPORT (tuner/report.cc):
// Elo per generation, loss and K, Texel's epochs and K fit, SPSA's theta
// trajectories, and piece-square heat maps (start, learned, difference).
'use strict';
const R = window.REPORT;
const PIECES = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];

function card(parent, title) {
  const c = el('div', {class: 'card'}, parent);
  el('h3', {}, c, title);
  return c;
}

function drawLoop(box) {
  const gens = R.generations;
  errorBarPlot(card(box, 'Elo of each candidate against the previous best (95%)'),
               gens.filter(g => g.elo !== null).map(g => ({x: g.g, y: g.elo, err: g.err})),
               {xLabel: 'generation', xInteger: true, yLabel: 'Elo', name: 'vs previous', width: 420});
  const accepted = gens.filter(g => g.eloStart !== null);
  if (accepted.length) {
    errorBarPlot(card(box, 'Elo of the best against the start (95%)'),
                 accepted.map(g => ({x: g.g, y: g.eloStart, err: g.errStart})),
                 {xLabel: 'generation', xInteger: true, yLabel: 'Elo', name: 'vs start', width: 420,
                  color: '#16a34a'});
  }
  const loss = [{name: 'after tuning', dots: true, points: gens.map(g => [g.g, g.loss])}];
  const before = gens.filter(g => g.startLoss !== null);
  if (before.length)
    loss.push({name: 'before (previous best)', dots: true, points: before.map(g => [g.g, g.startLoss])});
  linePlot(card(box, 'Texel loss per generation'), loss,
           {xLabel: 'generation', xInteger: true, yLabel: 'loss', width: 420, legend: true});
  linePlot(card(box, 'Fitted K per generation'),
           [{name: 'K', dots: true, points: gens.map(g => [g.g, g.k])}],
           {xLabel: 'generation', xInteger: true, yLabel: 'K', width: 420});
}

function drawTexel(box) {
  if (R.epochLoss.length)
    linePlot(card(box, 'Loss by epoch'),
             [{name: 'loss', points: R.epochLoss.map((l, i) => [i + 1, l])}],
             {xLabel: 'epoch', xInteger: true, yLabel: 'mean squared error', width: 460});
  if (R.kFit.length) {
    const pts = R.kFit.slice().sort((a, b) => a[0] - b[0]);
    const lo = Math.min(...pts.map(p => p[1]));
    // The golden-section search's probes, near the minimum.
    const near = pts.filter(p => p[1] <= lo + 3 * (Math.max(...pts.map(q => q[1])) - lo) / 4);
    linePlot(card(box, 'K fit: loss of the starting weights by K'),
             [{name: 'loss', dots: true, points: near}],
             {xLabel: 'K', yLabel: 'loss', width: 460,
              hlines: [{y: lo, label: 'K = ' + R.k}]});
  }
}

function drawSpsa(box) {
  for (const p of R.parameters) {
    // Scaled to the path, not to [min, max]: steps are small against the range.
    linePlot(card(box, p.name + ' (range ' + p.min + ' to ' + p.max + ')'),
             [{name: 'theta', points: p.theta}],
             {xLabel: 'iteration', xInteger: true, yLabel: 'value', width: 360, height: 190});
  }
  if (R.cumulative.length)
    linePlot(card(box, 'theta+ minus theta- points, summed'),
             [{name: 'points', points: R.cumulative}],
             {xLabel: 'iteration', xInteger: true, yLabel: 'points', width: 360, height: 190, hlines: [{y: 0}]});
}

function drawPst() {
  const controls = document.getElementById('pst-controls');
  const box = document.getElementById('pst');
  if (!controls || !R.start || !R.learned) return;
  const piece = el('select', {id: 'pst-piece'}, controls);
  PIECES.forEach((p, i) => el('option', {value: String(i)}, piece, p));
  piece.value = '1';
  const phase = el('select', {id: 'pst-phase'}, controls);
  el('option', {value: '0'}, phase, 'middle game');
  el('option', {value: '1'}, phase, 'end game');
  const render = () => {
    box.textContent = '';
    const p = +piece.value, ph = +phase.value;
    const a = R.start.pst[p][ph], b = R.learned.pst[p][ph];
    const name = PIECES[p] + (ph ? ' eg' : ' mg');
    heatMap(box, a, R.labels[0] + ': ' + name);
    heatMap(box, b, R.labels[1] + ': ' + name);
    heatMap(box, b.map((v, i) => v - a[i]), 'difference');
  };
  piece.addEventListener('change', render);
  phase.addEventListener('change', render);
  render();
}

document.addEventListener('DOMContentLoaded', () => {
  const box = document.getElementById('charts');
  if (R.kind === 'loop') drawLoop(box);
  if (R.kind === 'texel') drawTexel(box);
  if (R.kind === 'spsa') drawSpsa(box);
  drawPst();
  document.body.dataset.drawn = R.kind;
});
