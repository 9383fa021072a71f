// Transactions: what the coordinators know (ongoing first), and the open transactions on partitions,
// with the hanging ones (no coordinator holds them; they hold the partition's last stable offset back,
// so read_committed consumers stop there) flagged and abortable, as kafka-transactions abort does.
import { announce, errorBox, h, latestOnly, table } from '../dom.js';
import { request } from '../api.js';
import { confirmDialog } from './groups-api.js';

const overview = () => request('GET', '/api/transactions');
const abort = (body) => request('POST', '/api/transactions/abort', body);

/** 1234567 ms → "20 min 34 s". */
export function age(ms) {
  if (ms === null || ms === undefined) return '–';
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const hours = Math.floor(m / 60);
  return hours < 48 ? `${hours} h ${m % 60} min` : `${Math.floor(hours / 24)} days`;
}

/** Builds the transactions page. */
export async function render() {
  document.title = 'Transactions · Tributary admin';
  const dialog = confirmDialog();
  const area = h('div', { id: 'transactions-area', 'aria-live': 'polite' });
  const actionMessage = h('div', { class: 'form-message' });

  const load = latestOnly({
    start() {
      area.setAttribute('aria-busy', 'true');
      if (!area.hasChildNodes()) area.replaceChildren(h('p', { class: 'loading' }, 'Loading transactions…'));
    },
    fetch: overview,
    ok: (result) => area.replaceChildren(...content(result)),
    fail: (e) => area.replaceChildren(errorBox(e)),
    end: () => area.removeAttribute('aria-busy'),
  });

  async function askAbort(t) {
    actionMessage.replaceChildren();
    const what = t.hanging ? 'This transaction is hanging: no coordinator holds it.'
      : `Transactional id “${t.transactionalId}” still holds it; its producer will see its transaction fail.`;
    if (!(await dialog.ask('Abort open transaction?', `An abort marker will be written on ${t.topic}-${t.partition} `
        + `for producer ${t.producerId} (open since offset ${t.startOffset}). ${what} Its records will be skipped by `
        + 'read_committed consumers. This cannot be undone.', 'Abort'))) return;
    announce(`Aborting the transaction on ${t.topic}-${t.partition}…`);
    try {
      await abort({ topic: t.topic, partition: t.partition, startOffset: t.startOffset, producerId: t.producerId });
      announce(`Transaction of producer ${t.producerId} on ${t.topic}-${t.partition} aborted.`);
      load();
    } catch (e) {
      announce('');
      actionMessage.replaceChildren(errorBox(e));
    }
  }

  function content(result) {
    const summary = h('p', { id: 'transactions-summary' },
      `${result.transactions.length} ${result.transactions.length === 1 ? 'transactional id' : 'transactional ids'}, `
      + `${result.open.length} open ${result.open.length === 1 ? 'transaction' : 'transactions'} on partitions`,
      result.hanging ? h('strong', { class: 'hanging' }, `, ${result.hanging} hanging`) : '', '.');
    const transactions = result.transactions.length === 0
      ? h('p', { class: 'empty' }, 'No transactional ids are known to the coordinators.')
      : table('Transactions', ['Transactional id', 'State', 'Producer id', 'Epoch', 'Partitions', 'Age', 'Timeout'],
        result.transactions.map((t) => h('tr', { 'data-transaction': t.id },
          h('th', { scope: 'row', class: 'wrap' }, t.id),
          h('td', { class: 'txn-state' }, t.state),
          h('td', { class: 'num' }, t.producerId),
          h('td', { class: 'num' }, t.producerEpoch),
          h('td', { class: 'wrap txn-partitions' }, t.partitions.length ? t.partitions.join(', ') : '–'),
          h('td', { class: 'num' }, age(t.ageMs)),
          h('td', { class: 'num' }, age(t.timeoutMs)))), { id: 'transactions' });
    const open = result.open.length === 0
      ? h('p', { class: 'empty', id: 'no-open-transactions' }, 'No partition has an open transaction.')
      : table('Open transactions on partitions',
        ['Partition', 'Producer id', 'Epoch', 'Open since offset', 'Last write', 'Held by', 'Action'],
        result.open.map((t) => h('tr', { 'data-open': `${t.topic}-${t.partition}-${t.producerId}`,
          class: t.hanging ? 'hanging' : null },
        h('th', { scope: 'row' }, `${t.topic}-${t.partition}`),
        h('td', { class: 'num' }, t.producerId),
        h('td', { class: 'num' }, t.producerEpoch),
        h('td', { class: 'num' }, t.startOffset),
        h('td', { class: 'num' }, `${age(t.ageMs)} ago`),
        h('td', { class: 'wrap' }, t.hanging ? h('span', { class: 'tag hanging' }, 'Hanging') : t.transactionalId),
        h('td', {}, h('button', { type: 'button', class: t.hanging ? 'danger' : 'secondary',
          'data-abort': `${t.topic}-${t.partition}-${t.producerId}`, onclick: () => askAbort(t) }, 'Abort')))),
        { id: 'open-transactions' });
    return [summary, h('h2', {}, 'Transactional ids'), transactions,
      h('h2', {}, 'Open transactions on partitions'),
      h('p', { class: 'hint' }, 'A hanging transaction is open on a partition but held by no coordinator: it keeps the '
        + 'partition’s last stable offset back, so read_committed consumers wait, until it is aborted.'),
      open];
  }

  const refresh = h('button', { type: 'button', id: 'transactions-refresh', class: 'secondary',
    onclick: () => { actionMessage.replaceChildren(); load(); } }, 'Refresh');
  load();
  return h('section', { 'aria-labelledby': 'transactions-title' },
    h('div', { class: 'title-row' }, h('h1', { id: 'transactions-title' }, 'Transactions'), refresh),
    actionMessage, area, dialog.element);
}
