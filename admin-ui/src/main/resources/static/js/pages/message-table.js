// The compact table of records the Messages page shows (browse, search matches, live tail): one row a
// record (partition, offset, time, key, value preview, headers count) that expands, on a click or
// its button, to the full value, key and headers. Each record is a <tbody class="msg-group"> of its
// row and its (hidden) details, so rows can be prepended (live tail) without losing the pairing.
import { h } from '../dom.js';

const KIND_LABELS = { json: 'JSON', text: 'text', binary: 'hex', null: 'null' };
const PREVIEW_CHARS = 120;

/** A key, value or header value: its text in a code/pre element tagged with its kind. */
function payload(p, block, cls) {
  if (!p || p.kind === 'null') return h('span', { class: `${cls} empty`, 'data-kind': 'null' }, '(null)');
  return h(block ? 'pre' : 'code', { class: cls, 'data-kind': p.kind, title: `${KIND_LABELS[p.kind]}, ${p.bytes} bytes` },
    p.text);
}

/** One line of a payload: JSON compact, whitespace runs as one space, cut at PREVIEW_CHARS. */
export function preview(p) {
  if (!p || p.kind === 'null') return null;
  let text = p.text;
  if (p.kind === 'json') {
    try {
      text = JSON.stringify(JSON.parse(p.text));
    } catch (e) {
      // cut for display: no longer JSON
    }
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

let detailIds = 0;

/** A record's row and its details, in their own tbody. */
function group(m) {
  const time = new Date(m.timestamp);
  const detailId = `msg-detail-${++detailIds}`;
  const expand = h('button', { type: 'button', class: 'msg-expand secondary', 'aria-expanded': 'false',
    'aria-controls': detailId, 'aria-label': `Show record ${m.partition}/${m.offset} in full` }, '▸');
  const headers = m.headers.length
    ? h('ul', { class: 'msg-headers' }, m.headers.map((x) => h('li', {},
      h('code', { class: 'header-name' }, x.name), ': ', payload(x.value, false, 'header-value'))))
    : h('span', { class: 'empty' }, 'none');
  const valuePreview = preview(m.value);
  const keyPreview = preview(m.key);
  const row = h('tr', { class: 'msg', 'data-partition': m.partition, 'data-offset': m.offset },
    h('td', {}, expand),
    h('td', { class: 'msg-partition num' }, m.partition),
    h('td', { class: 'msg-offset num' }, m.offset),
    h('td', {}, h('time', { datetime: isNaN(time) ? '' : time.toISOString() },
      isNaN(time) ? m.timestamp : time.toISOString().replace('T', ' ').replace('Z', ''))),
    h('td', { class: 'msg-key-cell' }, keyPreview == null ? h('span', { class: 'msg-key empty' }, '(null)')
      : h('code', { class: 'msg-key', 'data-kind': m.key.kind }, keyPreview)),
    h('td', { class: 'msg-preview-cell' }, valuePreview == null ? h('span', { class: 'msg-preview empty' }, '(null)')
      : h('code', { class: 'msg-preview', 'data-kind': m.value.kind }, valuePreview)),
    h('td', { class: 'msg-headers-count num' }, m.headers.length));
  const details = h('tr', { class: 'msg-detail', id: detailId, hidden: true },
    h('td', { colspan: 7 },
      h('dl', { class: 'msg-meta' },
        h('div', {}, h('dt', {}, 'Key'), h('dd', {}, payload(m.key, false, 'msg-key-full'))),
        h('div', { class: 'wide' }, h('dt', {}, 'Headers'), h('dd', {}, headers))),
      h('div', { class: 'msg-value-box' },
        h('span', { class: 'tag kind' }, m.value && m.value.kind !== 'null' ? KIND_LABELS[m.value.kind] : 'null'),
        payload(m.value, true, 'msg-value'))));
  const toggle = () => {
    const open = details.hidden;
    details.hidden = !open;
    expand.setAttribute('aria-expanded', String(open));
    expand.textContent = open ? '▾' : '▸';
    row.classList.toggle('open', open);
  };
  expand.addEventListener('click', (e) => {
    e.stopPropagation();
    toggle();
  });
  // A click anywhere on the row expands it, unless the user is selecting text.
  row.addEventListener('click', () => {
    if (!String(window.getSelection())) toggle();
  });
  return h('tbody', { class: 'msg-group' }, row, details);
}

/**
 * A table of records with id `id`: set(messages) replaces them, prepend(message, max) adds one on
 * top keeping at most max, shown() answers the records shown, top first.
 */
export function messageTable(id, label) {
  const head = h('thead', {}, h('tr', {},
    h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Expand')),
    [['Partition', 'num'], ['Offset', 'num'], ['Time (UTC)'], ['Key'], ['Value'], ['Headers', 'num']]
      .map(([t, cls]) => h('th', { scope: 'col', class: cls }, t))));
  const table = h('table', { id, class: 'msg-table', 'aria-label': label }, head);
  const element = h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label }, table);
  let shown = [];
  return {
    element,
    set(messages) {
      shown = messages.slice();
      table.replaceChildren(head, ...messages.map(group));
    },
    prepend(message, max) {
      shown.unshift(message);
      head.after(group(message));
      while (shown.length > max) {
        shown.pop();
        table.lastElementChild.remove();
      }
    },
    shown: () => shown.slice(),
  };
}
