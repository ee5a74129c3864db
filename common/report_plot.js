// Small SVG plotting helpers shared by the match and tuning reports: line plots
// with error bands, bar charts, error-bar plots and heat maps. Written here
// rather than vendored: the few chart kinds we draw fit in this file, and a
// charting library would be larger than all our reports' scripts together.
'use strict';
const SVG_NS = 'http://www.w3.org/2000/svg';

function el(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function svgEl(tag, attrs, parent, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c',
                 '#0891b2', '#4d7c0f', '#be185d', '#475569', '#ca8a04'];

// Round ticks (1, 2, 2.5 or 5 times a power of ten) covering [lo, hi];
// whole numbers only when `integer` (generations, iterations, plies).
function niceTicks(lo, hi, count, integer) {
  if (!(hi > lo)) { hi = lo + 1; }
  const raw = (hi - lo) / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  let step = [1, 2, 2.5, 5, 10].map(m => m * mag).find(s => s >= raw) || raw;
  if (integer) step = Math.max(1, Math.round(step));
  const ticks = [];
  for (let i = Math.ceil(lo / step); i * step <= hi + step * 1e-9; ++i)
    ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

function fmtTick(t) {
  const a = Math.abs(t);
  if (a >= 1e6) return (t / 1e6).toFixed(a % 1e6 ? 1 : 0) + 'M';
  if (a >= 1e4) return (t / 1e3).toFixed(0) + 'k';
  if (Number.isInteger(t)) return String(t);
  return t.toFixed(a < 0.1 ? 4 : 2).replace(/0+$/, '').replace(/\.$/, '');
}

// series: [{name, color, points: [[x, y]], band: [[x, lo, hi]], dots}];
// opts: {width, height, xLabel, yLabel, hlines: [{y, label, color}], yMin,
// yMax, xInteger, onClick(x)}. Returns the <svg> with a .toX(px) helper.
function linePlot(parent, series, opts) {
  const W = opts.width || 520, H = opts.height || 220;
  const m = {l: 52, r: 12, t: 14, b: 34};
  const svg = svgEl('svg', {width: W, height: H, viewBox: `0 0 ${W} ${H}`,
                            role: 'img'}, parent);
  if (opts.title) svgEl('title', {}, svg, opts.title);
  let xs = [], ys = [];
  for (const s of series) {
    for (const p of s.points || []) { xs.push(p[0]); ys.push(p[1]); }
    for (const b of s.band || []) { xs.push(b[0]); ys.push(b[1], b[2]); }
  }
  for (const h of opts.hlines || []) ys.push(h.y);
  if (!xs.length) { xs = [0, 1]; ys = [0, 1]; }
  let x0 = Math.min(...xs), x1 = Math.max(...xs);
  let y0 = opts.yMin !== undefined ? opts.yMin : Math.min(...ys);
  let y1 = opts.yMax !== undefined ? opts.yMax : Math.max(...ys);
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) { y0 -= 1; y1 += 1; }
  const pad = (y1 - y0) * 0.05; y0 -= pad; y1 += pad;
  const X = x => m.l + (x - x0) / (x1 - x0) * (W - m.l - m.r);
  const Y = y => H - m.b - (Math.min(Math.max(y, y0), y1) - y0) / (y1 - y0) *
                             (H - m.t - m.b);
  for (const t of niceTicks(y0, y1, 5)) {
    svgEl('line', {class: 'gridline', x1: m.l, x2: W - m.r, y1: Y(t), y2: Y(t)}, svg);
    svgEl('text', {x: m.l - 4, y: Y(t) + 4, 'text-anchor': 'end'}, svg, fmtTick(t));
  }
  for (const t of niceTicks(x0, x1, 6, opts.xInteger)) {
    svgEl('text', {x: X(t), y: H - m.b + 14, 'text-anchor': 'middle'}, svg, fmtTick(t));
  }
  svgEl('line', {class: 'axis', x1: m.l, x2: m.l, y1: m.t, y2: H - m.b}, svg);
  svgEl('line', {class: 'axis', x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b}, svg);
  if (opts.xLabel) svgEl('text', {x: (W + m.l) / 2, y: H - 4, 'text-anchor': 'middle'}, svg, opts.xLabel);
  if (opts.yLabel) svgEl('text', {x: 12, y: (H - m.b + m.t) / 2, 'text-anchor': 'middle',
                                  transform: `rotate(-90 12 ${(H - m.b + m.t) / 2})`}, svg, opts.yLabel);
  for (const h of opts.hlines || []) {
    svgEl('line', {x1: m.l, x2: W - m.r, y1: Y(h.y), y2: Y(h.y),
                   stroke: h.color || '#667085', 'stroke-dasharray': '4 3'}, svg);
    if (h.label) svgEl('text', {x: W - m.r - 2, y: Y(h.y) - 3, 'text-anchor': 'end'}, svg, h.label);
  }
  series.forEach((s, i) => {
    const color = s.color || PALETTE[i % PALETTE.length];
    if (s.band && s.band.length) {
      const top = s.band.map(b => `${X(b[0])},${Y(b[2])}`);
      const bottom = s.band.slice().reverse().map(b => `${X(b[0])},${Y(b[1])}`);
      svgEl('polygon', {class: 'band', fill: color, points: top.concat(bottom).join(' ')}, svg);
    }
    if (s.points && s.points.length) {
      svgEl('polyline', {fill: 'none', stroke: color, 'stroke-width': 1.6,
                         points: s.points.map(p => `${X(p[0])},${Y(p[1])}`).join(' ')}, svg);
      if (s.dots) for (const p of s.points) svgEl('circle', {cx: X(p[0]), cy: Y(p[1]), r: 2.5, fill: color}, svg);
    }
  });
  if (series.length > 1 || opts.legend) {
    let lx = m.l + 6;
    series.forEach((s, i) => {
      if (!s.name) return;
      const color = s.color || PALETTE[i % PALETTE.length];
      svgEl('rect', {x: lx, y: m.t, width: 10, height: 10, fill: color}, svg);
      const t = svgEl('text', {x: lx + 14, y: m.t + 9}, svg, s.name);
      lx += 24 + 7 * s.name.length;
    });
  }
  svg.toX = px => x0 + (px - m.l) / (W - m.l - m.r) * (x1 - x0);
  svg.X = X; svg.Y = Y; svg.margin = m;
  if (opts.onClick) {
    svg.style.cursor = 'pointer';
    svg.addEventListener('click', e => {
      const r = svg.getBoundingClientRect();
      opts.onClick(svg.toX((e.clientX - r.left) * W / r.width));
    });
  }
  return svg;
}

// Horizontal bars: items [{label, value, color}].
function barChart(parent, items, opts) {
  opts = opts || {};
  const W = opts.width || 360, rowH = 20, labelW = opts.labelWidth || 150;
  const H = items.length * rowH + 8;
  const svg = svgEl('svg', {width: W, height: H, role: 'img'}, parent);
  const max = Math.max(1, ...items.map(i => i.value));
  items.forEach((it, i) => {
    const y = 4 + i * rowH;
    svgEl('text', {x: labelW - 6, y: y + 13, 'text-anchor': 'end'}, svg, it.label);
    const w = (W - labelW - 60) * it.value / max;
    svgEl('rect', {x: labelW, y: y + 2, width: Math.max(w, 0.5), height: rowH - 6,
                   fill: it.color || PALETTE[0]}, svg);
    svgEl('text', {x: labelW + w + 4, y: y + 13}, svg, String(it.value));
  });
  return svg;
}

// Points with vertical error bars: items [{x, y, err, label}].
function errorBarPlot(parent, items, opts) {
  const series = [{name: opts.name, points: items.map(i => [i.x, i.y]), dots: true,
                   color: opts.color}];
  const bounds = items.flatMap(i => [i.y - (i.err || 0), i.y + (i.err || 0)]);
  const svg = linePlot(parent, series, Object.assign({}, opts, {
    yMin: Math.min(0, ...bounds), yMax: Math.max(0, ...bounds),
    hlines: [{y: 0}]}));
  for (const i of items) {
    if (!i.err) continue;
    const x = svg.X(i.x);
    svgEl('line', {x1: x, x2: x, y1: svg.Y(i.y - i.err), y2: svg.Y(i.y + i.err),
                   stroke: opts.color || PALETTE[0]}, svg);
  }
  return svg;
}

// An 8x8 table coloured by value (blue negative, red positive); values[0] is
// a8, as a board is printed from White's side.
function heatMap(parent, values, title) {
  const box = el('div', {class: 'card'}, parent);
  el('h3', {}, box, title);
  const t = el('table', {class: 'heat'}, box);
  const max = Math.max(1, ...values.map(Math.abs));
  for (let r = 0; r < 8; ++r) {
    const tr = el('tr', {}, t);
    for (let f = 0; f < 8; ++f) {
      const v = values[r * 8 + f];
      const a = Math.min(1, Math.abs(v) / max);
      const color = v >= 0 ? `rgba(220,38,38,${a * 0.85})` : `rgba(37,99,235,${a * 0.85})`;
      el('td', {style: `background:${color}`, title: 'abcdefgh'[f] + (8 - r) + ': ' + v}, tr, String(v));
    }
  }
  return box;
}
