// Calls of the Brokers and Reassignments pages to the admin UI's API, and labels they share.
import { request } from '../api.js';
import { h } from '../dom.js';

const enc = encodeURIComponent;

/** The brokers with their partition counts and log directory sizes. */
export const brokers = () => request('GET', '/api/brokers');

/** A broker's configs, cluster-wide defaults, log directories and partitions. */
export const broker = (id) => request('GET', `/api/brokers/${enc(id)}`);

/** Sets and removes dynamic configs of one broker (id), or cluster-wide (id null). */
export const changeConfigs = (id, set, reset) => request('PUT',
  id == null ? '/api/broker-defaults/configs' : `/api/brokers/${enc(id)}/configs`, { set, reset });

/** The ongoing reassignments and the broker ids. */
export const reassignments = () => request('GET', '/api/reassignments');

/** Starts moves: [{ topic, partition, replicas }], throttle in bytes/s or null. */
export const startReassignment = (partitions, throttle) =>
  request('POST', '/api/reassignments', { partitions, throttle });

/** Cancels a partition's reassignment. */
export const cancelReassignment = (topic, partition) =>
  request('DELETE', `/api/reassignments/${enc(topic)}/${enc(partition)}`);

/** Adds the pages' stylesheet once. */
export function loadStyles() {
  if (document.getElementById('brokers-css')) return;
  document.head.append(h('link', { id: 'brokers-css', rel: 'stylesheet', href: 'css/brokers.css' }));
}

/** Kafka's config source as words, with Kafka's name as tooltip. */
export function sourceLabel(source) {
  const labels = {
    DYNAMIC_BROKER_CONFIG: 'This broker (dynamic)',
    DYNAMIC_DEFAULT_BROKER_CONFIG: 'Cluster-wide default (dynamic)',
    STATIC_BROKER_CONFIG: 'Broker config file',
    DEFAULT_CONFIG: 'Kafka default',
  };
  return source ? h('span', { class: 'config-source', 'data-source': source, title: source },
    labels[source] ?? source) : '';
}
