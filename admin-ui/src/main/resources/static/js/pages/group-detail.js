// Consumer group detail: state, coordinator, members, per-partition offsets and lag, refreshed every 5 s
// unless paused, with a chart of the total lag since the page opened; offset reset (four modes) and
// deletion, both behind a confirmation dialog and only possible while the group is empty.
import { announce, errorBox, h, latestOnly, table } from '../dom.js';
import * as api from './groups-api.js';
import { lagChart } from './lag-chart.js';
import { autoRefresh } from './refresh.js';

const MODES = [
  { value: 'earliest', label: 'Earliest offset' },
  { value: 'latest', label: 'Latest offset (skip everything)' },
  { value: 'offset', label: 'A specific offset' },
  { value: 'timestamp', label: 'A point in time' },
];

/** Builds the page of group params[0]. */
export async function render([id]) {
  let group = await api.group(id);
  document.title = `${group.id} · Consumer groups · Tributary admin`;
  const dialog = api.confirmDialog();
  const overview = h('div', { id: 'group-overview', 'aria-live': 'polite' });
  const refreshMessage = h('div', { class: 'form-message' });
  // A refresh clears the outcome of earlier actions: it may no longer hold.
  const refresh = h('button', { type: 'button', id: 'group-refresh', class: 'secondary',
    onclick: () => { reset.clear(); deleteMessage.replaceChildren(); reload(); } }, 'Refresh');
  const reset = resetForm();
  const deleteButton = h('button', { type: 'button', id: 'delete-group', class: 'danger', onclick: () => askDelete() },
    'Delete group');
  const deleteMessage = h('div', { class: 'form-message' });

  const chart = lagChart();

  function show() {
    overview.replaceChildren(...content(group));
    chart.add(group.totalLag);
    overview.querySelector('.stats').after(h('h2', {}, 'Total lag since this page opened'), chart.element);
    reset.update(group);
    deleteButton.setAttribute('aria-describedby', 'delete-hint');
  }

  // Only the latest reload's answer is shown (a reset's reload and a Refresh may overlap).
  const reload = latestOnly({
    start() {
      refresh.textContent = 'Refreshing…';
      overview.setAttribute('aria-busy', 'true');
      refreshMessage.replaceChildren();
    },
    fetch: () => api.group(id),
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
    if (!(await dialog.ask('Delete consumer group?', `Consumer group “${group.id}” and its committed offsets will be `
        + 'deleted. This cannot be undone.', 'Delete'))) return;
    deleteButton.disabled = true;
    announce(`Deleting consumer group ${group.id}…`);
    try {
      await api.deleteGroup(group.id);
      // The router clears the status line on navigation: say it once the list page is on its way.
      window.addEventListener('hashchange', () => announce(`Consumer group ${group.id} deleted.`), { once: true });
      location.hash = '#/groups';
    } catch (e) {
      announce('');
      deleteMessage.replaceChildren(errorBox(e));
    } finally {
      deleteButton.disabled = false;
    }
  }

  function resetForm() {
    const radios = MODES.map((m) => h('div', { class: 'choice' },
      h('input', { type: 'radio', name: 'mode', id: `reset-${m.value}`, value: m.value, checked: m.value === 'earliest',
        onchange: () => sync() }),
      h('label', { for: `reset-${m.value}` }, m.label)));
    const offset = h('input', { id: 'reset-offset-value', type: 'number', min: '0', step: '1', inputmode: 'numeric',
      'aria-describedby': 'reset-offset-value-hint' });
    const time = h('input', { id: 'reset-time', type: 'datetime-local', step: '1',
      'aria-describedby': 'reset-time-hint' });
    const topic = h('select', { id: 'reset-topic', name: 'topic' });
    const message = h('div', { class: 'form-message' });
    const submit = h('button', { type: 'submit', id: 'reset-submit' }, 'Reset offsets');
    const hint = h('p', { id: 'reset-hint', class: 'hint' });
    const offsetField = h('div', { class: 'field' }, h('label', { for: 'reset-offset-value' }, 'Offset'), offset,
      h('small', { id: 'reset-offset-value-hint' }, 'For every partition; moved into each partition’s range'));
    const timeField = h('div', { class: 'field' }, h('label', { for: 'reset-time' }, 'Time (your time zone)'),
      time, h('small', { id: 'reset-time-hint' }, 'Each partition goes to its first record at or after it'));
    const form = h('form', { class: 'card', id: 'reset-form', 'aria-labelledby': 'reset-title',
      'aria-describedby': 'reset-hint' },
      h('h2', { id: 'reset-title' }, 'Reset offsets'), hint,
      h('fieldset', {}, h('legend', {}, 'Reset to'), radios),
      offsetField, timeField,
      h('div', { class: 'field' }, h('label', { for: 'reset-topic' }, 'Topics'), topic),
      submit, message);

    const mode = () => form.querySelector('input[name=mode]:checked').value;
    function sync() {
      offsetField.hidden = mode() !== 'offset';
      timeField.hidden = mode() !== 'timestamp';
      offset.required = mode() === 'offset';
      time.required = mode() === 'timestamp';
    }
    sync();

    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      message.replaceChildren();
      const body = { mode: mode(), topic: topic.value || null };
      let target = MODES.find((m) => m.value === body.mode).label.toLowerCase();
      if (body.mode === 'offset') {
        if (offset.value === '' || Number(offset.value) < 0) {
          message.replaceChildren(errorBox(new Error('Enter an offset of 0 or more.')));
          offset.focus();
          return;
        }
        body.offset = Number(offset.value);
        target = `offset ${body.offset}`;
      } else if (body.mode === 'timestamp') {
        const ms = new Date(time.value).getTime();
        if (!time.value || Number.isNaN(ms)) {
          message.replaceChildren(errorBox(new Error('Enter a date and time.')));
          time.focus();
          return;
        }
        body.timestamp = ms;
        target = `the first records at or after ${new Date(ms).toLocaleString()}`;
      }
      const scope = body.topic ? `topic “${body.topic}”` : 'every topic of the group';
      if (!(await dialog.ask('Reset offsets?', `The committed offsets of group “${group.id}” for ${scope} will be `
          + `set to ${target}. Its consumers will continue from there.`, 'Reset offsets'))) return;
      submit.disabled = true;
      submit.textContent = 'Resetting…';
      try {
        const result = await api.resetOffsets(group.id, body);
        const count = result.offsets.length;
        message.replaceChildren(h('p', { class: 'ok', role: 'status', id: 'reset-done' },
          `Offsets of ${count} partition${count === 1 ? '' : 's'} reset.`));
        await reload();
      } catch (err) {
        message.replaceChildren(errorBox(err));
      } finally {
        submit.disabled = false;
        submit.textContent = 'Reset offsets';
      }
    });

    return {
      element: form,
      clear() {
        message.replaceChildren();
      },
      update(g) {
        const chosen = topic.value;
        const topics = [...new Set(g.partitions.map((p) => p.topic))];
        topic.replaceChildren(h('option', { value: '' }, 'All topics of the group'),
          ...topics.map((t) => h('option', { value: t, selected: t === chosen }, t)));
        hint.textContent = g.state === 'EMPTY' ? 'The group is empty: its offsets can be reset.'
          : `Only possible while the group has no members (now ${api.stateLabel(g.state).toLowerCase()}, `
            + `${g.members.length} member${g.members.length === 1 ? '' : 's'}).`;
      },
    };
  }

  show();
  let section;
  const pause = autoRefresh('group-auto-refresh', reload, () => section);
  section = h('section', { 'aria-labelledby': 'group-title' },
    h('p', {}, h('a', { href: '#/groups' }, '← All consumer groups')),
    h('div', { class: 'title-row' },
      h('h1', { id: 'group-title' }, 'Consumer group ', h('span', { id: 'group-id' }, group.id)),
      h('div', { class: 'title-actions' }, refresh, ' ', pause)),
    refreshMessage,
    h('div', { class: 'columns' },
      h('div', { class: 'main-column' }, overview),
      h('div', { class: 'side-column' }, reset.element,
        h('div', { class: 'card danger-zone' },
          h('h2', {}, 'Delete'),
          h('p', { id: 'delete-hint', class: 'hint' }, 'Deletes the group and its committed offsets; only possible '
            + 'while it has no members.'),
          deleteButton, deleteMessage))),
    dialog.element);
  return section;
}

function content(g) {
  const members = g.members.map((m) => h('tr', { 'data-member': m.consumerId },
    h('th', { scope: 'row', class: 'wrap' }, m.consumerId), h('td', {}, m.clientId ?? ''), h('td', {}, m.host ?? ''),
    h('td', { class: 'wrap' }, m.assignments.join(', '))));
  const partitions = g.partitions.map((p) => h('tr', { 'data-partition': `${p.topic}-${p.partition}` },
    h('th', { scope: 'row' }, p.topic), h('td', { class: 'num' }, p.partition),
    h('td', { class: 'num' }, p.committedOffset ?? 'none'), h('td', { class: 'num' }, p.endOffset),
    h('td', { class: p.lag > 0 ? 'num lagging' : 'num' }, p.lag),
    h('td', { class: 'wrap' }, p.owner ? `${p.owner}${p.ownerClientId ? ` (${p.ownerClientId})` : ''}` : '–')));
  return [
    h('dl', { class: 'stats' },
      stat('State', 'group-state', api.stateLabel(g.state)),
      stat('Members', 'group-members', g.members.length),
      stat('Total lag', 'group-lag', g.totalLag),
      stat('Assignor', 'group-assignor', g.partitionAssignor || '–'),
      stat('Coordinator', 'group-coordinator', g.coordinator ?? '–')),
    h('h2', {}, 'Members'),
    members.length ? table('Members', ['Consumer id', 'Client id', 'Host', 'Assigned partitions'], members,
      { id: 'members' }) : h('p', { class: 'empty', id: 'no-members' }, 'No members: the group is empty.'),
    h('h2', {}, 'Offsets and lag'),
    partitions.length ? table('Committed offset, end offset and lag per partition',
      ['Topic', 'Partition', 'Committed offset', 'End offset', 'Lag', 'Owner'], partitions, { id: 'offsets' })
      : h('p', { class: 'empty' }, 'The group has no committed offsets and no assigned partitions.'),
  ];
}

function stat(label, id, value) {
  return h('div', { class: 'stat' }, h('dt', {}, label), h('dd', { id }, value));
}
