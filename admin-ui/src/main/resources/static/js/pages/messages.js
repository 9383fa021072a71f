// Message browser of a topic (#/topics/<name>/messages): pages of one partition's records from the
// oldest, the newest, an offset or a timestamp; a bounded server-side search with its progress; a
// live tail over SSE; and a produce form when the server allows it (admin-ui.produce-enabled).
import * as api from '../api.js';
import { announce, errorBox, h } from '../dom.js';
import { allows } from '../session.js';

const PAGE_SIZE = 50;
const POLL_MS = 500;
const TAIL_MAX = 200;

const enc = encodeURIComponent;
const messagesApi = {
  settings: () => api.request('GET', '/api/messages/settings'),
  // Not known (null) when the rights cannot be read: the form is offered and the server decides.
  rights: (topic) => api.request('GET', `/api/topics/${enc(topic)}/rights`).catch(() => ({ operations: null })),
  page: (topic, params) => api.request('GET', `/api/topics/${enc(topic)}/messages?${new URLSearchParams(params)}`),
  produce: (topic, record) => api.request('POST', `/api/topics/${enc(topic)}/messages`, record),
  search: (topic, query, where) => api.request('POST', `/api/topics/${enc(topic)}/messages/searches`,
    { query, in: where }),
  progress: (topic, id) => api.request('GET', `/api/topics/${enc(topic)}/messages/searches/${enc(id)}`),
  cancel: (topic, id) => api.request('DELETE', `/api/topics/${enc(topic)}/messages/searches/${enc(id)}`),
};

const KIND_LABELS = { json: 'JSON', text: 'text', binary: 'hex', null: 'null' };

/** A key, value or header value: its text in a code/pre element tagged with its kind. */
function payload(p, block, cls) {
  if (!p || p.kind === 'null') return h('span', { class: `${cls} empty`, 'data-kind': 'null' }, '(null)');
  return h(block ? 'pre' : 'code', { class: cls, 'data-kind': p.kind, title: `${KIND_LABELS[p.kind]}, ${p.bytes} bytes` },
    p.text);
}

/** One record as a list item: partition, offset, timestamp, key, headers and value. */
function messageItem(m) {
  const time = new Date(m.timestamp);
  const headers = m.headers.length
    ? h('ul', { class: 'msg-headers' }, m.headers.map((x) => h('li', {},
      h('code', { class: 'header-name' }, x.name), ': ', payload(x.value, false, 'header-value'))))
    : h('span', { class: 'empty' }, 'none');
  return h('li', { class: 'msg', 'data-partition': m.partition, 'data-offset': m.offset },
    h('dl', { class: 'msg-meta' },
      h('div', {}, h('dt', {}, 'Partition'), h('dd', { class: 'msg-partition' }, m.partition)),
      h('div', {}, h('dt', {}, 'Offset'), h('dd', { class: 'msg-offset' }, m.offset)),
      h('div', {}, h('dt', {}, 'Timestamp'), h('dd', {}, h('time', { datetime: time.toISOString() },
        isNaN(time) ? m.timestamp : time.toISOString()))),
      h('div', {}, h('dt', {}, 'Key'), h('dd', {}, payload(m.key, false, 'msg-key'))),
      h('div', { class: 'wide' }, h('dt', {}, 'Headers'), h('dd', {}, headers))),
    h('div', { class: 'msg-value-box' },
      h('span', { class: 'tag kind' }, m.value && m.value.kind !== 'null' ? KIND_LABELS[m.value.kind] : 'null'),
      payload(m.value, true, 'msg-value')));
}

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

  // --- Browse ---
  const partition = h('select', { id: 'msg-partition' },
    h('option', { value: 'all' }, 'All (by timestamp)'),
    topic.partitions.map((p) => h('option', { value: p.partition },
      `${p.partition} (offsets ${p.startOffset}–${p.endOffset})`)));
  const from = h('select', { id: 'msg-from' },
    h('option', { value: 'oldest' }, 'Oldest'), h('option', { value: 'newest' }, 'Newest'),
    h('option', { value: 'offset' }, 'Offset'), h('option', { value: 'timestamp' }, 'Timestamp'));
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
  // Read committed: transactions' records only once committed, aborted ones never (markers never show).
  const committed = h('input', { id: 'msg-committed', type: 'checkbox' });
  const committedField = h('div', { class: 'field check' }, h('label', { for: 'msg-committed' }, committed,
    ' Committed only'), h('small', {}, 'read_committed: skips aborted and open transactions'));

  const list = h('ol', { id: 'messages', class: 'messages', 'aria-label': 'Messages' });
  const range = h('p', { id: 'msg-range', class: 'range', 'aria-live': 'polite' });
  const browseMessage = h('div', { class: 'form-message' });
  const prev = h('button', { type: 'button', id: 'msg-prev', class: 'secondary', disabled: true }, '← Older');
  const next = h('button', { type: 'button', id: 'msg-next', class: 'secondary', disabled: true }, 'Newer →');
  let page = null;
  let loadToken = 0;

  async function load(params) {
    const token = ++loadToken;
    list.setAttribute('aria-busy', 'true');
    browseMessage.replaceChildren(h('p', { class: 'loading' }, 'Loading messages…'));
    prev.disabled = true;
    next.disabled = true;
    try {
      const which = partition.value === 'all' ? { partitions: 'all' } : { partition: partition.value };
      const result = await messagesApi.page(name, { ...which, count: PAGE_SIZE, committed: committed.checked,
        ...params });
      if (token !== loadToken) return;
      page = result;
      browseMessage.replaceChildren();
      list.replaceChildren(...result.messages.map(messageItem));
      const n = result.messages.length;
      const messagesText = `${n} ${n === 1 ? 'message' : 'messages'}`;
      if (result.partitions) {
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
    } catch (e) {
      if (token === loadToken) browseMessage.replaceChildren(errorBox(e));
    } finally {
      if (token === loadToken) list.removeAttribute('aria-busy');
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

  const browseForm = h('form', { id: 'browse-form', class: 'toolbar', 'aria-label': 'Choose messages',
    onsubmit: (e) => {
      e.preventDefault();
      try {
        load(position());
      } catch (err) {
        browseMessage.replaceChildren(errorBox(err));
      }
    } },
  field('msg-partition', 'Partition', partition), field('msg-from', 'Start at', from), offsetField, timeField,
  committedField, h('div', { class: 'field' }, h('button', { type: 'submit', id: 'msg-load' }, 'Show messages')));
  prev.addEventListener('click', () => page && load(page.partitions
    ? { from: 'before', cursor: page.previousCursor } : { from: 'offset', offset: page.previousOffset }));
  next.addEventListener('click', () => page && load(page.partitions
    ? { from: 'after', cursor: page.nextCursor } : { from: 'offset', offset: page.nextOffset }));

  // --- Search ---
  const query = h('input', { id: 'search-query', type: 'search', required: true, autocomplete: 'off' });
  const where = h('select', { id: 'search-in' }, h('option', { value: 'both' }, 'Key and value'),
    h('option', { value: 'value' }, 'Value'), h('option', { value: 'key' }, 'Key'));
  const searchButton = h('button', { type: 'submit', id: 'search-start' }, 'Search');
  const cancelButton = h('button', { type: 'button', id: 'search-cancel', class: 'danger', hidden: true }, 'Cancel');
  const progress = h('p', { id: 'search-progress', role: 'status', 'aria-live': 'polite' });
  const searchMessage = h('div', { class: 'form-message' });
  const results = h('ol', { id: 'search-results', class: 'messages', 'aria-label': 'Search matches' });
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
      results.replaceChildren(...s.messages.map(messageItem));
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
      results.replaceChildren();
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

  // --- Live tail ---
  const tailList = h('ol', { id: 'tail', class: 'messages', 'aria-label': 'Live messages', 'aria-live': 'polite',
    'aria-relevant': 'additions' });
  const tailStatus = h('p', { id: 'tail-status', role: 'status' }, 'Not following.');
  const tailMessage = h('div', { class: 'form-message' });
  const tailStart = h('button', { type: 'button', id: 'tail-start' }, 'Start live tail');
  const tailStop = h('button', { type: 'button', id: 'tail-stop', class: 'danger', disabled: true }, 'Stop');
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
      tailList.prepend(messageItem(JSON.parse(event.data)));
      while (tailList.children.length > TAIL_MAX) tailList.lastElementChild.remove();
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

  // --- Produce ---
  let produceCard = null;
  // Only when the server allows producing and the user may WRITE the topic.
  if (settings.produceEnabled && allows(rights.operations, 'WRITE')) {
    const key = h('input', { id: 'produce-key', autocomplete: 'off' });
    const value = h('textarea', { id: 'produce-value', rows: 6, spellcheck: 'false' });
    const headers = h('textarea', { id: 'produce-headers', rows: 3, spellcheck: 'false',
      'aria-describedby': 'produce-headers-hint' });
    const target = h('select', { id: 'produce-partition' }, h('option', { value: '' }, 'Any (by key)'),
      topic.partitions.map((p) => h('option', { value: p.partition }, p.partition)));
    const produceMessage = h('div', { class: 'form-message', id: 'produce-message' });
    const send = h('button', { type: 'submit', id: 'produce-send' }, 'Produce');
    produceCard = h('section', { class: 'card', 'aria-labelledby': 'produce-title' },
      h('h2', { id: 'produce-title' }, 'Produce a message'),
      h('form', { id: 'produce-form', onsubmit: async (e) => {
        e.preventDefault();
        produceMessage.replaceChildren();
        let parsed;
        try {
          parsed = headers.value.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
            const at = line.indexOf('=');
            if (at <= 0) throw new Error(`Header "${line}" is not name=value.`);
            return { name: line.slice(0, at).trim(), value: line.slice(at + 1) };
          });
        } catch (err) {
          produceMessage.replaceChildren(errorBox(err));
          return;
        }
        send.disabled = true;
        try {
          const done = await messagesApi.produce(name, { key: key.value || null, value: value.value,
            headers: parsed, partition: target.value === '' ? null : Number(target.value) });
          const text = `Produced to partition ${done.partition} at offset ${done.offset}.`;
          produceMessage.replaceChildren(h('p', { class: 'ok', id: 'produce-result' }, text));
          announce(text);
        } catch (err) {
          produceMessage.replaceChildren(errorBox(err));
        } finally {
          send.disabled = false;
        }
      } },
      field('produce-key', 'Key', key, 'Optional; sent as UTF-8 text.'),
      field('produce-value', 'Value', value, 'Sent as UTF-8 text; JSON stays as typed.'),
      h('div', { class: 'field' }, h('label', { for: 'produce-headers' }, 'Headers'), headers,
        h('small', { id: 'produce-headers-hint' }, 'One per line, name=value.')),
      field('produce-partition', 'Partition', target),
      send, produceMessage));
  }

  const page$ = h('section', { 'aria-labelledby': 'messages-title', class: 'messages-page' },
    h('p', {}, h('a', { href: `#/topics/${enc(topic.name)}` }, `← Topic ${topic.name}`)),
    h('h1', { id: 'messages-title' }, 'Messages in ', h('span', { id: 'topic-name' }, topic.name)),
    h('div', { class: produceCard ? 'columns' : '' },
      h('div', { class: 'stack' },
        h('section', { 'aria-labelledby': 'browse-title' },
          h('h2', { id: 'browse-title' }, 'Browse'), browseForm, browseMessage, range,
          h('div', { class: 'pager' }, prev, next), list),
        h('section', { 'aria-labelledby': 'search-title' },
          h('h2', { id: 'search-title' }, 'Search'), searchForm,
          h('p', { class: 'hint' }, 'Scans every partition on the server, up to a million records or 30 seconds.'),
          progress, searchMessage, results),
        h('section', { 'aria-labelledby': 'tail-title' },
          h('h2', { id: 'tail-title' }, 'Live tail'),
          h('div', { class: 'toolbar' }, tailStart, tailStop), tailStatus, tailMessage, tailList)),
      produceCard));
  load({ from: 'newest' });
  return page$;
}
