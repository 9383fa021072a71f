// Brokers: each broker with its address, rack, whether it is the controller, the partitions it leads and
// the replicas it holds, its under-replicated partitions (those it leads whose ISR is short) and the size
// of its log directories.
import { errorBox, h, latestOnly, table } from '../dom.js';
import { humanBytes } from './topic-detail.js';
import * as api from './brokers-api.js';

/** Builds the brokers page. */
export async function render() {
  document.title = 'Brokers · Tributary admin';
  api.loadStyles();
  const area = h('div', { id: 'brokers-area', 'aria-live': 'polite' });
  const load = latestOnly({
    start: () => area.setAttribute('aria-busy', 'true'),
    fetch: api.brokers,
    ok: (list) => area.replaceChildren(content(list)),
    fail: (e) => area.replaceChildren(errorBox(e)),
    end: () => area.removeAttribute('aria-busy'),
  });
  await load();
  const refresh = h('button', { type: 'button', id: 'brokers-refresh', class: 'secondary', onclick: load }, 'Refresh');
  return h('section', { 'aria-labelledby': 'brokers-title' },
    h('div', { class: 'title-row' }, h('h1', { id: 'brokers-title' }, 'Brokers'), refresh),
    h('p', {}, h('a', { href: '#/reassignments', id: 'reassignments-link' }, 'Partition reassignments')),
    area);
}

function content(list) {
  if (list.brokers.length === 0) return h('p', { class: 'empty' }, 'No broker is registered.');
  const rows = list.brokers.map((b) => h('tr', { 'data-broker-row': b.id },
    h('th', { scope: 'row', class: 'num' }, h('a', { href: `#/brokers/${b.id}` }, b.id)),
    h('td', {}, `${b.host ?? '?'}:${b.port ?? '?'}`),
    h('td', {}, b.rack ?? '—'),
    h('td', { class: 'broker-controller' }, b.controller ? h('span', { class: 'tag' }, 'Controller') : ''),
    h('td', { class: 'num broker-leaders' }, b.leaderPartitions),
    h('td', { class: 'num broker-replicas' }, b.replicas),
    h('td', { class: b.underReplicated ? 'num warn broker-urp' : 'num broker-urp' }, b.underReplicated),
    h('td', { class: b.logDirErrors ? 'num warn broker-size' : 'num broker-size', 'data-bytes': b.logDirBytes,
      title: b.logDirProblem ?? (b.logDirErrors ? `${b.logDirErrors} log directories failed` : null) },
    b.logDirBytes == null ? '—' : humanBytes(b.logDirBytes),
    b.logDirErrors ? ` (${b.logDirErrors} failed)` : '')));
  return table('Brokers', ['Id', 'Host:port', 'Rack', 'Role', 'Leader of', 'Replicas', 'Under-replicated (led)',
    'Log dirs size'], rows, { id: 'broker-list' });
}
