// Message browser of a topic (#/topics/<name>/messages): a filter bar (partition, start position, key
// and value text, a filter expression the server evaluates with a bounded scan, live tail) over a
// compact table of records that expand to their full value; export of the shown rows (JSON lines,
// CSV); a bounded search of every partition with its progress; and a produce side panel when the
// server allows it (admin-ui.produce-enabled) and the user may WRITE the topic.
import * as api from '../api.js';
import { announce, errorBox, h } from '../dom.js';
import { allows } from '../session.js';
import { exportMessages } from './message-export.js';
import { producePanel } from './message-produce.js';
import { messageTable } from './message-table.js';

const PAGE_SIZE = 50;
const POLL_MS = 500;
const TAIL_MAX = 200;

const enc = encodeURIComponent;
const messagesApi = {
  settings: () => api.request('GET', '/api/messages/settings'),
  // Not known (null) when the rights cannot be read: the form is offered and the server decides.
  rights: (topic) => api.request('GET', `/api/topics/${enc(topic)}/rights`).catch(() => ({ operations: null })),
  page: (topic, params) => api.request('GET', `/api/topics/${enc(topic)}/messages?${new URLSearchParams(params)}`),
  filtered: (topic, params) => api.request('GET',
    `/api/topics/${enc(topic)}/messages/filtered?${new URLSearchParams(params)}`),
  produce: (topic, record) => api.request('POST', `/api/topics/${enc(topic)}/messages`, record),
  search: (topic, query, where) => api.request('POST', `/api/topics/${enc(topic)}/messages/searches`,
    { query, in: where }),
  progress: (topic, id) => api.request('GET', `/api/topics/${enc(topic)}/messages/searches/${enc(id)}`),
  cancel: (topic, id) => api.request('DELETE', `/api/topics/${enc(topic)}/messages/searches/${enc(id)}`),
};

function field(id, label, control, hint) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint ? h('small', {}, hint) : null);
}

/** Adds this page's stylesheet once. */
function styles() {
  if (document.getElementById('messages-css')) return;
  document.head.append(h('link', { id: 'messages-css', rel: 'stylesheet', href: 'css/messages.css' }));
}

/** Builds the page of topic params[0]. */
export async function render([name]) {
  styles();
  const [topic, settings, rights] = await Promise.all([api.topic(name), messagesApi.settings(),
    messagesApi.rights(name)]);
  document.title = `Messages · ${topic.name} · Tributary admin`;
  const cleanups = [];
  window.addEventListener('hashchange', () => cleanups.forEach((c) => c()), { once: true });

  // --- Filter bar and the table ---
  const partition = h('select', { id: 'msg-partition' },
    h('option', { value: 'all' }, 'All (by timestamp)'),
    topic.partitions.map((p) => h('option', { value: p.partition },
      `${p.partition} (offsets ${p.startOffset}–${p.endOffset})`)));
  const from = h('select', { id: 'msg-from' },
    h('option', { value: 'oldest' }, 'Oldest'), h('option', { value: 'newest' }, 'Newest'),
    h('option', { value: 'offset' }, 'Offset'), h('option', { value: 'timestamp' }, 'Timestamp'));
  from.value = 'newest';
  const offset = h('input', { id: 'msg-offset', type: 'number', min: '0', inputmode: 'numeric' });
  const time = h('input', { id: 'msg-timestamp', type: 'datetime-local', step: '1' });
  const offsetField = field('msg-offset', 'Offset', offset);
  const timeField = field('msg-timestamp', 'Timestamp (local time)', time);
  const showPositionFields = () => {
    offsetField.hidden = from.value !== 'offset';
    timeField.hidden = from.value !== 'timestamp';
  };
  from.addEventListener('change', showPositionFields);
  showPositionFields();
  const keyFilter = h('input', { id: 'msg-key-filter', type: 'search', autocomplete: 'off' });
  const valueFilter = h('input', { id: 'msg-value-filter', type: 'search', autocomplete: 'off' });
  // The expression is evaluated by the admin UI server (never here); its parse error shows below it.
  const expression = h('input', { id: 'msg-filter', type: 'text', autocomplete: 'off', spellcheck: 'false',
    placeholder: "@.value.qty > 1 && @.headers.source == 'web'", 'aria-describedby': 'msg-filter-hint msg-filter-error' });
  const expressionError = h('div', { id: 'msg-filter-error' });
  const expressionField = h('div', { class: 'field wide' }, h('label', { for: 'msg-filter' }, 'Filter expression'),
    expression, h('small', { id: 'msg-filter-hint' }, 'A JSONPath filter condition on @.key, @.value, @.headers.<name>, ',
      '@.partition, @.offset, @.timestamp; see docs/admin-ui.md.'), expressionError);
  // Read committed: transactions' records only once committed, aborted ones never (markers never show).
  const committed = h('input', { id: 'msg-committed', type: 'checkbox' });
  const committedField = h('div', { class: 'field check' }, h('label', { for: 'msg-committed' }, committed,
    ' Committed only'), h('small', {}, 'read_committed: skips aborted and open transactions'));

  const table = messageTable('messages', 'Messages');
  const range = h('p', { id: 'msg-range', class: 'range', 'aria-live': 'polite' });
  const browseMessage = h('div', { class: 'form-message' });
  const prev = h('button', { type: 'button', id: 'msg-prev', class: 'secondary', disabled: true }, '← Older');
  const next = h('button', { type: 'button', id: 'msg-next', class: 'secondary', disabled: true }, 'Newer →');
  const exportJsonl = h('button', { type: 'button', id: 'export-jsonl', class: 'secondary', disabled: true },
    'Export JSON lines');
  const exportCsv = h('button', { type: 'button', id: 'export-csv', class: 'secondary', disabled: true }, 'Export CSV');
  let page = null;
  let lastParams = null;
  let loadToken = 0;

  const filtering = () => Boolean(expression.value.trim() || keyFilter.value.trim() || valueFilter.value.trim());
  const plural = (n, one, many) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
  const STOPS = { end: 'nothing more to read that way', matches: 'the page is full; Older or Newer scans on',
    records: 'stopped at the limit of records one page scans; Older or Newer scans on',
    time: 'stopped at the time limit; Older or Newer scans on' };

  function showExpressionError(e) {
    expressionError.replaceChildren(e ? h('p', { class: 'error field-error', role: 'alert' }, e.message) : '');
    if (e) expression.setAttribute('aria-invalid', 'true');
    else expression.removeAttribute('aria-invalid');
  }

  async function load(params) {
    const token = ++loadToken;
    lastParams = params;
    table.element.setAttribute('aria-busy', 'true');
    browseMessage.replaceChildren(h('p', { class: 'loading' }, filtering() ? 'Scanning…' : 'Loading messages…'));
    [prev, next, exportJsonl, exportCsv].forEach((b) => { b.disabled = true; });
    showExpressionError(null);
    try {
      let result;
      if (filtering()) {
        result = await messagesApi.filtered(name, { partitions: partition.value, count: PAGE_SIZE,
          committed: committed.checked, filter: expression.value, keyContains: keyFilter.value,
          valueContains: valueFilter.value, ...params });
      } else {
        const which = partition.value === 'all' ? { partitions: 'all' } : { partition: partition.value };
        result = await messagesApi.page(name, { ...which, count: PAGE_SIZE, committed: committed.checked, ...params });
      }
      if (token !== loadToken) return;
      page = result;
      browseMessage.replaceChildren();
      table.set(result.messages);
      const n = result.messages.length;
      const messagesText = plural(n, 'message', 'messages');
      if (result.scanned !== undefined) {
        range.textContent = `Scanned ${plural(result.scanned, 'record', 'records')}, ${result.matched} matched `
          + `(${STOPS[result.stoppedBy] || result.stoppedBy}).`;
        prev.disabled = result.previousCursor == null;
        next.disabled = result.nextCursor == null;
      } else if (result.partitions) {
        const k = result.partitions.length;
        const held = result.partitions.reduce((sum, p) => sum + (p.endOffset - p.beginningOffset), 0);
        const bounds = `${k} ${k === 1 ? 'partition holds' : 'partitions hold'} ${held} ${held === 1 ? 'record' : 'records'}`;
        range.textContent = n ? `Showing ${messagesText}, oldest first by timestamp; ${bounds}.`
          : `No messages here; ${bounds}.`;
        prev.disabled = result.previousCursor == null;
        next.disabled = result.nextCursor == null;
      } else {
        const bounds = `partition ${result.partition} holds offsets ${result.beginningOffset}–${result.endOffset}`;
        range.textContent = n
          ? `Showing offsets ${result.messages[0].offset}–${result.messages[n - 1].offset} (${messagesText}); ${bounds}.`
          : `No messages here; ${bounds}.`;
        prev.disabled = result.previousOffset == null;
        next.disabled = result.nextOffset == null;
      }
      exportJsonl.disabled = n === 0;
      exportCsv.disabled = n === 0;
    } catch (e) {
      if (token !== loadToken) return;
      if (e.status === 400 && e.body && e.body.field === 'filter') {
        browseMessage.replaceChildren();
        showExpressionError(e);
      } else {
        browseMessage.replaceChildren(errorBox(e));
      }
    } finally {
      if (token === loadToken) table.element.removeAttribute('aria-busy');
    }
  }

  function position() {
    if (from.value === 'offset') {
      if (offset.value === '') throw new Error('Give an offset to start at.');
      return { from: 'offset', offset: offset.value };
    }
    if (from.value === 'timestamp') {
      const ms = new Date(time.value).getTime();
      if (!time.value || Number.isNaN(ms)) throw new Error('Give a date and time to start at.');
      return { from: 'timestamp', timestamp: ms };
    }
    return { from: from.value };
  }

  // --- Live tail (its buttons are in the filter bar) ---
  const tailTable = messageTable('tail', 'Live messages');
  const tailStatus = h('p', { id: 'tail-status', role: 'status' }, 'Not following.');
  const tailMessage = h('div', { class: 'form-message' });
  const tailStart = h('button', { type: 'button', id: 'tail-start', class: 'secondary' }, 'Start live tail');
  const tailStop = h('button', { type: 'button', id: 'tail-stop', class: 'danger', disabled: true }, 'Stop');

  const browseForm = h('form', { id: 'browse-form', class: 'toolbar filter-bar', 'aria-label': 'Choose messages',
    onsubmit: (e) => {
      e.preventDefault();
      try {
        load(position());
      } catch (err) {
        browseMessage.replaceChildren(errorBox(err));
      }
    } },
  field('msg-partition', 'Partition', partition), field('msg-from', 'Start at', from), offsetField, timeField,
  field('msg-key-filter', 'Key contains', keyFilter), field('msg-value-filter', 'Value contains', valueFilter),
  expressionField, committedField,
  h('div', { class: 'field buttons' }, h('button', { type: 'submit', id: 'msg-load' }, 'Show messages'),
    tailStart, tailStop));
  prev.addEventListener('click', () => page && load(page.partitions
    ? { from: 'before', cursor: page.previousCursor } : { from: 'offset', offset: page.previousOffset }));
  next.addEventListener('click', () => page && load(page.partitions
    ? { from: 'after', cursor: page.nextCursor } : { from: 'offset', offset: page.nextOffset }));
  const exportShown = async (format) => {
    try {
      const file = await exportMessages(name, table.shown(), format);
      announce(`Exported ${plural(table.shown().length, 'message', 'messages')} to ${file}.`);
    } catch (e) {
      browseMessage.replaceChildren(errorBox(e));
    }
  };
  exportJsonl.addEventListener('click', () => exportShown('jsonl'));
  exportCsv.addEventListener('click', () => exportShown('csv'));

  // --- Search ---
  const query = h('input', { id: 'search-query', type: 'search', required: true, autocomplete: 'off' });
  const where = h('select', { id: 'search-in' }, h('option', { value: 'both' }, 'Key and value'),
    h('option', { value: 'value' }, 'Value'), h('option', { value: 'key' }, 'Key'));
  const searchButton = h('button', { type: 'submit', id: 'search-start' }, 'Search');
  const cancelButton = h('button', { type: 'button', id: 'search-cancel', class: 'danger', hidden: true }, 'Cancel');
  const progress = h('p', { id: 'search-progress', role: 'status', 'aria-live': 'polite' });
  const searchMessage = h('div', { class: 'form-message' });
  const results = messageTable('search-results', 'Search matches');
  let search = null;
  let timer = null;
  let shown = null;

  function showProgress(s) {
    shown = s;
    const state = s.running ? 'searching…' : s.state.toLowerCase().replaceAll('_', ' ');
    progress.textContent = `Scanned ${s.scanned.toLocaleString('en')} of ${s.total.toLocaleString('en')} records, `
      + `${s.matched} ${s.matched === 1 ? 'match' : 'matches'} (${state}).`;
    if (s.error) searchMessage.replaceChildren(errorBox(new Error(s.error)));
  }

  function stopPolling() {
    clearTimeout(timer);
    timer = null;
    cancelButton.hidden = true;
    searchButton.disabled = false;
  }

  async function poll() {
    if (!search) return;
    const id = search;
    try {
      const s = await messagesApi.progress(name, id);
      if (search !== id) return;
      showProgress(s);
      results.set(s.messages);
      if (s.running) timer = setTimeout(poll, POLL_MS);
      else {
        search = null;
        stopPolling();
      }
    } catch (e) {
      if (search !== id) return;
      search = null;
      stopPolling();
      searchMessage.replaceChildren(errorBox(e));
    }
  }

  const searchForm = h('form', { id: 'search-form', class: 'toolbar', 'aria-label': 'Search messages',
    onsubmit: async (e) => {
      e.preventDefault();
      if (!query.value) return;
      searchMessage.replaceChildren();
      results.set([]);
      progress.textContent = 'Starting the search…';
      searchButton.disabled = true;
      try {
        const s = await messagesApi.search(name, query.value, where.value);
        search = s.id;
        cancelButton.hidden = false;
        showProgress(s);
        timer = setTimeout(poll, POLL_MS);
      } catch (err) {
        progress.textContent = '';
        stopPolling();
        searchMessage.replaceChildren(errorBox(err));
      }
    } },
  field('search-query', 'Text to find', query), field('search-in', 'Look in', where),
  h('div', { class: 'field buttons' }, searchButton, cancelButton));
  cancelButton.addEventListener('click', async () => {
    const id = search;
    search = null;
    stopPolling();
    if (!id) return;
    try {
      await messagesApi.cancel(name, id);
      // The counts last shown, no longer "searching…"; polling stopped, so nothing overwrites this.
      if (shown) showProgress({ ...shown, running: false, state: 'CANCELLED', error: null });
      announce('Search cancelled.');
    } catch (e) {
      searchMessage.replaceChildren(errorBox(e));
    }
  });
  cleanups.push(() => {
    if (search) messagesApi.cancel(name, search).catch(() => {});
    search = null;
    clearTimeout(timer);
  });

  let source = null;

  function stopTail(text) {
    if (source) source.close();
    source = null;
    tailStart.disabled = false;
    tailStop.disabled = true;
    tailStatus.textContent = text;
  }

  tailStart.addEventListener('click', () => {
    tailMessage.replaceChildren();
    tailStatus.textContent = 'Connecting…';
    tailStart.disabled = true;
    tailStop.disabled = false;
    source = new EventSource(`/api/topics/${enc(name)}/messages/stream?committed=${committed.checked}`);
    source.addEventListener('open', () => {
      tailStatus.textContent = 'Following new messages; the newest is at the top.';
    });
    source.addEventListener('record', (event) => {
      tailTable.prepend(JSON.parse(event.data), TAIL_MAX);
    });
    source.addEventListener('error', () => {
      if (source && source.readyState === EventSource.CLOSED) {
        stopTail('Stopped.');
        tailMessage.replaceChildren(errorBox(new Error('The live tail could not connect or was closed by the server.')));
      } else if (source) {
        tailStatus.textContent = 'Connection lost; reconnecting…';
      }
    });
  });
  tailStop.addEventListener('click', () => stopTail('Stopped.'));
  cleanups.push(() => stopTail(''));

  // --- Produce: a side panel, open until closed, whatever the tables do ---
  let produce = null;
  // Only when the server allows producing and the user may WRITE the topic.
  if (settings.produceEnabled && allows(rights.operations, 'WRITE')) {
    produce = producePanel(topic, (record) => messagesApi.produce(name, record), () => {
      // The table shows the topic as it now is; the panel keeps what was typed.
      if (lastParams) load(lastParams);
    });
  }

  const page$ = h('section', { 'aria-labelledby': 'messages-title', class: 'messages-page' },
    h('p', {}, h('a', { href: `#/topics/${enc(topic.name)}` }, `← Topic ${topic.name}`)),
    h('div', { class: 'page-head' }, h('h1', { id: 'messages-title' }, 'Messages in ',
      h('span', { id: 'topic-name' }, topic.name)), produce ? produce.button : null),
    browseForm,
    h('section', { 'aria-labelledby': 'browse-title' },
      h('h2', { id: 'browse-title', class: 'visually-hidden' }, 'Records'), browseMessage, range,
      h('div', { class: 'pager' }, prev, next, h('span', { class: 'spacer' }), exportJsonl, exportCsv), table.element),
    h('section', { 'aria-labelledby': 'tail-title' },
      h('h2', { id: 'tail-title' }, 'Live tail'), tailStatus, tailMessage, tailTable.element),
    h('section', { 'aria-labelledby': 'search-title' },
      h('h2', { id: 'search-title' }, 'Search every partition'), searchForm,
      h('p', { class: 'hint' }, 'Scans every partition on the server, up to a million records or 30 seconds.'),
      progress, searchMessage, results.element),
    produce ? produce.panel : null);
  load({ from: 'newest' });
  return page$;
}
