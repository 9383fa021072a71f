// A broker's page: its configs with their sources (synonyms on expand), filterable by name and, for
// dynamic ones, editable for this broker or cluster-wide by users with ALTER_CONFIGS on the cluster; its
// log directories with sizes and errors; the partitions it leads and follows, under-replicated ones
// highlighted and filterable.
import { announce, errorBox, h, ids, latestOnly, table } from '../dom.js';
import { allows, session } from '../session.js';
import { humanBytes } from './topic-detail.js';
import * as api from './brokers-api.js';

/** Builds the page of broker params[0]. */
export async function render([id]) {
  document.title = `Broker ${id} · Tributary admin`;
  api.loadStyles();
  const { clusterOperations } = await session();
  const canAlter = allows(clusterOperations, 'ALTER_CONFIGS');
  const area = h('div', { id: 'broker-area', 'aria-live': 'polite' });
  let scope = 'broker';
  let configFilter = '';
  let urpOnly = false;
  let partitionFilter = '';
  let saved = null;

  const load = latestOnly({
    start: () => area.setAttribute('aria-busy', 'true'),
    fetch: () => api.broker(id),
    ok: (b) => area.replaceChildren(...content(b)),
    fail: (e) => area.replaceChildren(errorBox(e)),
    end: () => area.removeAttribute('aria-busy'),
  });

  function content(b) {
    const r = b.broker;
    const stats = h('dl', { class: 'stats' },
      stat('Address', `${r.host ?? '?'}:${r.port ?? '?'}`, 'broker-address'),
      stat('Rack', r.rack ?? '—', 'broker-rack'),
      stat('Controller', r.controller ? 'yes' : 'no', 'broker-is-controller'),
      stat('Leader of', r.leaderPartitions, 'broker-leader-count'),
      stat('Replicas', r.replicas, 'broker-replica-count'),
      stat('Under-replicated (led)', r.underReplicated, 'broker-urp-count', r.underReplicated > 0),
      stat('Log dirs size', r.logDirBytes == null ? '—' : humanBytes(r.logDirBytes), 'broker-log-size'));
    return [stats, configSection(b), logDirSection(b), partitionSection(b)];
  }

  function stat(label, value, statId, warn) {
    return h('div', { class: warn ? 'stat warn' : 'stat' }, h('dt', {}, label), h('dd', { id: statId }, String(value)));
  }

  function configSection(b) {
    const message = h('div', { id: 'broker-config-message', class: 'form-message' },
      saved ? h('p', { class: 'ok', role: 'status', id: 'broker-configs-saved' }, saved) : null);
    saved = null;
    const filter = h('input', { type: 'search', id: 'broker-config-filter', value: configFilter,
      'aria-label': 'Filter configs by name', placeholder: 'Filter by name' });
    const scopeSelect = canAlter ? h('select', { id: 'broker-config-scope', 'aria-label': 'Changes apply to' },
      h('option', { value: 'broker', selected: scope === 'broker' }, `Broker ${id} only`),
      h('option', { value: 'cluster', selected: scope === 'cluster' }, 'Every broker (cluster-wide default)')) : null;
    const body = h('div', {});
    const save = h('button', { type: 'submit', id: 'save-broker-configs', disabled: true }, 'Save changes');
    const form = h('form', { id: 'broker-config-form', novalidate: true, 'aria-labelledby': 'broker-configs-title' },
      h('div', { class: 'toolbar' }, filter, scopeSelect ? h('label', {}, ' Apply changes to ', scopeSelect) : null),
      body, canAlter ? h('div', { class: 'save-bar' }, save) : null, message);

    function draw() {
      const shown = b.configs.filter((c) => c.name.includes(configFilter.trim()));
      body.replaceChildren(table('Broker configs: value, source, synonyms and a change',
        ['Name', 'Value', 'Source', 'Status', 'Change'], shown.map((c) => configRow(c)), { id: 'broker-configs' }));
      sync();
    }

    function configRow(c) {
      const dynamicHere = scope === 'broker' ? c.source === 'DYNAMIC_BROKER_CONFIG'
        : c.synonyms.some((s) => s.source === 'DYNAMIC_DEFAULT_BROKER_CONFIG');
      const tags = [c.readOnly ? h('span', { class: 'tag' }, 'read-only') : null,
        c.sensitive ? h('span', { class: 'tag' }, 'sensitive') : null,
        c.isDefault ? h('span', { class: 'tag' }, 'default') : null];
      let change;
      if (c.readOnly) change = h('span', { class: 'empty' }, 'Not dynamic');
      else if (!canAlter) change = h('span', { class: 'empty' }, 'Not yours to change (needs ALTER_CONFIGS)');
      else {
        change = h('div', { class: 'change' },
          h('input', { type: c.sensitive ? 'password' : 'text', 'data-config': c.name,
            'data-current': c.sensitive ? '' : c.value ?? '', autocomplete: 'off', spellcheck: 'false',
            placeholder: 'New value', 'aria-label': `New value of ${c.name}` }),
          dynamicHere ? h('label', { class: 'reset' }, h('input', { type: 'checkbox', 'data-reset': c.name }),
            ' Remove', h('span', { class: 'visually-hidden' }, ` the ${scope === 'broker' ? 'broker' : 'cluster-wide'} `
              + `value of ${c.name}`)) : null);
      }
      const synonyms = c.synonyms.length > 1 ? h('details', { class: 'synonyms' },
        h('summary', {}, sourceText(c.source)),
        h('ul', {}, c.synonyms.map((s) => h('li', {}, h('code', {}, s.name), ' = ',
          c.sensitive ? '(sensitive)' : s.value ?? '(none)', ' — ', api.sourceLabel(s.source)))))
        : api.sourceLabel(c.source);
      return h('tr', { 'data-broker-config': c.name },
        h('th', { scope: 'row' }, c.name),
        h('td', { class: 'value' }, c.sensitive ? '(sensitive)' : c.value ?? ''),
        h('td', { class: 'source-cell' }, synonyms),
        h('td', { class: 'tags' }, tags),
        h('td', { class: 'change-cell' }, change));
    }

    function changes() {
      const set = {};
      const reset = [];
      for (const input of form.querySelectorAll('input[data-config]')) {
        if (input.value !== '' && input.value !== input.dataset.current) set[input.dataset.config] = input.value;
      }
      for (const box of form.querySelectorAll('input[data-reset]')) if (box.checked) reset.push(box.dataset.reset);
      return { set, reset };
    }

    function sync() {
      const { set, reset } = changes();
      save.disabled = Object.keys(set).length + reset.length === 0;
    }

    filter.addEventListener('input', () => { configFilter = filter.value; draw(); });
    scopeSelect?.addEventListener('change', () => { scope = scopeSelect.value; draw(); });
    form.addEventListener('input', (e) => { if (e.target !== filter) sync(); });
    form.addEventListener('change', sync);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const { set, reset } = changes();
      if (Object.keys(set).length + reset.length === 0) return;
      save.disabled = true;
      try {
        await api.changeConfigs(scope === 'broker' ? id : null, set, reset);
        const where = scope === 'broker' ? `broker ${id}` : 'every broker';
        saved = `Saved for ${where}: ${[...Object.keys(set).map((n) => `${n} set`),
          ...reset.map((n) => `${n} removed`)].join(', ')}.`;
        announce(saved);
        await load();
      } catch (err) {
        message.replaceChildren(errorBox(err));
        sync();
      }
    });
    draw();
    const defaults = b.clusterDefaults.length === 0 ? null : h('p', { class: 'hint', id: 'cluster-defaults' },
      'Cluster-wide defaults set: ', b.clusterDefaults.map((c) => `${c.name}=${c.sensitive ? '(sensitive)' : c.value}`)
        .join(', '), '.');
    return h('section', { 'aria-labelledby': 'broker-configs-title' },
      h('h2', { id: 'broker-configs-title' }, 'Configs'),
      canAlter ? h('p', { class: 'hint' }, 'Dynamic configs can be set for this broker or for every broker '
        + '(cluster-wide default); a value of this broker wins over the cluster-wide one. Expand a source to see '
        + 'where else the value could come from, in the order the broker looks.') : null,
      defaults, form);
  }

  function logDirSection(b) {
    const content = b.logDirs == null
      ? h('p', { class: 'empty', id: 'log-dirs-problem' }, `Log directories cannot be read: ${b.logDirProblem}`)
      : table('Log directories', ['Path', 'Size', 'Replicas', 'Volume total', 'Volume usable', 'Error'],
        b.logDirs.map((d) => h('tr', { 'data-log-dir': d.path, class: d.error ? 'warn' : null },
          h('th', { scope: 'row', class: 'wrap' }, d.path),
          h('td', { class: 'num log-dir-size', 'data-bytes': d.sizeBytes }, humanBytes(d.sizeBytes)),
          h('td', { class: 'num' }, d.replicas),
          h('td', { class: 'num' }, d.totalBytes == null ? '—' : humanBytes(d.totalBytes)),
          h('td', { class: 'num' }, d.usableBytes == null ? '—' : humanBytes(d.usableBytes)),
          h('td', { class: d.error ? 'warn log-dir-error' : 'log-dir-error' }, d.error ?? 'none'))),
        { id: 'log-dirs' });
    return h('section', { 'aria-labelledby': 'log-dirs-title' }, h('h2', { id: 'log-dirs-title' }, 'Log directories'),
      content);
  }

  function partitionSection(b) {
    const body = h('div', {});
    const only = h('input', { type: 'checkbox', id: 'urp-only', checked: urpOnly });
    const filter = h('input', { type: 'search', id: 'broker-partition-filter', value: partitionFilter,
      'aria-label': 'Filter partitions by topic', placeholder: 'Filter by topic' });
    function draw() {
      const shown = b.partitions.filter((p) => (!urpOnly || p.underReplicated)
        && p.topic.includes(partitionFilter.trim()));
      body.replaceChildren(shown.length === 0 ? h('p', { class: 'empty', id: 'no-broker-partitions' },
        urpOnly ? 'No under-replicated partition.' : 'No partition.')
        : table('Partitions with a replica on this broker', ['Partition', 'Role', 'Leader', 'Replicas', 'ISR',
          'This replica'], shown.map((p) => h('tr', { 'data-broker-partition': `${p.topic}-${p.partition}`,
          class: p.underReplicated ? 'warn under-replicated' : null },
        h('th', { scope: 'row' }, h('a', { href: `#/topics/${encodeURIComponent(p.topic)}` }, p.topic), `-${p.partition}`),
        h('td', {}, p.isLeader ? 'Leader' : 'Follower'),
        h('td', { class: 'num' }, p.leader ?? 'none'),
        h('td', {}, ids(p.replicas)), h('td', {}, ids(p.isr)),
        h('td', {}, p.inSync ? 'In sync' : h('strong', {}, 'Out of sync'),
          p.underReplicated ? h('span', { class: 'tag' }, ' under-replicated') : null))),
        { id: 'broker-partitions' }));
    }
    only.addEventListener('change', () => { urpOnly = only.checked; draw(); });
    filter.addEventListener('input', () => { partitionFilter = filter.value; draw(); });
    draw();
    const urp = b.partitions.filter((p) => p.underReplicated).length;
    return h('section', { 'aria-labelledby': 'broker-partitions-title' },
      h('h2', { id: 'broker-partitions-title' }, 'Partitions'),
      h('p', { class: urp ? 'hint warn' : 'hint', id: 'broker-partitions-summary' },
        `${b.partitions.length} partitions with a replica here, ${urp} under-replicated (ISR smaller than the replicas).`),
      h('div', { class: 'toolbar' }, filter, h('label', {}, only, ' Only under-replicated')),
      body);
  }

  function sourceText(source) {
    return api.sourceLabel(source);
  }

  await load();
  const refresh = h('button', { type: 'button', id: 'broker-refresh', class: 'secondary', onclick: load }, 'Refresh');
  return h('section', { 'aria-labelledby': 'broker-title' },
    h('p', {}, h('a', { href: '#/brokers' }, '← All brokers')),
    h('div', { class: 'title-row' }, h('h1', { id: 'broker-title' }, `Broker ${id}`), refresh),
    area);
}
