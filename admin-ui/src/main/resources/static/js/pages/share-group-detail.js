// Share group detail (KIP-932): state, epochs, coordinator, total lag, members with their assigned partitions,
// the group's partitions (start offset and lag; in-flight records, archived records and lock expiries from
// the leaders' metrics) or why they are not available, its share.* configs edited in one batch by who
// may (ALTER_CONFIGS on the group), a reset of an empty group's start offsets to the earliest or latest
// offsets (READ on the group), and deletion of an empty group behind a confirmation dialog.
import { announce, errorBox, h, latestOnly, table } from '../dom.js';
import { confirmDialog, stateLabel } from './groups-api.js';
import * as api from './share-groups-api.js';
import { allows } from '../session.js';

function loadStyles() {
  // The config table is styled as the topic page's.
  if (document.getElementById('topic-detail-css')) return;
  document.head.append(h('link', { id: 'topic-detail-css', rel: 'stylesheet', href: 'css/topic-detail.css' }));
}

/** Builds the page of share group params[0]. */
export async function render([id]) {
  loadStyles();
  let group = await api.shareGroup(id);
  document.title = `${group.groupId} · Share groups · Tributary admin`;
  // Controls only for who may use them (the server refuses the others all the same).
  const canChangeConfigs = allows(group.operations, 'ALTER_CONFIGS');
  const canDelete = allows(group.operations, 'DELETE');
  const canReset = allows(group.operations, 'READ');
  const dialog = confirmDialog();
  const overview = h('div', { id: 'share-group-overview', 'aria-live': 'polite' });
  const configArea = h('div', { id: 'config-area' });
  const refreshMessage = h('div', { class: 'form-message' });
  const refresh = h('button', { type: 'button', id: 'share-group-refresh', class: 'secondary',
    onclick: () => { deleteMessage.replaceChildren(); reload(); } }, 'Refresh');
  const deleteButton = h('button', { type: 'button', id: 'delete-share-group', class: 'danger',
    'aria-describedby': 'delete-share-group-hint', onclick: () => askDelete() }, 'Delete share group');
  const deleteHint = h('p', { id: 'delete-share-group-hint', class: 'hint' });
  const deleteMessage = h('div', { class: 'form-message' });
  const resetMode = h('select', { id: 'reset-share-offsets-mode', 'aria-label': 'Reset to' },
    h('option', { value: 'earliest' }, 'Earliest offset'), h('option', { value: 'latest' }, 'Latest offset'));
  const resetButton = h('button', { type: 'button', id: 'reset-share-offsets', class: 'danger',
    'aria-describedby': 'reset-share-offsets-hint', onclick: () => askReset() }, 'Reset start offsets');
  const resetHint = h('p', { id: 'reset-share-offsets-hint', class: 'hint' });
  const resetMessage = h('div', { class: 'form-message' });

  function show() {
    overview.replaceChildren(...content(group));
    configArea.replaceChildren(configForm(group));
    const empty = group.members.length === 0;
    deleteButton.disabled = !empty;
    deleteHint.textContent = empty ? 'The group has no members: it can be deleted, with its state.'
      : `Only possible while the group has no members (now ${group.members.length}).`;
    resetButton.disabled = !empty;
    resetHint.textContent = empty ? 'The next consumer of the group starts at the chosen offset of every partition '
      + 'the group has start offsets for.' : `Only possible while the group has no members (now ${group.members.length}).`;
  }

  // Only the latest reload's answer is shown (a save's reload and a Refresh may overlap).
  const reload = latestOnly({
    start() {
      refresh.textContent = 'Refreshing…';
      overview.setAttribute('aria-busy', 'true');
      refreshMessage.replaceChildren();
    },
    fetch: () => api.shareGroup(id),
    ok(fresh) {
      group = fresh;
      show();
    },
    fail: (e) => refreshMessage.replaceChildren(errorBox(e)),
    end() {
      overview.removeAttribute('aria-busy');
      refresh.textContent = 'Refresh';
    },
  });

  async function askDelete() {
    deleteMessage.replaceChildren();
    if (!(await dialog.ask('Delete share group?', `Share group “${group.groupId}” and its state (which records `
        + 'were delivered) will be deleted. This cannot be undone.', 'Delete'))) return;
    deleteButton.disabled = true;
    announce(`Deleting share group ${group.groupId}…`);
    try {
      await api.deleteShareGroup(group.groupId);
      // The router clears the status line on navigation: say it once the list page is on its way.
      window.addEventListener('hashchange', () => announce(`Share group ${group.groupId} deleted.`), { once: true });
      location.hash = '#/share-groups';
    } catch (e) {
      announce('');
      deleteMessage.replaceChildren(errorBox(e));
      deleteButton.disabled = false;
    }
  }

  async function askReset() {
    resetMessage.replaceChildren();
    const mode = resetMode.value;
    if (!(await dialog.ask('Reset start offsets?', `Share group “${group.groupId}” will start again at the ${mode} `
        + 'offset of each of its partitions; what it delivered so far is forgotten.', 'Reset'))) return;
    resetButton.disabled = true;
    try {
      await api.resetOffsets(group.groupId, { mode });
      announce(`Start offsets of share group ${group.groupId} reset to ${mode}.`);
      reload();
    } catch (e) {
      resetMessage.replaceChildren(errorBox(e));
      resetButton.disabled = false;
    }
  }

  function configForm(g) {
    if (!g.configs) {
      return h('p', { id: 'share-configs-hidden', class: 'hint' },
        `Not shown: ${g.configsError || 'the group’s configs could not be read'}.`);
    }
    const headers = ['Name', 'Value', 'Source', 'Status', 'Change'];
    if (!canChangeConfigs) {
      return table('Share configs: value and where it comes from', headers,
        g.configs.map((c) => configRow(c, false)), { id: 'configs' });
    }
    const pending = h('span', { id: 'config-pending', 'aria-live': 'polite' });
    const message = h('div', { class: 'form-message', id: 'config-message' });
    const save = h('button', { type: 'submit', id: 'save-configs', disabled: true }, 'Save changes');
    const discard = h('button', { type: 'button', id: 'discard-configs', class: 'secondary', disabled: true,
      onclick: () => { form.reset(); sync(); message.replaceChildren(); } }, 'Discard changes');
    const form = h('form', { id: 'config-form', 'aria-labelledby': 'share-configs-title', novalidate: true },
      table('Share configs: value, where it comes from, and a change', headers,
        g.configs.map((c) => configRow(c, true)), { id: 'configs' }),
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
      for (const row of form.querySelectorAll('tbody tr')) {
        const input = row.querySelector('input[data-config]:not([type=checkbox])');
        const box = row.querySelector('input[type=checkbox][data-config]');
        if (input && box) {
          input.disabled = box.checked;
          if (box.checked) input.value = '';
        }
        const changed = (box && box.checked)
          || (input && !input.disabled && input.value !== '' && input.value !== input.dataset.current);
        row.classList.toggle('changed', Boolean(changed));
      }
      const { set, reset } = changes();
      const count = Object.keys(set).length + reset.length;
      save.disabled = count === 0;
      discard.disabled = count === 0;
      pending.textContent = count === 0 ? '' : `${count} unsaved change${count === 1 ? '' : 's'}`;
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
        await api.changeConfigs(g.groupId, set, reset);
        const said = [...Object.keys(set).map((n) => `${n} set`), ...reset.map((n) => `${n} reset`)];
        announce(`Configs of share group ${g.groupId} saved: ${said.join(', ')}.`);
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
  return h('section', { 'aria-labelledby': 'share-group-title' },
    h('p', {}, h('a', { href: '#/share-groups' }, '← All share groups')),
    h('div', { class: 'title-row' },
      h('h1', { id: 'share-group-title' }, 'Share group ', h('span', { id: 'share-group-id' }, group.groupId)),
      refresh),
    refreshMessage,
    h('div', { class: 'columns' },
      h('div', { class: 'main-column' }, overview),
      h('div', { class: 'side-column' },
        canReset ? h('div', { class: 'card danger-zone', id: 'reset-share-offsets-card' },
          h('h2', {}, 'Reset start offsets'), resetHint, resetMode, resetButton, resetMessage) : null,
        canDelete ? h('div', { class: 'card danger-zone' },
          h('h2', {}, 'Delete'), deleteHint, deleteButton, deleteMessage) : null)),
    h('h2', { id: 'share-configs-title' }, 'Share configs'),
    canChangeConfigs && group.configs ? h('p', { class: 'hint', id: 'configs-hint' }, 'Type a new value or tick '
      + '“Reset” to go back to the brokers’ value, then save: all changes go to the cluster together, and none is '
      + 'applied if one is invalid.') : null,
    configArea,
    dialog.element);
}

function content(g) {
  const members = g.members.map((m) => h('tr', { 'data-member': m.memberId },
    h('th', { scope: 'row', class: 'wrap' }, m.memberId), h('td', {}, m.clientId ?? ''), h('td', {}, m.host ?? ''),
    h('td', { class: 'num member-epoch' }, m.memberEpoch,
      m.memberEpoch < g.assignmentEpoch ? h('span', { class: 'tag' }, 'reconciling') : null),
    h('td', { class: 'wrap member-assignments' }, m.assignments.length ? m.assignments.join(', ') : 'none')));
  return [
    h('dl', { class: 'stats' },
      stat('State', 'share-group-state', stateLabel(g.state)),
      stat('Members', 'share-group-members', g.members.length),
      stat('Group epoch', 'share-group-epoch', g.groupEpoch),
      stat('Assignment epoch', 'share-group-assignment-epoch', g.assignmentEpoch),
      stat('Coordinator', 'share-group-coordinator', g.coordinator ?? '–'),
      stat('Lag', 'share-group-lag', g.lag ?? '–')),
    h('h2', {}, 'Members'),
    members.length ? table('Members and their assigned partitions', ['Member id', 'Client id', 'Host', 'Member epoch',
      'Assigned partitions'], members, { id: 'share-members' })
      : h('p', { class: 'empty', id: 'no-share-members' }, 'No members: the group is empty.'),
    h('h2', {}, 'Partitions'),
    partitions(g),
  ];
}

function partitions(g) {
  if (!g.partitions) {
    return h('p', { class: 'hint', id: 'share-partitions-unavailable' }, 'Not available: ',
      g.partitionsError || 'the brokers gave no offsets', '.');
  }
  if (g.partitions.length === 0) return h('p', { class: 'empty', id: 'no-share-partitions' }, 'No partition state yet.');
  return h('div', {},
    h('p', { class: 'hint', id: 'share-partitions-hint' }, 'Lag: records from the start offset on that are neither '
      + 'acknowledged nor archived. In flight, archived and lock expiries come from the partition leader’s metrics '
      + 'and count since the leader loaded the partition’s share state.'),
    table('Partitions of the share group', ['Topic', 'Partition', 'Start offset', 'Lag', 'In flight',
      sinceLoaded('Archived: rejected'), sinceLoaded('Archived: delivery limit'), sinceLoaded('Lock expiries')],
    g.partitions.map((p) => h('tr', { 'data-partition': `${p.topic}-${p.partition}` },
      h('th', { scope: 'row' }, p.topic), h('td', { class: 'num' }, p.partition),
      h('td', { class: 'num share-start-offset' }, p.startOffset), h('td', { class: 'num share-lag' }, p.lag ?? '–'),
      meter(p, 'inFlight', 'share-in-flight'), meter(p, 'archivedRejected', 'share-archived-rejected'),
      meter(p, 'archivedDeliveryLimit', 'share-archived-delivery-limit'), meter(p, 'lockExpiries', 'share-lock-expiries'))),
    { id: 'share-partitions' }));
}

/** A column heading over a count the partition leader keeps since it loaded the share state. */
function sinceLoaded(label) {
  return [label, h('br'), h('small', { class: 'since-loaded' }, 'since the leader loaded it')];
}

/** A cell of one of the leader's meters; "—" with the reason as tooltip when it could not be read. */
function meter(p, name, cls) {
  if (p[name] != null) return h('td', { class: `num ${cls}` }, p[name]);
  const why = `Unknown: ${p.metricsNote || 'no broker reports it'}`;
  return h('td', { class: `num ${cls}`, title: why }, h('span', { 'aria-hidden': 'true' }, '—'),
    h('span', { class: 'visually-hidden' }, why));
}

function configRow(c, editable) {
  const tags = [c.overridden ? h('span', { class: 'tag overridden' }, 'overridden')
    : c.isDefault ? h('span', { class: 'tag' }, 'default') : h('span', { class: 'tag' }, 'inherited'),
  c.readOnly ? h('span', { class: 'tag' }, 'read-only') : null];
  let change;
  if (c.readOnly) {
    change = h('span', { class: 'empty' }, 'Cannot be changed');
  } else if (!editable) {
    change = h('span', { class: 'empty' }, 'Not yours to change (needs ALTER_CONFIGS)');
  } else {
    const input = h('input', { type: 'text', 'data-config': c.name, 'data-current': c.value ?? '',
      autocomplete: 'off', spellcheck: 'false', placeholder: 'New value', 'aria-label': `New value of ${c.name}` });
    const reset = c.overridden ? h('label', { class: 'reset' },
      h('input', { type: 'checkbox', 'data-config': c.name }),
      ' Reset', h('span', { class: 'visually-hidden' }, ` ${c.name} to the brokers’ value`)) : null;
    change = h('div', { class: 'change' }, input, reset);
  }
  return h('tr', { 'data-config-row': c.name },
    h('th', { scope: 'row' }, c.name),
    h('td', { class: 'value' }, c.value ?? ''),
    h('td', {}, sourceLabel(c.source)),
    h('td', { class: 'tags' }, tags),
    h('td', { class: 'change-cell' }, change));
}

/** DYNAMIC_GROUP_CONFIG → "This group"; unknown sources as given. */
function sourceLabel(source) {
  const labels = {
    DYNAMIC_GROUP_CONFIG: 'This group',
    DYNAMIC_BROKER_CONFIG: 'Broker (dynamic)',
    DYNAMIC_DEFAULT_BROKER_CONFIG: 'Cluster default (dynamic)',
    STATIC_BROKER_CONFIG: 'Broker config file',
    DEFAULT_CONFIG: 'Kafka default',
  };
  return source ? h('span', { title: source }, labels[source] ?? source) : '';
}

function stat(label, id, value) {
  return h('div', { class: 'stat' }, h('dt', {}, label), h('dd', { id }, value));
}
