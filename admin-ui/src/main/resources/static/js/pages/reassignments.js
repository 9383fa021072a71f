// Reassignments: the ongoing partition moves with how far each new replica is (its bytes on disk against
// the leader's, and whether it joined the ISR), each cancellable; and a form that moves every partition of
// a topic to chosen brokers: it shows the plan (editable per partition) before starting it, optionally
// throttled as kafka-reassign-partitions --throttle does. Moves started here are followed until done.
import { announce, errorBox, h, ids, latestOnly, table } from '../dom.js';
import { request } from '../api.js';
import { allows, session } from '../session.js';
import { humanBytes } from './topic-detail.js';
import { confirmDialog } from './groups-api.js';
import * as api from './brokers-api.js';

/** Partitions started from this page ("topic-partition" → { topic, partition, replicas }), followed until done. */
const started = new Map();

/**
 * The plan of moving every partition to `brokers`, keeping `replicationFactor` replicas each: partition i
 * takes the brokers from position i on (wrapping), so leaders spread over them.
 */
export function plan(partitions, brokers, replicationFactor) {
  const count = Math.min(replicationFactor, brokers.length);
  return partitions.map((p, i) => ({
    partition: p.partition,
    current: p.replicas,
    replicas: Array.from({ length: count }, (_, k) => brokers[(i + k) % brokers.length]),
  }));
}

/** Builds the reassignments page. */
export async function render() {
  document.title = 'Reassignments · Tributary admin';
  api.loadStyles();
  const { clusterOperations } = await session();
  const canAlter = allows(clusterOperations, 'ALTER');
  const dialog = confirmDialog();
  const area = h('div', { id: 'reassignments-area', 'aria-live': 'polite' });
  const doneArea = h('div', { id: 'reassignments-done' });
  const actionMessage = h('div', { class: 'form-message' });
  let brokers = [];
  let timer = null;

  const load = latestOnly({
    start: () => area.setAttribute('aria-busy', 'true'),
    fetch: api.reassignments,
    ok: (result) => {
      brokers = result.brokers;
      area.replaceChildren(ongoing(result.reassignments));
      follow(result.reassignments);
      form.brokers(brokers);
    },
    fail: (e) => area.replaceChildren(errorBox(e)),
    end: () => area.removeAttribute('aria-busy'),
  });

  function schedule(again) {
    clearTimeout(timer);
    if (again && area.isConnected !== false) {
      timer = setTimeout(() => { if (area.isConnected) load(); }, 2000);
    }
  }

  /**
   * Moves started here that are no longer ongoing: shows their replicas now, read again on every load until
   * they are the ones asked for, or those before the move when it was cancelled (the brokers' metadata may lag
   * the end of the move by a moment).
   */
  async function follow(list) {
    const ongoingKeys = new Set(list.map((r) => `${r.topic}-${r.partition}`));
    const finished = [...started.values()].filter((s) => !ongoingKeys.has(`${s.topic}-${s.partition}`));
    const settled = (s) => Boolean(s.now) && ids(s.now) === ids(s.cancelled ? s.before : s.replicas);
    for (const topic of new Set(finished.filter((s) => !settled(s)).map((s) => s.topic))) {
      try {
        const detail = await request('GET', `/api/topics/${encodeURIComponent(topic)}`);
        for (const p of detail.partitions) {
          const s = started.get(`${topic}-${p.partition}`);
          if (s && !ongoingKeys.has(`${topic}-${p.partition}`)) s.now = p.replicas;
        }
      } catch (e) {
        // read again on the next load
      }
    }
    schedule(list.length > 0 || finished.some((s) => !settled(s)));
    const rows = finished.filter((s) => s.now);
    doneArea.replaceChildren(rows.length === 0 ? '' : table('Moves started here that are no longer in progress',
      ['Partition', 'Asked for', 'Replicas now', 'Outcome'], rows.map((s) => h('tr', {
        'data-finished': `${s.topic}-${s.partition}` },
      h('th', { scope: 'row' }, `${s.topic}-${s.partition}`), h('td', {}, ids(s.replicas)),
      h('td', { class: 'replicas-now' }, ids(s.now)),
      h('td', { class: 'outcome' }, settled(s) ? (s.cancelled ? 'Cancelled' : 'Done') : 'Finishing…')))));
  }

  function ongoing(list) {
    if (list.length === 0) return h('p', { class: 'empty', id: 'no-reassignments' }, 'No reassignment is in progress.');
    return table('Ongoing reassignments', ['Partition', 'Target replicas', 'Adding', 'Removing', 'New replicas',
      'Action'], list.map((r) => h('tr', { 'data-reassignment': `${r.topic}-${r.partition}` },
      h('th', { scope: 'row' }, `${r.topic}-${r.partition}`),
      h('td', { class: 'target' }, ids(r.target)),
      h('td', {}, ids(r.adding)), h('td', {}, ids(r.removing)),
      h('td', {}, (r.progress ?? []).map((p) => progress(p))),
      h('td', {}, canAlter ? h('button', { type: 'button', class: 'secondary',
        'data-cancel': `${r.topic}-${r.partition}`, onclick: () => cancel(r) }, 'Cancel') : ''))),
    { id: 'reassignments' });
  }

  function progress(p) {
    const known = p.sizeBytes != null && p.leaderSizeBytes != null;
    const label = `Broker ${p.brokerId}: ${p.inSync ? 'in sync' : known
      ? `${humanBytes(p.sizeBytes)} of ${humanBytes(p.leaderSizeBytes)}` : 'copying'}`;
    return h('div', { class: 'replica-progress', 'data-broker': p.brokerId },
      h('span', {}, label), ' ',
      known ? h('progress', { max: Math.max(1, p.leaderSizeBytes), value: p.inSync ? p.leaderSizeBytes
        : Math.min(p.sizeBytes, p.leaderSizeBytes), 'aria-label': label }) : null);
  }

  async function cancel(r) {
    actionMessage.replaceChildren();
    if (!(await dialog.ask('Cancel reassignment?', `${r.topic}-${r.partition} goes back to its replicas before the `
        + 'move; what the new replicas copied is dropped.', 'Cancel reassignment'))) return;
    try {
      await api.cancelReassignment(r.topic, r.partition);
      const s = started.get(`${r.topic}-${r.partition}`);
      if (s) s.cancelled = true;
      announce(`Reassignment of ${r.topic}-${r.partition} cancelled.`);
      load();
    } catch (e) {
      actionMessage.replaceChildren(errorBox(e));
    }
  }

  const form = moveForm(async (moves, throttle) => {
    await api.startReassignment(moves.map(({ topic, partition, replicas }) => ({ topic, partition, replicas })),
      throttle);
    for (const m of moves) started.set(`${m.topic}-${m.partition}`, { ...m });
    announce(`Moving ${moves.length} partition${moves.length === 1 ? '' : 's'}.`);
    load();
  });

  await load();
  const refresh = h('button', { type: 'button', id: 'reassignments-refresh', class: 'secondary', onclick: load },
    'Refresh');
  return h('section', { 'aria-labelledby': 'reassignments-title' },
    h('div', { class: 'title-row' }, h('h1', { id: 'reassignments-title' }, 'Reassignments'), refresh),
    actionMessage, area, doneArea,
    canAlter ? form.element : h('p', { class: 'hint' }, 'Moving partitions needs ALTER on the cluster.'),
    dialog.element);
}

/** The "move a topic" form: topic, target brokers, optional throttle; shows the plan, then starts it. */
function moveForm(submit) {
  const topic = h('input', { type: 'text', id: 'move-topic', required: true, autocomplete: 'off', spellcheck: 'false' });
  const brokerBoxes = h('div', { id: 'move-brokers', class: 'checkboxes' });
  const throttle = h('input', { type: 'number', id: 'move-throttle', min: 1, step: 1, placeholder: 'none' });
  const planArea = h('div', { id: 'move-plan-area' });
  const message = h('div', { class: 'form-message', id: 'move-message' });
  let current = null;

  const showPlan = h('button', { type: 'button', id: 'move-plan', class: 'secondary', onclick: async () => {
    message.replaceChildren();
    planArea.replaceChildren();
    const chosen = [...brokerBoxes.querySelectorAll('input:checked')].map((b) => Number(b.value));
    if (!topic.value.trim() || chosen.length === 0) {
      message.replaceChildren(errorBox(new Error('Give a topic and at least one broker.')));
      return;
    }
    try {
      const detail = await request('GET', `/api/topics/${encodeURIComponent(topic.value.trim())}`);
      const factor = detail.partitions.length ? detail.partitions[0].replicas.length : 1;
      current = { topic: detail.name, rows: plan(detail.partitions, chosen, factor) };
      planArea.replaceChildren(planTable(current), h('button', { type: 'submit', id: 'move-start' }, 'Start move'));
    } catch (e) {
      message.replaceChildren(errorBox(e));
    }
  } }, 'Show plan');

  function planTable(p) {
    return table(`Plan for ${p.topic}`, ['Partition', 'Replicas now', 'New replicas (broker ids, leader first)'],
      p.rows.map((r) => h('tr', { 'data-plan': r.partition },
        h('th', { scope: 'row', class: 'num' }, r.partition), h('td', {}, ids(r.current)),
        h('td', {}, h('input', { type: 'text', 'data-plan-partition': r.partition, value: r.replicas.join(', '),
          'aria-label': `New replicas of partition ${r.partition}` })))), { id: 'move-plan-table' });
  }

  const element = h('form', { id: 'move-form', 'aria-labelledby': 'move-title', novalidate: true },
    h('h2', { id: 'move-title' }, 'Move a topic’s partitions'),
    h('p', { class: 'hint' }, 'Pick the brokers every partition should live on; the plan keeps each partition’s '
      + 'replica count and spreads leaders. Edit any partition’s replicas in the plan before starting. A throttle '
      + 'limits the copy to that many bytes per second per broker (cleared when the move ends or is cancelled).'),
    h('label', { for: 'move-topic' }, 'Topic'), topic,
    h('fieldset', {}, h('legend', {}, 'Target brokers'), brokerBoxes),
    h('label', { for: 'move-throttle' }, 'Throttle (bytes/s, optional)'), throttle,
    h('div', {}, showPlan), planArea, message);

  element.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!current) return;
    message.replaceChildren();
    const moves = [];
    for (const input of element.querySelectorAll('input[data-plan-partition]')) {
      const replicas = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
      const row = current.rows.find((r) => r.partition === Number(input.dataset.planPartition));
      if (ids(replicas) !== ids(row.current)) {
        moves.push({ topic: current.topic, partition: row.partition, replicas, before: row.current });
      }
    }
    if (moves.length === 0) {
      message.replaceChildren(errorBox(new Error('The plan changes no partition.')));
      return;
    }
    try {
      await submit(moves, throttle.value ? Number(throttle.value) : null);
      planArea.replaceChildren();
      current = null;
      message.replaceChildren(h('p', { class: 'ok', role: 'status', id: 'move-started' },
        `Started moving ${moves.length} partition${moves.length === 1 ? '' : 's'}.`));
    } catch (err) {
      message.replaceChildren(errorBox(err));
    }
  });

  return {
    element,
    brokers(list) {
      const checked = new Set([...brokerBoxes.querySelectorAll('input:checked')].map((b) => Number(b.value)));
      brokerBoxes.replaceChildren(...list.map((b) => h('label', {}, h('input', { type: 'checkbox', value: b,
        id: `move-broker-${b}`, checked: checked.has(b) }), ` Broker ${b} `)));
    },
  };
}
