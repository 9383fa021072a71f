// Topics: filter, sort and paging (server side), internal topics behind a toggle, sizes and message counts,
// create form, deletion of the ticked topics after one confirmation dialog (never internal topics).
import * as api from '../api.js';
import { announce, errorBox, h, latestOnly, table } from '../dom.js';
import { allows, session } from '../session.js';

const PAGE_SIZE = 20;

function field(label, input, hint) {
  return h('div', { class: 'field' }, h('label', { for: input.id }, label), input,
    hint ? h('small', { id: `${input.id}-hint` }, hint) : null);
}

/** "a=b" lines to a map; throws on a line without "=". */
function parseConfigs(text) {
  const configs = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const eq = line.indexOf('=');
    if (eq < 1) throw new Error(`Config line "${line}" is not name=value`);
    configs[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return configs;
}

/** Bytes for people: 1536 → "1.5 KiB". */
export function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Sortable columns: key, header text, the order a first click gives. */
const SORTABLE = { name: ['Name', 'asc'], partitions: ['Partitions', 'desc'], size: ['Size', 'desc'],
  messages: ['Messages', 'desc'] };

/** Builds the topics page. */
export async function render() {
  document.title = 'Topics · Tributary admin';
  const state = { filter: '', page: 0, sort: 'name', order: 'asc', internal: false };
  // Topics ticked for deletion, kept across pages and filters; the dialog lists every one.
  const selected = new Set();
  const listArea = h('div', { id: 'topic-list', 'aria-live': 'polite' });
  const dialog = confirmDialog();
  const deleteButton = h('button', { type: 'button', id: 'delete-selected', class: 'danger', disabled: true,
    onclick: () => askDelete([...selected]) }, 'Delete selected');

  function selectionChanged() {
    deleteButton.disabled = selected.size === 0;
    deleteButton.textContent = selected.size === 0 ? 'Delete selected'
      : `Delete ${selected.size} selected ${selected.size === 1 ? 'topic' : 'topics'}`;
  }

  // Only the latest request's answer is shown: an earlier one (another filter) may arrive after it.
  const load = latestOnly({
    start() {
      listArea.setAttribute('aria-busy', 'true');
      // The first load shows a loading line; later ones keep the old list until the new one is there.
      if (!listArea.hasChildNodes()) listArea.replaceChildren(h('p', { class: 'loading' }, 'Loading topics…'));
    },
    fetch: () => api.topics(state.filter, state.page, PAGE_SIZE, state.sort, state.order, state.internal),
    ok: (result) => listArea.replaceChildren(...list(result)),
    fail: (e) => listArea.replaceChildren(errorBox(e)),
    end: () => listArea.removeAttribute('aria-busy'),
  });

  function sortBy(key) {
    if (state.sort === key) state.order = state.order === 'asc' ? 'desc' : 'asc';
    else [state.sort, state.order] = [key, SORTABLE[key][1]];
    state.page = 0;
    load();
  }

  function header(key, extra) {
    const active = state.sort === key;
    const arrow = active ? (state.order === 'asc' ? ' ▲' : ' ▼') : '';
    return h('th', { scope: 'col', class: key === 'name' ? null : 'num',
      'aria-sort': active ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none' },
    extra, h('button', { type: 'button', class: 'sort', 'data-sort': key, onclick: () => sortBy(key) },
      SORTABLE[key][0], h('span', { 'aria-hidden': 'true' }, arrow)));
  }

  function list(result) {
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    // Internal topics are never offered for deletion; others only to who may (DELETE on the topic).
    const deletable = result.topics.filter((t) => !t.internal && allows(t.operations, 'DELETE'));
    const boxes = [];
    const rows = result.topics.map((t) => {
      const box = deletable.includes(t) ? h('input', { type: 'checkbox', class: 'select', 'data-select': t.name,
        'aria-label': `Select topic ${t.name}`, checked: selected.has(t.name),
        onchange: (e) => { if (e.target.checked) selected.add(t.name); else selected.delete(t.name);
          selectionChanged(); } }) : null;
      if (box) boxes.push(box);
      return h('tr', { 'data-topic': t.name },
        h('th', { scope: 'row' }, box ?? h('span', { class: 'select-spacer' }),
          h('a', { href: `#/topics/${encodeURIComponent(t.name)}` }, t.name),
          t.internal ? h('span', { class: 'tag' }, 'internal') : null),
        h('td', { class: 'num' }, t.partitions), h('td', { class: 'num' }, t.replicationFactor),
        h('td', { class: t.underReplicated > 0 ? 'num warn' : 'num' }, t.underReplicated),
        h('td', { class: 'num', 'data-bytes': t.sizeBytes ?? null },
          t.sizeBytes == null ? '—' : formatBytes(t.sizeBytes)),
        h('td', { class: 'num', 'data-messages': t.messageCount ?? null },
          t.messageCount == null ? '—' : t.messageCount.toLocaleString('en-US')));
    });
    const internalNote = result.internal === 0 ? ''
      : state.internal ? ` (${result.internal} internal)` : ` (${result.internal} internal hidden)`;
    const summary = h('p', { id: 'topic-total' }, result.total === 1 ? '1 topic' : `${result.total} topics`,
      state.filter ? ` matching “${state.filter}”` : '', internalNote);
    if (result.topics.length === 0) return [summary, h('p', { class: 'empty' }, 'No topics to show.')];
    const pageBox = boxes.length === 0 ? null : h('input', { type: 'checkbox', id: 'select-page', class: 'select',
      'aria-label': 'Select every topic on this page', checked: boxes.every((b) => b.checked),
      onchange: (e) => {
        for (const box of boxes) {
          box.checked = e.target.checked;
          if (box.checked) selected.add(box.dataset.select); else selected.delete(box.dataset.select);
        }
        selectionChanged();
      } });
    return [summary,
      h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Topics' },
        h('table', { id: 'topics' },
          h('caption', {}, 'Topics'),
          h('thead', {}, h('tr', {}, header('name', pageBox), header('partitions'),
            h('th', { scope: 'col', class: 'num' }, 'Replication factor'),
            h('th', { scope: 'col', class: 'num' }, 'Under-replicated'),
            header('size'), header('messages'))),
          h('tbody', {}, rows))),
      h('p', { id: 'usage-note', class: 'hint table-note' }, 'Size: bytes on disk of the leader replicas. ',
        'Messages: end offset − start offset, summed over partitions; approximate for compacted topics and for ',
        'topics written in transactions (removed records and transaction markers count).'),
      h('nav', { class: 'pager', 'aria-label': 'Pages' },
        h('button', { type: 'button', disabled: state.page === 0,
          onclick: () => { state.page -= 1; load(); } }, 'Previous'),
        h('span', {}, `Page ${state.page + 1} of ${pages}`),
        h('button', { type: 'button', disabled: state.page + 1 >= pages,
          onclick: () => { state.page += 1; load(); } }, 'Next'))];
  }

  async function askDelete(names) {
    if (names.length === 0 || !(await dialog.confirm(names))) return;
    announce(names.length === 1 ? `Deleting topic ${names[0]}…` : `Deleting ${names.length} topics…`);
    try {
      const { deleted, failed } = await api.deleteTopics(names);
      deleted.forEach((name) => selected.delete(name));
      selectionChanged();
      announce(deleted.length === 0 ? '' : deleted.length === 1 ? `Topic ${deleted[0]} deleted.`
        : `${deleted.length} topics deleted: ${deleted.join(', ')}.`);
      await load();
      if (failed.length > 0) {
        listArea.prepend(errorBox(new Error(`Not deleted: ${failed.map((f) => `${f.name} (${f.message})`)
          .join('; ')}`)));
      }
    } catch (e) {
      announce('');
      listArea.prepend(errorBox(e));
    }
  }

  const filterInput = h('input', { id: 'filter', type: 'search', name: 'filter', autocomplete: 'off' });
  let timer;
  filterInput.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { state.filter = filterInput.value.trim(); state.page = 0; load(); }, 250);
  });
  const internalToggle = h('input', { id: 'show-internal', type: 'checkbox', class: 'select',
    onchange: (e) => { state.internal = e.target.checked; state.page = 0; load(); } });

  // The create form only for who may create topics: CREATE on the cluster.
  const { clusterOperations } = await session();
  const form = allows(clusterOperations, 'CREATE') ? createForm(async (spec) => {
    await api.createTopic(spec);
    announce(`Topic ${spec.name} created.`);
    await load();
  }) : null;

  load();
  return h('section', { 'aria-labelledby': 'topics-title' },
    h('h1', { id: 'topics-title' }, 'Topics'),
    h('div', { class: 'columns' },
      h('div', { class: 'main-column' },
        h('form', { role: 'search', class: 'filter', onsubmit: (e) => e.preventDefault() },
          field('Filter by name', filterInput)),
        h('div', { class: 'toolbar' },
          h('label', { class: 'check' }, internalToggle, 'Show internal topics'),
          deleteButton),
        listArea),
      form),
    dialog.element);
}

function createForm(create) {
  const name = h('input', { id: 'new-name', name: 'name', required: true, autocomplete: 'off',
    pattern: '[a-zA-Z0-9._\\-]+', maxlength: '249', 'aria-describedby': 'new-name-hint' });
  const partitions = h('input', { id: 'new-partitions', name: 'partitions', type: 'number', min: '1', value: '1',
    required: true });
  const replication = h('input', { id: 'new-replication', name: 'replicationFactor', type: 'number', min: '1',
    value: '1', required: true });
  const configs = h('textarea', { id: 'new-configs', name: 'configs', rows: '3',
    placeholder: 'cleanup.policy=compact', 'aria-describedby': 'new-configs-hint' });
  const message = h('div', { class: 'form-message' });
  const submit = h('button', { type: 'submit', id: 'create-topic' }, 'Create topic');
  const form = h('form', { class: 'card create', 'aria-labelledby': 'create-title', novalidate: false },
    h('h2', { id: 'create-title' }, 'Create a topic'),
    field('Name', name, 'Letters, digits, ".", "_" and "-"'),
    field('Partitions', partitions),
    field('Replication factor', replication),
    field('Configs (optional)', configs, 'One name=value per line'),
    submit, message);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.replaceChildren();
    let spec;
    try {
      spec = { name: name.value.trim(), partitions: Number(partitions.value),
        replicationFactor: Number(replication.value), configs: parseConfigs(configs.value) };
    } catch (err) {
      message.replaceChildren(errorBox(err));
      return;
    }
    submit.disabled = true;
    submit.textContent = 'Creating…';
    try {
      await create(spec);
      form.reset();
      message.replaceChildren(h('p', { class: 'ok', role: 'status' }, `Topic ${spec.name} created.`));
    } catch (err) {
      message.replaceChildren(errorBox(err));
    } finally {
      submit.disabled = false;
      submit.textContent = 'Create topic';
    }
  });
  return form;
}

/** A modal <dialog>; confirm(names) resolves true when the user confirms deleting those topics. */
function confirmDialog() {
  const title = h('h2', { id: 'confirm-title' }, 'Delete topics?');
  const text = h('p', { id: 'confirm-text' });
  const names = h('ul', { id: 'confirm-list' });
  const cancel = h('button', { type: 'button', value: 'cancel', id: 'confirm-cancel' }, 'Cancel');
  const ok = h('button', { type: 'button', value: 'ok', class: 'danger', id: 'confirm-delete' }, 'Delete');
  const element = h('dialog', { id: 'confirm', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text' },
    title, text, names, h('div', { class: 'actions' }, cancel, ok));
  let resolve = () => {};
  cancel.addEventListener('click', () => element.close('cancel'));
  ok.addEventListener('click', () => element.close('ok'));
  element.addEventListener('close', () => resolve(element.returnValue === 'ok'));
  return {
    element,
    confirm(topics) {
      const one = topics.length === 1;
      title.textContent = one ? 'Delete topic?' : `Delete ${topics.length} topics?`;
      text.textContent = one ? `Topic “${topics[0]}” and all its records will be deleted. This cannot be undone.`
        : `These ${topics.length} topics and all their records will be deleted. This cannot be undone.`;
      names.replaceChildren(...(one ? [] : topics.map((t) => h('li', {}, t))));
      ok.textContent = one ? 'Delete' : `Delete ${topics.length} topics`;
      element.returnValue = '';
      element.showModal();
      cancel.focus();
      return new Promise((r) => { resolve = r; });
    },
  };
}
