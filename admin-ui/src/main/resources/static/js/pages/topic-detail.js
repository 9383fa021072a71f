// Topic detail: partitions (leader, replicas, ISR, out of sync, offsets) and configs.
import * as api from '../api.js';
import { h, ids, table } from '../dom.js';

/** Builds the page of topic params[0]. */
export async function render([name]) {
  const t = await api.topic(name);
  document.title = `${t.name} · Tributary admin`;
  const partitions = t.partitions.map((p) => h('tr', { 'data-partition': p.partition },
    h('th', { scope: 'row', class: 'num' }, p.partition),
    h('td', { class: p.leader == null ? 'num warn' : 'num' }, p.leader ?? 'none'),
    h('td', {}, ids(p.replicas)), h('td', {}, ids(p.isr)),
    h('td', { class: p.outOfSync.length ? 'warn' : '' }, ids(p.outOfSync)),
    h('td', { class: 'num' }, p.startOffset), h('td', { class: 'num' }, p.endOffset)));
  const configs = t.configs.map((c) => h('tr', {},
    h('th', { scope: 'row' }, c.name), h('td', { class: 'value' }, c.sensitive ? '(sensitive)' : c.value ?? ''),
    h('td', {}, c.source ?? ''), h('td', {}, c.isDefault ? 'yes' : '')));
  return h('section', { 'aria-labelledby': 'topic-title' },
    h('p', {}, h('a', { href: '#/topics' }, '← All topics')),
    h('h1', { id: 'topic-title' }, 'Topic ', h('span', { id: 'topic-name' }, t.name)),
    h('p', {}, h('a', { id: 'messages-link', href: `#/topics/${encodeURIComponent(t.name)}/messages` }, 'Messages')),
    h('h2', {}, 'Partitions'),
    table('Partitions', ['Partition', 'Leader', 'Replicas', 'ISR', 'Out of sync', 'Start offset', 'End offset'],
      partitions, { id: 'partitions' }),
    h('h2', {}, 'Configs'),
    table('Configs', ['Name', 'Value', 'Source', 'Default'], configs, { id: 'configs' }));
}
