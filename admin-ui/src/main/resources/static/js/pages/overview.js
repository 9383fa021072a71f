// Cluster overview: id, controller, brokers (up, and down ones found in replica assignments), topic and
// partition counts, throughput chart.
import * as api from '../api.js';
import { h, table } from '../dom.js';
import { throughputSection } from './throughput.js';

function stat(label, value, id, warn) {
  return h('div', { class: warn ? 'stat warn' : 'stat' },
    h('dt', {}, label), h('dd', { id }, String(value)));
}

/** Builds the overview page. */
export async function render() {
  const c = await api.cluster();
  document.title = 'Overview · Tributary admin';
  const up = c.brokers.filter((b) => b.status === 'up').length;
  const down = c.brokers.length - up;
  // The status is a word (Up / Down), the colour only repeats it.
  const brokers = c.brokers.map((b) => h('tr', { 'data-broker': b.id, 'data-status': b.status },
    h('td', { class: 'num' }, b.id),
    h('td', { class: b.status === 'down' ? 'broker-status warn' : 'broker-status' },
      b.status === 'down' ? 'Down' : 'Up'),
    h('td', {}, b.host ?? h('span', { class: 'empty' }, 'unknown')), h('td', { class: 'num' }, b.port ?? '—'),
    h('td', {}, b.rack ?? '—'), h('td', {}, b.id === c.controllerId ? 'yes' : '')));
  const unchecked = c.uncheckedTopics > 0
    ? h('p', { id: 'unchecked-topics', class: 'hint table-note' }, `${c.uncheckedTopics} ${c.uncheckedTopics === 1
      ? 'topic' : 'topics'} with under-replicated or offline partitions were not checked for down brokers `
      + '(at most 50 are read per visit), so a down broker may be missing here.')
    : null;
  return h('section', { 'aria-labelledby': 'overview-title' },
    h('h1', { id: 'overview-title' }, 'Cluster overview'),
    h('dl', { class: 'stats' },
      stat('Cluster id', c.clusterId, 'cluster-id'),
      stat('Controller', c.controllerId ?? 'none', 'controller-id', c.controllerId == null),
      stat('Brokers up', up, 'broker-count'),
      stat('Brokers down', down, 'broker-down-count', down > 0),
      stat('Topics', c.internalTopics > 0 ? `${c.topics} (${c.internalTopics} internal)` : c.topics, 'topic-count'),
      stat('Partitions', c.partitions, 'partition-count'),
      stat('Under-replicated partitions', c.underReplicatedPartitions, 'urp-count', c.underReplicatedPartitions > 0),
      stat('Offline partitions', c.offlinePartitions, 'offline-count', c.offlinePartitions > 0)),
    throughputSection(),
    h('h2', {}, 'Brokers'),
    h('p', { class: 'hint' }, 'Down: assigned replicas of some partition but not registered with the cluster.'),
    table('Brokers', ['Id', 'Status', 'Host', 'Port', 'Rack', 'Controller'], brokers, { id: 'brokers' }),
    unchecked);
}
