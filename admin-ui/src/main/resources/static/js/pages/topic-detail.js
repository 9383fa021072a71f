// Topic detail: partitions (leader, replicas, ISR, out of sync, offsets, size on disk) and the topic's
// total size; adding partitions (behind a confirmation dialog); configs with where each value comes
// from, edited and reset in one batch.
import * as api from '../api.js';
import { announce, errorBox, h, ids, latestOnly, table } from '../dom.js';
import { confirmDialog } from './groups-api.js';
import { allows } from '../session.js';

const enc = encodeURIComponent;
const topicApi = {
  addPartitions: (name, partitions) => api.request('PATCH', `/api/topics/${enc(name)}`, { partitions }),
  changeConfigs: (name, set, reset) => api.request('PUT', `/api/topics/${enc(name)}/configs`, { set, reset }),
  // Not known (null) when the rights cannot be read: the controls are offered and the server decides.
  rights: (name) => api.request('GET', `/api/topics/${enc(name)}/rights`).catch(() => ({ operations: null })),
};

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** 1536 → "1.5 KiB"; below 1 KiB in bytes. */
export function humanBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = -1;
  do {
    value /= 1024;
    unit += 1;
  } while (value >= 1024 && unit < UNITS.length - 1);
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}

/** A size in human units with the exact count of bytes in its title and accessible name. */
function size(bytes, id) {
  if (bytes == null) return h('span', { id, class: 'empty', title: 'The REST proxy gave no size' }, 'unknown');
  const exact = `${bytes.toLocaleString('en')} bytes`;
  const shown = humanBytes(bytes);
  return h('span', { id, 'data-bytes': bytes, title: exact, 'aria-label': shown === `${bytes} B` ? exact
    : `${shown} (${exact})` }, shown);
}

function loadStyles() {
  if (document.getElementById('topic-detail-css')) return;
  document.head.append(h('link', { id: 'topic-detail-css', rel: 'stylesheet', href: 'css/topic-detail.css' }));
}

/** Builds the page of topic params[0]. */
export async function render([name]) {
  loadStyles();
  const [first, rights] = await Promise.all([api.topic(name), topicApi.rights(name)]);
  let t = first;
  document.title = `${t.name} · Tributary admin`;
  // Controls only for who may use them (the server refuses the others all the same).
  const canAddPartitions = allows(rights.operations, 'ALTER');
  const canChangeConfigs = allows(rights.operations, 'ALTER_CONFIGS');
  const dialog = confirmDialog();
  const overview = h('div', { id: 'topic-overview', 'aria-live': 'polite' });
  const configArea = h('div', { id: 'config-area' });
  const refreshMessage = h('div', { class: 'form-message' });
  const refresh = h('button', { type: 'button', id: 'topic-refresh', class: 'secondary',
    onclick: () => reload() }, 'Refresh');
  const partitionsForm = addPartitionsForm();

  function show() {
    overview.replaceChildren(...partitionsContent(t));
    configArea.replaceChildren(configForm(t));
    partitionsForm.update(t);
  }

  // Only the latest reload's answer is shown (a Refresh and a save's reload may overlap).
  const reload = latestOnly({
    start() {
      refresh.textContent = 'Refreshing…';
      overview.setAttribute('aria-busy', 'true');
      refreshMessage.replaceChildren();
    },
    fetch: () => api.topic(name),
    ok(fresh) {
      t = fresh;
      show();
    },
    fail: (e) => refreshMessage.replaceChildren(errorBox(e)),
    end() {
      overview.removeAttribute('aria-busy');
      refresh.textContent = 'Refresh';
    },
  });


  function addPartitionsForm() {
    const count = h('input', { id: 'new-partition-count', name: 'partitions', type: 'number', step: '1',
      inputmode: 'numeric', required: true, 'aria-describedby': 'new-partition-count-hint' });
    const hint = h('small', { id: 'new-partition-count-hint' });
    const message = h('div', { class: 'form-message' });
    const submit = h('button', { type: 'submit', id: 'add-partitions' }, 'Add partitions');
    const form = h('form', { class: 'card', id: 'partitions-form', 'aria-labelledby': 'partitions-form-title' },
      h('h2', { id: 'partitions-form-title' }, 'Add partitions'),
      h('div', { class: 'field' }, h('label', { for: count.id }, 'New partition count'), count, hint),
      submit, message);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      message.replaceChildren();
      const current = t.partitions.length;
      const wanted = Number(count.value);
      if (count.value === '' || !Number.isInteger(wanted) || wanted <= current) {
        message.replaceChildren(errorBox(new Error(`Enter a whole number above ${current}, the current count.`)));
        count.focus();
        return;
      }
      const added = wanted - current;
      if (!(await dialog.ask('Add partitions?', `Topic “${t.name}” will go from ${current} to ${wanted} partitions `
          + `(${added} new). Partitions cannot be removed again, and records with a key may go to another `
          + 'partition than before.', `Add ${added} partition${added === 1 ? '' : 's'}`))) return;
      submit.disabled = true;
      submit.textContent = 'Adding…';
      try {
        await topicApi.addPartitions(t.name, wanted);
        message.replaceChildren(h('p', { class: 'ok', role: 'status', id: 'partitions-done' },
          `Topic ${t.name} now has ${wanted} partitions.`));
        await reload();
      } catch (err) {
        message.replaceChildren(errorBox(err));
      } finally {
        submit.disabled = false;
        submit.textContent = 'Add partitions';
      }
    });
    return {
      element: form,
      update(topic) {
        const current = topic.partitions.length;
        count.min = String(current + 1);
        if (count.value === '' || Number(count.value) <= current) count.value = String(current + 1);
        hint.textContent = `Now ${current}. Partitions can be added, never removed.`;
      },
    };
  }

  function configForm(topic) {
    if (!topic.configs) {
      return h('p', { id: 'configs-hidden', class: 'hint' },
        'Not shown: you may not describe this topic’s configs (it needs DESCRIBE_CONFIGS).');
    }
    if (!canChangeConfigs) {
      return h('div', { id: 'config-view' }, table('Configs: value and where it comes from',
        ['Name', 'Value', 'Source', 'Status', 'Change'], topic.configs.map((c) => configRow(c, false)),
        { id: 'configs' }));
    }
    const pending = h('span', { id: 'config-pending', 'aria-live': 'polite' });
    const message = h('div', { class: 'form-message', id: 'config-message' });
    const save = h('button', { type: 'submit', id: 'save-configs', disabled: true }, 'Save changes');
    const discard = h('button', { type: 'button', id: 'discard-configs', class: 'secondary', disabled: true,
      onclick: () => { form.reset(); sync(); message.replaceChildren(); } }, 'Discard changes');
    const rows = topic.configs.map((c) => configRow(c, true));
    const form = h('form', { id: 'config-form', 'aria-labelledby': 'configs-title', novalidate: true },
      table('Configs: value, where it comes from, and a change', ['Name', 'Value', 'Source', 'Status', 'Change'],
        rows, { id: 'configs' }),
      h('div', { class: 'save-bar' }, save, discard, pending),
      message);

    /** { set: {name: value}, reset: [name] } from the inputs and checkboxes. */
    function changes() {
      const set = {};
      const reset = [];
      for (const input of form.querySelectorAll('input[data-config]')) {
        if (input.type === 'checkbox') {
          if (input.checked) reset.push(input.dataset.config);
        } else if (!input.disabled && input.value !== '' && input.value !== input.dataset.current) {
          set[input.dataset.config] = input.value;
        }
      }
      return { set, reset };
    }

    function sync() {
      for (const box of form.querySelectorAll('input[type=checkbox][data-config]')) {
        const input = box.closest('tr').querySelector('input[data-config]:not([type=checkbox])');
        if (input) {
          input.disabled = box.checked;
          if (box.checked) input.value = '';
        }
      }
      for (const row of form.querySelectorAll('tbody tr')) {
        const input = row.querySelector('input[data-config]:not([type=checkbox])');
        const box = row.querySelector('input[type=checkbox][data-config]');
        const changed = (box && box.checked)
          || (input && !input.disabled && input.value !== '' && input.value !== input.dataset.current);
        row.classList.toggle('changed', Boolean(changed));
      }
      const { set, reset } = changes();
      const count = Object.keys(set).length + reset.length;
      save.disabled = count === 0;
      discard.disabled = count === 0;
      pending.textContent = count === 0 ? '' : `${count} unsaved change${count === 1 ? '' : 's'}`;
      // The save bar follows the scroll only while there is something to save.
      save.parentElement.classList.toggle('pending', count > 0);
    }

    form.addEventListener('input', sync);
    form.addEventListener('change', sync);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      message.replaceChildren();
      const { set, reset } = changes();
      if (Object.keys(set).length + reset.length === 0) return;
      save.disabled = true;
      save.textContent = 'Saving…';
      try {
        await topicApi.changeConfigs(topic.name, set, reset);
        const said = [...Object.keys(set).map((n) => `${n} set`), ...reset.map((n) => `${n} reset to its default`)];
        announce(`Configs of ${topic.name} saved: ${said.join(', ')}.`);
        await reload();
        document.getElementById('config-message')?.replaceChildren(h('p', { class: 'ok', role: 'status',
          id: 'configs-saved' }, `Saved: ${said.join(', ')}.`));
      } catch (err) {
        // The edits stay for the user to correct; Kafka's message says what was wrong.
        message.replaceChildren(errorBox(err));
        save.disabled = false;
        save.textContent = 'Save changes';
      }
    });
    return form;
  }

  show();
  return h('section', { 'aria-labelledby': 'topic-title' },
    h('p', {}, h('a', { href: '#/topics' }, '← All topics')),
    h('div', { class: 'title-row' },
      h('h1', { id: 'topic-title' }, 'Topic ', h('span', { id: 'topic-name' }, t.name)),
      refresh),
    refreshMessage,
    h('p', {}, h('a', { id: 'messages-link', href: `#/topics/${enc(t.name)}/messages` }, 'Messages')),
    h('div', { class: 'columns' },
      h('div', { class: 'main-column' }, overview),
      h('div', { class: 'side-column' }, canAddPartitions ? partitionsForm.element : null)),
    h('h2', { id: 'configs-title' }, 'Configs'),
    canChangeConfigs ? h('p', { class: 'hint', id: 'configs-hint' }, 'Type a new value or tick “Reset” to go back '
      + 'to the default, then save: all changes go to the cluster together, and none is applied if one is invalid.')
      : null,
    configArea,
    dialog.element);
}

function partitionsContent(t) {
  const partitions = t.partitions.map((p) => h('tr', { 'data-partition': p.partition },
    h('th', { scope: 'row', class: 'num' }, p.partition),
    h('td', { class: p.leader == null ? 'num warn' : 'num' }, p.leader ?? 'none'),
    h('td', {}, ids(p.replicas)), h('td', {}, ids(p.isr)),
    h('td', { class: p.outOfSync.length ? 'warn' : '' }, ids(p.outOfSync)),
    h('td', { class: 'num' }, p.startOffset), h('td', { class: 'num' }, p.endOffset),
    h('td', { class: 'num' }, size(p.sizeBytes))));
  return [
    h('dl', { class: 'stats' },
      h('div', { class: 'stat' }, h('dt', {}, 'Partitions'), h('dd', { id: 'partition-count' }, t.partitions.length)),
      h('div', { class: 'stat' }, h('dt', {}, 'Size on disk'), h('dd', {}, size(t.sizeBytes, 'topic-size')))),
    h('h2', {}, 'Partitions'),
    table('Partitions', ['Partition', 'Leader', 'Replicas', 'ISR', 'Out of sync', 'Start offset', 'End offset',
      'Size on disk'], partitions, { id: 'partitions' }),
  ];
}

function configRow(c, editable) {
  const tags = [c.overridden ? h('span', { class: 'tag overridden' }, 'overridden')
    : c.isDefault ? h('span', { class: 'tag' }, 'default') : h('span', { class: 'tag' }, 'inherited'),
  c.readOnly ? h('span', { class: 'tag' }, 'read-only') : null,
  c.sensitive ? h('span', { class: 'tag' }, 'sensitive') : null];
  let change;
  if (c.readOnly) {
    change = h('span', { class: 'empty' }, 'Cannot be changed');
  } else if (!editable) {
    change = h('span', { class: 'empty' }, 'Not yours to change (needs ALTER_CONFIGS)');
  } else {
    const input = h('input', { type: c.sensitive ? 'password' : 'text', 'data-config': c.name,
      'data-current': c.sensitive ? '' : c.value ?? '', autocomplete: 'off', spellcheck: 'false',
      placeholder: c.sensitive ? 'New secret value' : 'New value', 'aria-label': `New value of ${c.name}` });
    const reset = c.overridden ? h('label', { class: 'reset' },
      h('input', { type: 'checkbox', 'data-config': c.name }),
      ' Reset', h('span', { class: 'visually-hidden' }, ` ${c.name} to its default`)) : null;
    change = h('div', { class: 'change' }, input, reset);
  }
  return h('tr', { 'data-config-row': c.name },
    h('th', { scope: 'row' }, c.name),
    h('td', { class: 'value' }, c.sensitive ? '(sensitive)' : c.value ?? ''),
    h('td', {}, sourceLabel(c.source)),
    h('td', { class: 'tags' }, tags),
    h('td', { class: 'change-cell' }, change));
}

/** DYNAMIC_TOPIC_CONFIG → "Topic (dynamic)"; unknown sources as given. */
function sourceLabel(source) {
  const labels = {
    DYNAMIC_TOPIC_CONFIG: 'This topic',
    DYNAMIC_BROKER_CONFIG: 'Broker (dynamic)',
    DYNAMIC_DEFAULT_BROKER_CONFIG: 'Cluster default (dynamic)',
    STATIC_BROKER_CONFIG: 'Broker config file',
    DEFAULT_CONFIG: 'Kafka default',
  };
  return source ? h('span', { title: source }, labels[source] ?? source) : '';
}
