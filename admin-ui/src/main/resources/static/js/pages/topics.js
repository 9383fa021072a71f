// Topics: filter and paging (server side), create form, delete with a confirmation dialog.
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

/** Builds the topics page. */
export async function render() {
  document.title = 'Topics · Tributary admin';
  const state = { filter: '', page: 0 };
  const listArea = h('div', { id: 'topic-list', 'aria-live': 'polite' });
  const dialog = confirmDialog();

  // Only the latest request's answer is shown: an earlier one (another filter) may arrive after it.
  const load = latestOnly({
    start() {
      listArea.setAttribute('aria-busy', 'true');
      // The first load shows a loading line; later ones keep the old list until the new one is there.
      if (!listArea.hasChildNodes()) listArea.replaceChildren(h('p', { class: 'loading' }, 'Loading topics…'));
    },
    fetch: () => api.topics(state.filter, state.page, PAGE_SIZE),
    ok: (result) => listArea.replaceChildren(...list(result)),
    fail: (e) => listArea.replaceChildren(errorBox(e)),
    end: () => listArea.removeAttribute('aria-busy'),
  });

  function list(result) {
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    const rows = result.topics.map((t) => h('tr', { 'data-topic': t.name },
      h('th', { scope: 'row' }, h('a', { href: `#/topics/${encodeURIComponent(t.name)}` }, t.name),
        t.internal ? h('span', { class: 'tag' }, 'internal') : null),
      h('td', { class: 'num' }, t.partitions), h('td', { class: 'num' }, t.replicationFactor),
      h('td', { class: t.underReplicated > 0 ? 'num warn' : 'num' }, t.underReplicated),
      // Delete only for who may: DELETE on the topic (the server refuses the others all the same).
      h('td', {}, allows(t.operations, 'DELETE') ? h('button', { type: 'button', class: 'danger',
        'data-delete': t.name, onclick: () => askDelete(t.name) }, 'Delete',
      h('span', { class: 'visually-hidden' }, ` ${t.name}`)) : null)));
    const summary = h('p', { id: 'topic-total' }, result.total === 1 ? '1 topic' : `${result.total} topics`,
      state.filter ? ` matching “${state.filter}”` : '');
    if (result.topics.length === 0) return [summary, h('p', { class: 'empty' }, 'No topics to show.')];
    return [summary,
      table('Topics', ['Name', 'Partitions', 'Replication factor', 'Under-replicated', 'Actions'], rows,
        { id: 'topics' }),
      h('nav', { class: 'pager', 'aria-label': 'Pages' },
        h('button', { type: 'button', disabled: state.page === 0,
          onclick: () => { state.page -= 1; load(); } }, 'Previous'),
        h('span', {}, `Page ${state.page + 1} of ${pages}`),
        h('button', { type: 'button', disabled: state.page + 1 >= pages,
          onclick: () => { state.page += 1; load(); } }, 'Next'))];
  }

  async function askDelete(name) {
    if (!(await dialog.confirm(name))) return;
    announce(`Deleting topic ${name}…`);
    try {
      await api.deleteTopic(name);
      announce(`Topic ${name} deleted.`);
      await load();
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

/** A modal <dialog>; confirm(name) resolves true when the user confirms the deletion. */
function confirmDialog() {
  const text = h('p', { id: 'confirm-text' });
  const cancel = h('button', { type: 'button', value: 'cancel', id: 'confirm-cancel' }, 'Cancel');
  const ok = h('button', { type: 'button', value: 'ok', class: 'danger', id: 'confirm-delete' }, 'Delete');
  const element = h('dialog', { id: 'confirm', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text' },
    h('h2', { id: 'confirm-title' }, 'Delete topic?'), text, h('div', { class: 'actions' }, cancel, ok));
  let resolve = () => {};
  cancel.addEventListener('click', () => element.close('cancel'));
  ok.addEventListener('click', () => element.close('ok'));
  element.addEventListener('close', () => resolve(element.returnValue === 'ok'));
  return {
    element,
    confirm(name) {
      text.textContent = `Topic “${name}” and all its records will be deleted. This cannot be undone.`;
      element.returnValue = '';
      element.showModal();
      cancel.focus();
      return new Promise((r) => { resolve = r; });
    },
  };
}
