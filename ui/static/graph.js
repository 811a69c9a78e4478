// The SVG drawings: a recall's trace, the neighbourhood of a memory, the edges one
// reconsolidation changed, and bar charts. Each returns an <svg> element.

import { s, short, fixed, typeColors } from './dom.js';

const COL = 250; // width of one column of the trace
const ROW = 38; // height of one node row

function nodeMark(x, y, node, { cut = false, href = null, title = '' } = {}) {
  const fill = cut ? '#fff' : typeColors[node.type] || '#888';
  const g = s('g', { class: cut ? 'node cut' : 'node', 'data-id': node.id, transform: `translate(${x},${y})` },
    s('title', {}, title || node.content || node.id),
    s('circle', { r: 7, fill, stroke: typeColors[node.type] || '#888', 'stroke-width': 2,
      'stroke-dasharray': cut ? '3 2' : null }));
  if (href) g.addEventListener('click', () => { location.hash = href; });
  return g;
}

function label(x, y, text, cls) {
  return s('text', { x, y, class: cls }, text);
}

// edgeLabel is a predicate and a weight, drawn at the middle of a link.
function edgeLabel(x1, y1, x2, y2, text) {
  return s('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 3, class: 'edge-label', 'text-anchor': 'middle' }, text);
}

// traceGraph draws a recall: the query and its plans on the left, then one column per
// depth at which nodes were first reached (0: the seeds). A filled node was returned; a
// hollow, dashed one was reached and cut from the top K. Each node is linked to where it
// came from: the query for a seed, else the frontier node of the first expansion step
// that reached it, with the edge's predicate and weight when the recall returned that
// edge, or the step's score (dashed) when it did not. The returned edges among the
// evidence are drawn thin, with their weights.
export function traceGraph(trace, result, nodeInfo, memoryHref) {
  const returned = new Map(result.nodes.map((n) => [n.node.id, n]));
  const depthOf = trace.first_depth || {};
  const ids = Object.keys(depthOf);
  const maxDepth = Math.max(0, ...ids.map((id) => depthOf[id]));
  const columns = Array.from({ length: maxDepth + 1 }, () => []);
  for (const id of ids) columns[depthOf[id]].push(id);
  const score = (id) => (returned.has(id) ? returned.get(id).score : -1);
  for (const col of columns) col.sort((a, b) => score(b) - score(a) || a.localeCompare(b));

  const pos = new Map();
  columns.forEach((col, d) => col.forEach((id, i) => pos.set(id, { x: 40 + COL * (d + 1), y: 70 + ROW * i })));
  const height = 90 + ROW * Math.max(1, ...columns.map((c) => c.length));
  const width = 40 + COL * (maxDepth + 2);
  const svg = s('svg', { class: 'graph trace', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': 'recall trace' });

  svg.append(label(20, 20, 'query', 'column-title'));
  columns.forEach((_, d) => svg.append(label(40 + COL * (d + 1) - 10, 20, d === 0 ? 'seeds (depth 0)' : `depth ${d}`, 'column-title')));
  const query = { x: 40, y: 70 };
  svg.append(s('g', { class: 'query', transform: `translate(${query.x},${query.y})` },
    s('rect', { x: -30, y: -12, width: 130, height: 24, rx: 4 }),
    label(-24, 4, short(trace.query, 22), 'query-text'),
    s('title', {}, trace.query)));
  (trace.plans || []).forEach((p, i) => svg.append(
    label(10, 100 + 16 * i, short(`${p.mode}: ${(p.keywords || []).join(' ')}`, 32), 'plan-text')));

  const links = s('g', { class: 'links' });
  const edges = s('g', { class: 'edges' });
  svg.append(edges, links);
  const seedScore = new Map((trace.seeds || []).map((x) => [x.id, x.score]));
  for (const id of columns[0]) {
    const p = pos.get(id);
    links.append(s('line', { class: 'link seed', x1: query.x + 100, y1: query.y, x2: p.x - 8, y2: p.y }));
  }

  const resultEdge = (a, b) => (result.edges || []).find((e) => (e.from === a && e.to === b) || (e.from === b && e.to === a));
  const arrived = new Set(columns[0]);
  for (const step of trace.steps || []) {
    for (const r of step.reached || []) {
      if (arrived.has(r.id) || !pos.has(r.id)) continue;
      const from = (step.frontier || []).find((f) => pos.has(f));
      if (!from) continue;
      arrived.add(r.id);
      const a = pos.get(from), b = pos.get(r.id);
      const e = (step.frontier || []).map((f) => resultEdge(f, r.id)).find(Boolean);
      links.append(s('line', { class: e ? 'link expansion' : 'link expansion unreturned', x1: a.x + 8, y1: a.y, x2: b.x - 8, y2: b.y }));
      links.append(edgeLabel(a.x, a.y, b.x, b.y, e ? `${e.predicate} ${fixed(e.weight)}` : `${step.atom.mode} ${fixed(r.score)}`));
    }
  }
  for (const e of result.edges || []) {
    const a = pos.get(e.from), b = pos.get(e.to);
    if (!a || !b) continue;
    // Between two nodes of one column, an arc to the left, away from the labels.
    const bend = a.x === b.x ? -(20 + Math.abs(a.y - b.y) / 5) : 0;
    const mx = (a.x + b.x) / 2 + bend, my = (a.y + b.y) / 2;
    edges.append(s('path', { class: 'edge', d: `M${a.x},${a.y} Q${mx},${my} ${b.x},${b.y}`, 'stroke-width': 0.5 + 2 * e.weight },
      s('title', {}, `${e.predicate} ${fixed(e.weight)}`)));
  }

  for (const [id, p] of pos) {
    const info = nodeInfo.get(id) || { id, type: 'unknown' };
    const r = returned.get(id);
    svg.append(nodeMark(p.x, p.y, info, { cut: !r, href: memoryHref(id) }));
    const detail = r ? `score ${fixed(r.score)}` : 'cut';
    const seed = seedScore.has(id) ? ` · seed ${fixed(seedScore.get(id))}` : '';
    svg.append(label(p.x + 12, p.y - 2, short(info.name || info.content || id, 30), r ? 'node-name' : 'node-name cut'));
    svg.append(label(p.x + 12, p.y + 11, detail + seed, 'node-detail'));
  }
  return svg;
}

// neighbourhood draws one memory in the middle and its neighbours on a circle: its own
// edges with their predicates and weights (the initial weight in the tooltip), the edges
// among the neighbours thin and unlabelled.
export function neighbourhood(center, nodes, edges, memoryHref) {
  const others = nodes.filter((n) => n.id !== center.id);
  const size = Math.max(600, 260 + others.length * 22);
  const cx = size / 2, cy = size / 2, radius = size / 2 - 170;
  const pos = new Map([[center.id, { x: cx, y: cy }]]);
  others.forEach((n, i) => {
    const a = (2 * Math.PI * i) / Math.max(1, others.length) - Math.PI / 2;
    pos.set(n.id, { x: cx + radius * Math.cos(a), y: cy + radius * Math.sin(a) });
  });
  const svg = s('svg', { class: 'graph neighbourhood', width: size, height: size - 120, viewBox: `0 60 ${size} ${size - 120}`,
    role: 'img', 'aria-label': 'neighbourhood' });
  const own = edges.filter((e) => e.from === center.id || e.to === center.id);
  for (const e of [...edges.filter((e) => !own.includes(e)), ...own]) {
    const a = pos.get(e.from), b = pos.get(e.to);
    if (!a || !b) continue;
    const mine = own.includes(e);
    svg.append(s('line', { class: `edge${mine ? ' own' : ''}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y, 'stroke-width': mine ? 0.5 + 3 * e.weight : 0.6 },
      s('title', {}, `${e.predicate}: weight ${fixed(e.weight)} (initially ${fixed(e.initial_weight)})`)));
    if (mine) {
      const other = e.from === center.id ? b : a;
      svg.append(edgeLabel(cx, cy, other.x * 1.3 - cx * 0.3, other.y * 1.3 - cy * 0.3, `${e.predicate} ${fixed(e.weight)}`));
    }
  }
  for (const n of [center, ...others]) {
    const p = pos.get(n.id);
    const left = p.x < cx - 1;
    svg.append(nodeMark(p.x, p.y, n, { href: n.id === center.id ? null : memoryHref(n.id) }));
    svg.append(label(left ? p.x - 10 : p.x + 10, p.y + 4, short(n.name || n.content, 26),
      `node-name${n.id === center.id ? ' center' : ''}${left ? ' end' : ''}`));
  }
  return svg;
}

// editGraph draws the edges one reconsolidation changed, between the memories they
// join: the weight before as a grey line under the weight after, coloured by action.
export function editGraph(edits, nodeInfo) {
  const ids = [...new Set(edits.flatMap((e) => [e.from, e.to]))];
  const width = 560, rowH = 30;
  const height = Math.max(80, 30 + rowH * Math.ceil(ids.length / 2));
  const pos = new Map(ids.map((id, i) => [id, { x: i % 2 === 0 ? 120 : width - 150, y: 25 + rowH * Math.floor(i / 2) + (i % 2) * 12 }]));
  const svg = s('svg', { class: 'graph edits', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': 'weights before and after' });
  for (const e of edits) {
    const a = pos.get(e.from), b = pos.get(e.to);
    const before = e.old_weight === null || e.old_weight === undefined ? 0 : e.old_weight;
    if (before > 0) svg.append(s('line', { class: 'edge before', x1: a.x, y1: a.y, x2: b.x, y2: b.y, 'stroke-width': 1 + 5 * before }));
    svg.append(s('line', { class: `edge after action-${e.action}${e.reverted ? ' reverted' : ''}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y,
      'stroke-width': 1 + 5 * e.new_weight }));
    svg.append(edgeLabel(a.x, a.y, b.x, b.y, `${e.predicate}${e.label ? ` (${e.label})` : ''} ${e.old_weight == null ? 'new' : fixed(e.old_weight)} → ${fixed(e.new_weight)}`));
  }
  for (const [id, p] of pos) {
    const info = nodeInfo.get(id) || { id, type: 'unknown' };
    svg.append(nodeMark(p.x, p.y, info));
    svg.append(label(p.x + (p.x < width / 2 ? -12 : 12), p.y + 4, short(info.name || id, 18),
      p.x < width / 2 ? 'node-name end' : 'node-name'));
  }
  return svg;
}

// bars draws a horizontal bar chart of [label, value] pairs.
export function bars(pairs, { width = 320, color = '#4e79a7' } = {}) {
  const max = Math.max(1, ...pairs.map(([, v]) => v));
  const rowH = 20, labelW = 110;
  const height = Math.max(rowH, rowH * pairs.length);
  const svg = s('svg', { class: 'bars', width, height, viewBox: `0 0 ${width} ${height}` });
  pairs.forEach(([name, v], i) => {
    const w = ((width - labelW - 40) * v) / max;
    svg.append(label(0, i * rowH + 14, name, 'bar-label'),
      s('rect', { x: labelW, y: i * rowH + 3, width: Math.max(1, w), height: rowH - 6, fill: color }),
      label(labelW + w + 4, i * rowH + 14, v, 'bar-value'));
  });
  return svg;
}

// histogram draws the ten weight bins of /stats, [0, 0.1) to [0.9, 1.0].
export function histogram(bins, { width = 320, height = 120 } = {}) {
  const max = Math.max(1, ...bins);
  const bw = (width - 20) / bins.length;
  const svg = s('svg', { class: 'histogram', width, height: height + 20, viewBox: `0 0 ${width} ${height + 20}` });
  bins.forEach((v, i) => {
    const bh = ((height - 16) * v) / max;
    svg.append(s('rect', { x: 10 + i * bw + 1, y: height - bh, width: bw - 2, height: bh, fill: '#4e79a7' },
      s('title', {}, `weights ${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}: ${v} edges`)));
    if (v > 0) svg.append(label(10 + i * bw + bw / 2, height - bh - 3, v, 'bar-value middle'));
    svg.append(label(10 + i * bw + bw / 2, height + 14, (i / 10).toFixed(1), 'axis middle'));
  });
  return svg;
}
