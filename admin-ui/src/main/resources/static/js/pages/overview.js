// Cluster overview: id, controller, brokers, topic and partition counts, throughput chart.
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
  const brokers = c.brokers.map((b) => h('tr', {},
    h('td', { class: 'num' }, b.id), h('td', {}, b.host), h('td', { class: 'num' }, b.port ?? '—'),
    h('td', {}, b.rack ?? '—'), h('td', {}, b.id === c.controllerId ? 'yes' : '')));
  return h('section', { 'aria-labelledby': 'overview-title' },
    h('h1', { id: 'overview-title' }, 'Cluster overview'),
    h('dl', { class: 'stats' },
      stat('Cluster id', c.clusterId, 'cluster-id'),
      stat('Controller', c.controllerId ?? 'none', 'controller-id', c.controllerId == null),
      stat('Brokers', c.brokers.length, 'broker-count'),
      stat('Topics', c.topics, 'topic-count'),
      stat('Partitions', c.partitions, 'partition-count'),
      stat('Under-replicated partitions', c.underReplicatedPartitions, 'urp-count', c.underReplicatedPartitions > 0),
      stat('Offline partitions', c.offlinePartitions, 'offline-count', c.offlinePartitions > 0)),
    throughputSection(),
    h('h2', {}, 'Brokers'),
    table('Brokers', ['Id', 'Host', 'Port', 'Rack', 'Controller'], brokers, { id: 'brokers' }));
}
