// Small helpers to build the page. Text always goes in as text nodes, never as HTML:
// memories are user text.

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// h('p', {class: 'x'}, 'text', child…) is an HTML element.
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

// s('circle', {r: 4}) is an SVG element.
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

// short cuts text to n characters.
export function short(text, n) {
  text = String(text || '');
  return text.length > n ? text.slice(0, n - 1) + '…' : text;
}

export function fixed(x, digits = 2) {
  return typeof x === 'number' ? x.toFixed(digits) : '–';
}

export function when(t) {
  if (!t || t.startsWith('0001-')) return '–';
  return t.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
}

// typeColors match the legend of every graph and the badges of every list.
export const typeColors = { entity: '#4e79a7', event: '#e8772e', episode: '#59a14f', fact: '#9c6ba8' };

export function typeBadge(type) {
  return h('span', { class: `badge type-${type}` }, type);
}
