// The memory explorer: four views over REALM's HTTP API, chosen by the URL's fragment:
//   #/spaces/SPACE          statistics and memories of a space
//   #/recall/SPACE          a recall, its trace drawn as a graph, feedback on its nodes
//   #/edits/SPACE           the reconsolidation log as a timeline, with revert
//   #/memory/SPACE/ID       one memory: content, provenance, edges, history
//   #/trace/SPACE/ID        one recall's trace: its plans, seeds, scores and validity
// Every request carries the API key typed in the header once Open is pressed (kept for the
// browser tab only); a keyless server on loopback needs none.

import { h, short, fixed, when, typeBadge } from './dom.js';
import { traceGraph, neighbourhood, editGraph, bars, histogram } from './graph.js';

const view = document.getElementById('view');
const status = document.getElementById('status');
const spaceInput = document.getElementById('space');
const keyInput = document.getElementById('key');
const spaceList = document.getElementById('space-list');

// apiKey is the key of the last Open: one typed and not yet opened is not sent.
let apiKey = sessionStorage.getItem('realm-key') || '';
keyInput.value = apiKey;
spaceInput.value = sessionStorage.getItem('realm-space') || '';

// ApiError is a problem+json answer: its code ("unauthorized", "not_found", …) and detail.
class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || String(status);
    this.fields = problem.fields;
  }
}

async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await resp.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch { data = { detail: text }; }
  if (!resp.ok) throw new ApiError(resp.status, data);
  return data;
}

// keyScopes resolves to the scopes of the key typed (GET /v1/info), null when unknown: the
// page then offers everything and the server refuses what the key may not do.
let keyScopes = Promise.resolve(null);
function readKeyScopes() {
  keyScopes = api('GET', '/v1/info').then((info) => info.key.scopes, () => null);
}

// mayReconsolidate: feedback and revert need the read and write scopes (admin has all).
const mayReconsolidate = (scopes) => !scopes || scopes.includes('admin') || (scopes.includes('read') && scopes.includes('write'));
const lacksScopes = 'this API key lacks the write scope: feedback and revert need read and write';

const spacePath = (space) => `/v1/spaces/${encodeURIComponent(space)}`;
const memoryHref = (space) => (id) => `#/memory/${space}/${id}`;

// navigation counts the views chosen: a view still loading when another is chosen draws
// nothing (drawn late, it would replace the view chosen after it).
let navigation = 0;
function draw(chosen, ...children) {
  if (chosen === navigation) view.replaceChildren(...children);
}

function say(text, kind = 'info') {
  status.textContent = text;
  status.className = kind;
}

// busy disables button while work runs, its text saying so: clicked again, it would send the
// request twice (a second feedback is refused), and a slow one would show nothing.
async function busy(button, doing, work) {
  const label = button.textContent;
  button.disabled = true;
  button.textContent = doing;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}

function explain(err) {
  if (err instanceof ApiError && err.code === 'unauthorized') {
    return 'This server needs an API key: type it in the header and press Open.';
  }
  if (err instanceof ApiError && err.fields) {
    return `${err.message}: ${Object.entries(err.fields).map(([k, v]) => `${k} ${v}`).join('; ')}`;
  }
  return err.message;
}

// memoryCache holds the memories looked up by id, to name the nodes of traces and edits.
const memoryCache = new Map();

// memories names the memories of ids, looking up those not seen yet with one request
// (GET …/memories?ids=, at most 100 ids); an id the space does not answer was forgotten.
async function memories(space, ids) {
  const missing = [...new Set(ids)].filter((id) => !memoryCache.has(`${space}/${id}`)).slice(0, 100);
  if (missing.length > 0) {
    const found = await api('GET', `${spacePath(space)}/memories?limit=100&ids=${missing.map(encodeURIComponent).join(',')}`);
    for (const m of found.memories) memoryCache.set(`${space}/${m.id}`, m);
    for (const id of missing) {
      if (!memoryCache.has(`${space}/${id}`)) memoryCache.set(`${space}/${id}`, { id, type: 'unknown', name: '(forgotten)' });
    }
  }
  return new Map(ids.map((id) => [id, memoryCache.get(`${space}/${id}`) || { id, type: 'unknown' }]));
}

// memoryLink names a memory by the start of its content: two memories may share a name.
function memoryLink(space, node) {
  return h('a', { href: memoryHref(space)(node.id), class: 'memory-link', title: node.content || node.id },
    short(node.content || node.name || node.id, 60));
}

// learnedFor says what a learned link does: it is a label for its query, a misleading one
// lowering its end. Past the trace retention the query's text is erased.
const learnedFor = (e) => `${e.label === 'misleading' ? 'lowers it' : 'raises it'} for ${e.query_erased ? 'a query erased with its trace' : `"${e.query}"`}`;

const traceLink = (space, id) => h('a', { class: 'trace-link', href: `#/trace/${space}/${id}` }, id);

function planList(t) {
  return h('ul', { class: 'plans' }, (t.plans || []).map((p, i) => h('li', {},
    `plan ${i + 1}: ${p.mode} "${p.query}"`, p.keywords?.length ? ` keywords ${p.keywords.join(', ')}` : '',
    p.types?.length ? ` types ${p.types.join(', ')}` : '', t.plan_relaxation?.[i] && t.plan_relaxation[i] !== 'none' ? ` (relaxed: ${t.plan_relaxation[i]})` : '')));
}

// ---- Spaces ----------------------------------------------------------------------

async function spacesView(space) {
  const chosen = navigation;
  const stats = await api('GET', `${spacePath(space)}/stats`);
  const rec = stats.reconsolidation || {};
  const byType = Object.entries(stats.by_type || {}).sort((a, b) => b[1] - a[1]);
  const byPredicate = Object.entries(stats.by_predicate || {}).sort((a, b) => b[1] - a[1]);
  const list = h('div', { id: 'memory-list' });
  const q = h('input', { name: 'q', placeholder: 'words in name, content or keywords' });
  const type = h('select', { name: 'type' }, h('option', { value: '' }, 'any type'),
    ['entity', 'event', 'episode', 'fact'].map((t) => h('option', { value: t }, t)));
  const search = async (cursor) => {
    const params = new URLSearchParams({ limit: '25' });
    if (q.value) params.set('q', q.value);
    if (type.value) params.set('type', type.value);
    if (cursor) params.set('cursor', cursor);
    const page = await api('GET', `${spacePath(space)}/memories?${params}`);
    if (!cursor) list.replaceChildren();
    list.querySelector('button.more')?.remove();
    const now = new Date();
    const rows = page.memories.map((m) => h('tr', {},
      h('td', {}, typeBadge(m.type)),
      h('td', {}, memoryLink(space, m), m.valid_until && new Date(m.valid_until) <= now
        ? [' ', h('span', { class: 'badge superseded', title: `a newer memory superseded it ${when(m.valid_until)}` }, 'superseded')] : ''),
      h('td', { class: 'muted' }, when(m.t_start)),
      h('td', { class: 'num' }, m.access_count)));
    let table = list.querySelector('table');
    if (!table) {
      table = h('table', { class: 'memories' }, h('thead', {}, h('tr', {}, h('th', {}, 'type'), h('th', {}, 'memory'),
        h('th', {}, 'time'), h('th', {}, 'recalled'))), h('tbody', {}));
      list.append(table);
    }
    table.tBodies[0].append(...rows);
    if (!page.memories.length && !cursor) list.replaceChildren(h('p', { class: 'muted' }, 'No memory matches.'));
    if (page.next_cursor) list.append(h('button', { class: 'more', type: 'button', onclick: () => search(page.next_cursor).catch(fail) }, 'More'));
  };
  draw(chosen,
    h('h2', {}, `Space ${space}`),
    h('section', { class: 'cards' },
      h('div', { class: 'card', id: 'card-memories' }, h('h3', {}, `${stats.memories} memories`), bars(byType)),
      h('div', { class: 'card', id: 'card-edges' }, h('h3', {}, `${stats.edges} edges`), bars(byPredicate, { color: '#76b7b2' })),
      h('div', { class: 'card', id: 'card-weights' }, h('h3', {}, 'edge weights'), histogram(stats.weight_histogram || [])),
      h('div', { class: 'card', id: 'card-observations' }, h('h3', {}, `${stats.observations} observations`),
        h('p', {}, `${stats.observations_pending} pending, ${stats.observations_failed} failed`),
        h('h3', {}, `${rec.reconsolidations || 0} reconsolidations`),
        h('p', {}, `${rec.added || 0} edges added, ${rec.strengthened || 0} strengthened, ${rec.weakened || 0} weakened, ${rec.reverted || 0} edits reverted`),
        h('p', {}, h('a', { href: `#/edits/${space}` }, 'the timeline'), ' · ', h('a', { href: `#/recall/${space}` }, 'recall')))),
    h('h3', {}, 'Memories'),
    h('form', { class: 'inline', id: 'search', onsubmit: (ev) => { ev.preventDefault(); search().catch(fail); } },
      q, type, h('button', { type: 'submit' }, 'Search')),
    list);
  await search();
}

// ---- Recall ----------------------------------------------------------------------

function recallView(space) {
  const query = h('input', { id: 'query', name: 'query', required: true, placeholder: 'a question, e.g. What did Caroline do in May?' });
  const strategy = h('select', { id: 'strategy', name: 'strategy' },
    ['adaptive', 'path_search', 'subgraph_beam'].map((x) => h('option', { value: x }, x)));
  const k = h('input', { id: 'k', name: 'k', type: 'number', min: 1, max: 100, value: 10 });
  const depth = h('input', { id: 'max-depth', name: 'max_depth', type: 'number', min: 0, max: 6, value: 3 });
  // Empty: no cut-off, and the field is not sent.
  const minScore = h('input', { id: 'min-score', name: 'min_score', type: 'number', min: 0, max: 1, step: 'any', placeholder: 'none' });
  const out = h('div', { id: 'recall-result' });
  const submit = h('button', { type: 'submit' }, 'Recall');
  const run = async () => {
    out.replaceChildren(h('p', { class: 'muted' }, 'Recalling…'));
    const body = { query: query.value, strategy: strategy.value, k: Number(k.value), max_depth: Number(depth.value) };
    if (minScore.value !== '') body.min_score = Number(minScore.value);
    const res = await api('POST', `${spacePath(space)}/recall`, body);
    const trace = await api('GET', `${spacePath(space)}/traces/${res.trace_id}`);
    const info = new Map(res.nodes.map((n) => [n.node.id, n.node]));
    const cut = [...Object.keys(trace.first_depth || {}), ...(trace.below_min_score || []).map((n) => n.id)]
      .filter((id) => !info.has(id));
    for (const [id, m] of await memories(space, cut)) info.set(id, m);
    showRecall(space, res, trace, info, out, await keyScopes);
  };
  view.replaceChildren(
    h('h2', {}, `Recall in ${space}`),
    h('form', { id: 'recall-form', class: 'inline', onsubmit: (ev) => {
      ev.preventDefault();
      busy(submit, 'Recalling…', run).then(() => say('')).catch((err) => {
        out.replaceChildren();
        fail(err);
      });
    } },
      query, h('label', {}, 'strategy ', strategy), h('label', {}, 'K ', k), h('label', {}, 'max depth ', depth),
      h('label', { title: 'leave out of the top K the nodes scored below it (0 to 1; empty: none)' }, 'min score ', minScore),
      submit),
    out);
  query.focus();
}

function showRecall(space, res, trace, info, out, scopes) {
  const marks = new Map(); // node id → 'useful' | 'misleading'
  const ranked = [...res.nodes].sort((a, b) => b.score - a.score);
  const toggle = (id, mark, li) => {
    marks.get(id) === mark ? marks.delete(id) : marks.set(id, mark);
    li.dataset.mark = marks.get(id) || '';
  };
  const evidence = h('ol', { class: 'evidence' }, ranked.map((n) => {
    const li = h('li', { 'data-id': n.node.id });
    li.append(typeBadge(n.node.type), ' ', memoryLink(space, n.node),
      n.node.name && n.node.name !== n.node.content ? h('span', { class: 'muted name' }, ` ${short(n.node.name, 40)} ·`) : '',
      h('span', { class: 'muted' }, ` score ${fixed(n.score, 3)} · depth ${n.depth}`),
      h('span', { class: 'marks' },
        h('button', { type: 'button', class: 'useful', title: 'this helped', onclick: () => toggle(n.node.id, 'useful', li) }, 'useful'),
        h('button', { type: 'button', class: 'misleading', title: 'this misled', onclick: () => toggle(n.node.id, 'misleading', li) }, 'misleading')));
    return li;
  }));
  const correct = h('select', { id: 'correct' }, h('option', { value: '' }, 'answer not judged'),
    h('option', { value: 'true' }, 'answer correct'), h('option', { value: 'false' }, 'answer wrong'));
  const applied = h('div', { id: 'feedback-result' });
  const send = async () => {
    const body = {
      useful_node_ids: [...marks].filter(([, m]) => m === 'useful').map(([id]) => id),
      misleading_node_ids: [...marks].filter(([, m]) => m === 'misleading').map(([id]) => id),
    };
    if (correct.value) body.correct = correct.value === 'true';
    const fb = await api('POST', `${spacePath(space)}/traces/${res.trace_id}/feedback`, body);
    const names = await memories(space, fb.edits.flatMap((e) => [e.from, e.to]));
    applied.replaceChildren(
      h('h3', {}, `${fb.edits.length} edits applied${fb.confirmed ? ' (confirmed feedback, η)' : ' (η/2)'}`),
      h('p', {}, 'Labels: ', Object.entries(fb.labels || {}).map(([id, l]) =>
        h('span', { class: `label label-${l}`, title: info.get(id)?.name || id }, `${short(info.get(id)?.content || id, 40)}: ${l} `))),
      editTable(space, fb.edits, names),
      fb.edits.length ? editGraph(fb.edits, names) : '',
      h('p', {}, h('a', { href: `#/edits/${space}` }, 'See it in the timeline, where it can be reverted.')));
  };
  const sendButton = h('button', { type: 'submit', id: 'send-feedback', disabled: !mayReconsolidate(scopes),
    title: mayReconsolidate(scopes) ? undefined : lacksScopes }, 'Send feedback');
  const t = trace;
  out.replaceChildren(
    h('div', { class: 'columns' },
      h('section', { class: 'evidence-panel' },
        h('h3', {}, `${res.nodes.length} nodes, ${res.edges.length} edges among them`),
        evidence,
        h('form', { class: 'inline', id: 'feedback-form', onsubmit: (ev) => {
          ev.preventDefault();
          busy(sendButton, 'Sending…', send).then(() => say('Feedback applied.')).catch(fail);
        } }, correct, sendButton),
        applied),
      h('section', { class: 'trace-panel', 'data-trace-id': t.id },
        h('h3', {}, 'Trace'),
        h('p', { class: 'muted' }, 'trace ', traceLink(space, t.id), ` · ${t.strategy} · seeds by ${t.seed_method || '–'} · `,
          Object.entries(t.timings || {}).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ')),
        t.focus ? h('p', {}, `focus: ${t.focus}`) : '',
        t.below_min_score?.length ? h('div', { id: 'below-min-score' },
          h('p', {}, `${t.below_min_score.length} of the top K below min score ${fixed(t.min_score, 3)}, left out:`),
          h('ol', { class: 'below' }, t.below_min_score.map((n) => h('li', { 'data-id': n.id },
            typeBadge(info.get(n.id)?.type), ' ', memoryLink(space, info.get(n.id) || { id: n.id }),
            h('span', { class: 'muted' }, ` score ${fixed(n.score, 3)}`))))) : '',
        planList(t),
        h('ul', { class: 'decisions' }, (t.decisions || []).map((d) => h('li', {},
          `depth ${d.depth}: ${d.is_enough ? 'enough' : `expand ${(d.nodes_to_expand || []).length} nodes`}${d.reason ? ` (${d.reason})` : ''}`))),
        h('div', { id: 'trace-graph' }, traceGraph(t, res, info, memoryHref(space))),
        h('p', { class: 'legend' }, 'Filled: returned. Hollow and dashed: reached, then cut from the top K (or left below the min score). ',
          'Links: how each node was first reached, with the edge and its weight (dashed: an edge not returned, with the step\'s score).'))));
}

function editTable(space, edits, names) {
  return h('table', { class: 'edits' },
    h('thead', {}, h('tr', {}, ['action', 'edge', 'weight', ''].map((x) => h('th', {}, x)))),
    h('tbody', {}, edits.map((e) => h('tr', { class: e.reverted ? 'reverted' : '', 'data-edit': e.id },
      h('td', {}, h('span', { class: `badge action-${e.action}` }, e.action)),
      h('td', {}, memoryLink(space, names.get(e.from) || { id: e.from }), ` —${e.predicate}→ `,
        memoryLink(space, names.get(e.to) || { id: e.to }),
        // A learned link is a label for its query: a misleading one lowers its end. Past
        // the trace retention the query's text is erased.
        e.label ? ` (${learnedFor(e)})` : ''),
      h('td', { class: 'num' }, `${e.old_weight == null ? 'new' : fixed(e.old_weight)} → ${fixed(e.new_weight)}`),
      h('td', {}, e.reverted ? `reverted ${when(e.reverted_at)}` : '')))));
}

// ---- Reconsolidation -------------------------------------------------------------

async function editsView(space) {
  const chosen = navigation;
  const { edits } = await api('GET', `${spacePath(space)}/edits?limit=500`);
  const groups = new Map();
  for (const e of edits) {
    if (!groups.has(e.reconsolidation_id)) groups.set(e.reconsolidation_id, []);
    groups.get(e.reconsolidation_id).push(e);
  }
  const names = await memories(space, edits.flatMap((e) => [e.from, e.to]));
  const mayRevert = mayReconsolidate(await keyScopes);
  const revert = async (edit) => {
    await api('POST', `${spacePath(space)}/edits/${edit.id}/revert`);
    await editsView(space);
    say('Reverted.');
  };
  const count = (list, action) => list.filter((e) => e.action === action).length;
  draw(chosen,
    h('h2', {}, `Reconsolidation in ${space}`),
    h('p', { class: 'muted' }, `${groups.size} reconsolidations, ${edits.length} edits, newest first.`),
    h('ol', { class: 'timeline' }, [...groups].map(([id, list]) => {
      const first = list[0];
      const reverted = list.every((e) => e.reverted);
      return h('li', { class: `edit-group${reverted ? ' reverted' : ''}`, 'data-reconsolidation': id },
        h('div', { class: 'when' }, when(first.time)),
        h('div', { class: 'what' },
          h('p', {}, h('span', { class: `badge source-${first.source}` }, first.source === 'auto' ? 'automatic (η/2)' : 'feedback'),
            ' trace ', first.trace_id ? traceLink(space, first.trace_id) : '–',
            ` · ${count(list, 'add')} added, ${count(list, 'strengthen')} strengthened, ${count(list, 'weaken')} weakened `,
            reverted ? h('span', { class: 'badge reverted' }, 'reverted')
              : h('button', { type: 'button', class: 'revert', disabled: !mayRevert, title: mayRevert ? undefined : lacksScopes,
                onclick: (ev) => busy(ev.currentTarget, 'Reverting…', () => revert(first)).catch(fail) }, 'Revert')),
          editGraph(list, names),
          editTable(space, list, names)));
    })),
    edits.length ? '' : h('p', {}, 'No reconsolidation yet: recall, then send feedback on the recall\'s nodes.'));
}

// ---- A memory --------------------------------------------------------------------

async function memoryView(space, id) {
  const chosen = navigation;
  const sp = spacePath(space);
  const [{ memory: m, edges }, around, { edits }] = await Promise.all([
    api('GET', `${sp}/memories/${encodeURIComponent(id)}`),
    api('GET', `${sp}/graph?around=${encodeURIComponent(id)}&depth=1`),
    api('GET', `${sp}/edits?node=${encodeURIComponent(id)}&limit=100`),
  ]);
  const names = await memories(space, edits.flatMap((e) => [e.from, e.to]));
  for (const n of [...around.nodes, m]) names.set(n.id, n);
  const other = (e) => names.get(e.from === m.id ? e.to : e.from) || { id: e.from === m.id ? e.to : e.from };
  const supersededBy = edges.filter((e) => e.predicate === 'supersedes' && e.to === m.id);
  const supersedes = edges.filter((e) => e.predicate === 'supersedes' && e.from === m.id);
  const field = (name, value) => (value && (!Array.isArray(value) || value.length)
    ? h('tr', {}, h('th', {}, name), h('td', {}, Array.isArray(value) ? value.join(', ') : value)) : '');
  draw(chosen,
    h('h2', {}, typeBadge(m.type), ' ', m.name || m.id),
    supersededBy.length ? h('p', { class: 'warning', id: 'superseded' }, 'Superseded by ',
      supersededBy.map((e) => memoryLink(space, other(e)))) : '',
    h('div', { class: 'columns' },
      h('section', {},
        h('p', { class: 'content' }, m.content),
        h('table', { class: 'fields' }, h('tbody', {},
          field('description', m.description), field('time', m.t_start ? `${when(m.t_start)} – ${when(m.t_end)}` : ''),
          field('keywords', m.keywords), field('participants', m.participants), field('aliases', m.aliases),
          field('category', m.category), field('role', m.role),
          field('learned', m.learned_at && when(m.learned_at)), field('valid until', m.valid_until && when(m.valid_until)),
          field('created', when(m.created_at)),
          field('updated', when(m.updated_at)), field('recalled', `${m.access_count} times`),
          field('id', m.id))),
        h('h3', {}, 'Provenance'),
        h('p', { class: 'muted' }, 'Derived from the observations ', (m.sources || []).join(', ') || '–',
          '. Who said it and when is in the description above.'),
        supersedes.length ? h('p', {}, 'Supersedes ', supersedes.map((e) => memoryLink(space, other(e)))) : '',
        h('h3', {}, `${edges.length} edges`),
        h('table', { class: 'edges' },
          h('thead', {}, h('tr', {}, ['', 'predicate', 'memory', 'weight (initial)', 'confidence'].map((x) => h('th', {}, x)))),
          h('tbody', {}, edges.map((e) => h('tr', { class: e.label ? 'learned' : '' },
            h('td', {}, e.from === m.id ? '→' : '←'), h('td', {}, e.predicate, h('span', { class: 'muted' }, ` ${e.layer}`),
              e.label ? h('span', { class: `label label-${e.label}` }, ` learned, ${e.label}: ${learnedFor(e)}`) : ''),
            h('td', {}, memoryLink(space, other(e))), h('td', { class: 'num' }, `${fixed(e.weight)} (${fixed(e.initial_weight)})`),
            h('td', { class: 'num' }, fixed(e.confidence)))))),
        h('h3', {}, `${edits.length} reconsolidation edits`),
        edits.length ? editTable(space, edits, names) : h('p', { class: 'muted' }, 'None.')),
      h('section', {}, h('h3', {}, 'Neighbourhood'), neighbourhood(m, around.nodes, around.edges, memoryHref(space)))));
}

// ---- A trace ---------------------------------------------------------------------

async function traceView(space, id) {
  const chosen = navigation;
  const t = await api('GET', `${spacePath(space)}/traces/${encodeURIComponent(id)}`);
  const names = await memories(space, [...(t.seeds || []), ...(t.scores || []), ...(t.validity || [])].map((n) => n.id));
  const node = (id) => [typeBadge(names.get(id).type), ' ', memoryLink(space, names.get(id))];
  const scored = (cls, list) => (list?.length
    ? h('ol', { class: cls }, list.map((n) => h('li', { 'data-id': n.id }, node(n.id), h('span', { class: 'muted' }, ` score ${fixed(n.score, 3)}`))))
    : h('p', { class: 'muted' }, 'None.'));
  draw(chosen,
    h('h2', {}, `Trace ${t.id}`),
    h('p', { class: 'content' }, t.query),
    h('p', { class: 'muted' }, `${when(t.created_at)} · ${t.strategy} · seeds by ${t.seed_method || '–'}`),
    t.focus ? h('p', {}, `focus: ${t.focus}`) : '',
    planList(t),
    h('h3', {}, 'Seeds'), scored('seeds', t.seeds),
    h('h3', {}, 'Scores'), scored('scores', t.scores),
    // What the read path did with superseded memories: demoted for a question about the
    // present, kept for one about the past, their newer versions offered beside them.
    h('h3', {}, 'Validity'),
    t.validity?.length ? h('table', { class: 'validity' },
      h('thead', {}, h('tr', {}, ['memory', 'action', 'factor', 'score'].map((x) => h('th', {}, x)))),
      h('tbody', {}, t.validity.map((v) => h('tr', { 'data-id': v.id },
        h('td', {}, node(v.id)), h('td', {}, v.action, v.of ? [' of ', memoryLink(space, names.get(v.of) || { id: v.of })] : ''),
        h('td', { class: 'num' }, fixed(v.factor)), h('td', { class: 'num' }, fixed(v.score, 3))))))
      : h('p', { class: 'muted', id: 'no-validity' }, 'No superseded memory met.'));
}

// ---- Routing ---------------------------------------------------------------------

// spaceChoices fills the space input's suggestions with the spaces the key reaches
// (the first 1,000) and returns them; none when the server refuses (a key still to type).
async function spaceChoices() {
  try {
    const { spaces } = await api('GET', '/v1/spaces?limit=1000');
    spaceList.replaceChildren(...spaces.map((sp) => h('option', { value: sp.id })));
    return spaces;
  } catch {
    return [];
  }
}

function fail(err) {
  say(explain(err), 'error');
}

const views = {
  spaces: (space) => spacesView(space),
  recall: (space) => recallView(space),
  edits: (space) => editsView(space),
  memory: (space, id) => memoryView(space, id),
  trace: (space, id) => traceView(space, id),
};

// part is a part of the hash as typed: the browser keeps it percent-encoded, and spacePath
// encodes it again.
function part(x) {
  try {
    return decodeURIComponent(x);
  } catch {
    return x; // a lone % is its own text
  }
}

async function route() {
  const chosen = ++navigation;
  const [, name = 'spaces', typed, id] = location.hash.split('/');
  const space = typed === undefined ? spaceInput.value : part(typed);
  for (const a of document.querySelectorAll('nav a')) {
    a.classList.toggle('active', a.id === `nav-${name}`);
    a.href = `#/${a.id.slice(4)}/${space || ''}`;
  }
  if (!space) {
    say(''); // an error of the space left behind no longer holds
    view.replaceChildren(h('p', {}, 'Type a space id (and an API key when the server has keys), then press Open.'));
    spaceInput.focus();
    const spaces = await spaceChoices();
    if (spaces.length && chosen === navigation) {
      view.append(h('p', {}, 'Spaces this key reaches:'),
        h('ul', { class: 'space-list' }, spaces.map((sp) => h('li', {}, h('a', { href: `#/spaces/${sp.id}` }, sp.id)))));
    }
    return;
  }
  spaceInput.value = space;
  sessionStorage.setItem('realm-space', space);
  say('Loading…');
  try {
    await (views[name] || views.spaces)(space, id && part(id));
    if (status.textContent === 'Loading…') say('');
  } catch (err) {
    if (chosen !== navigation) return;
    view.replaceChildren();
    fail(err);
  }
}

document.getElementById('connection').addEventListener('submit', (ev) => {
  ev.preventDefault();
  apiKey = keyInput.value;
  sessionStorage.setItem('realm-key', apiKey);
  readKeyScopes();
  spaceChoices();
  const [, name = 'spaces'] = location.hash.split('/');
  const target = `#/${name === 'memory' ? 'spaces' : name}/${spaceInput.value}`;
  if (location.hash === target) route(); else location.hash = target;
});
// A field the browser finds invalid (K out of range, a space of other characters) stops
// its form with no other word than this one in the status bar.
document.addEventListener('invalid', (ev) => say(`${ev.target.name}: ${ev.target.validationMessage}`, 'error'), true);
window.addEventListener('hashchange', route);
readKeyScopes();
route();
if (spaceInput.value) spaceChoices(); // route lists them itself when no space is chosen
