// Consumer groups: filter by id, state and topic, and paging (server side); state, member count, total
// lag and coordinator per group; refreshed every 5 s unless paused (only the latest answer is shown).
import { errorBox, h, latestOnly, table } from '../dom.js';
import * as api from './groups-api.js';
import { autoRefresh } from './refresh.js';

const STATES = ['STABLE', 'EMPTY', 'PREPARING_REBALANCE', 'COMPLETING_REBALANCE', 'ASSIGNING', 'RECONCILING', 'DEAD'];

const PAGE_SIZE = 20;

/** Builds the consumer groups page. */
export async function render() {
  document.title = 'Consumer groups · Tributary admin';
  const state = { filter: '', page: 0, state: '', topic: '' };
  const listArea = h('div', { id: 'group-list', 'aria-live': 'polite' });

  // Only the latest request's answer is shown: an earlier one (another filter) may arrive after it.
  const load = latestOnly({
    start() {
      listArea.setAttribute('aria-busy', 'true');
      // The first load shows a loading line; later ones keep the old list until the new one is there.
      if (!listArea.hasChildNodes()) listArea.replaceChildren(h('p', { class: 'loading' }, 'Loading consumer groups…'));
    },
    fetch: () => api.groups(state.filter, state.page, PAGE_SIZE, state.state, state.topic),
    ok: (result) => listArea.replaceChildren(...list(result)),
    fail: (e) => listArea.replaceChildren(errorBox(e)),
    end: () => listArea.removeAttribute('aria-busy'),
  });

  function list(result) {
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    const rows = result.groups.map((g) => h('tr', { 'data-group': g.id },
      h('th', { scope: 'row' }, h('a', { href: `#/groups/${encodeURIComponent(g.id)}` }, g.id)),
      h('td', { class: 'group-state' }, api.stateLabel(g.state)),
      h('td', { class: 'num' }, g.members ?? '–'),
      h('td', { class: g.totalLag > 0 ? 'num lagging' : 'num' }, g.totalLag ?? '–'),
      h('td', { class: 'num group-coordinator' }, g.coordinator ?? '–')));
    const summary = h('p', { id: 'group-total' }, result.total === 1 ? '1 group' : `${result.total} groups`,
      state.filter ? ` matching “${state.filter}”` : '',
      state.state ? ` in state ${api.stateLabel(state.state).toLowerCase()}` : '',
      state.topic ? ` reading topic “${state.topic}”` : '');
    if (result.groups.length === 0) return [summary, h('p', { class: 'empty' }, 'No consumer groups to show.')];
    return [summary,
      table('Consumer groups', ['Group', 'State', 'Members', 'Total lag', 'Coordinator'], rows, { id: 'groups' }),
      h('nav', { class: 'pager', 'aria-label': 'Pages' },
        h('button', { type: 'button', disabled: state.page === 0,
          onclick: () => { state.page -= 1; load(); } }, 'Previous'),
        h('span', {}, `Page ${state.page + 1} of ${pages}`),
        h('button', { type: 'button', disabled: state.page + 1 >= pages,
          onclick: () => { state.page += 1; load(); } }, 'Next'))];
  }

  const filterInput = h('input', { id: 'group-filter', type: 'search', name: 'filter', autocomplete: 'off' });
  let timer;
  filterInput.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { state.filter = filterInput.value.trim(); state.page = 0; load(); }, 250);
  });
  const stateSelect = h('select', { id: 'group-state-filter', name: 'state',
    onchange: () => { state.state = stateSelect.value; state.page = 0; load(); } },
  h('option', { value: '' }, 'Any state'), STATES.map((s) => h('option', { value: s }, api.stateLabel(s))));
  const topicInput = h('input', { id: 'group-topic-filter', type: 'search', name: 'topic', autocomplete: 'off' });
  let topicTimer;
  topicInput.addEventListener('input', () => {
    clearTimeout(topicTimer);
    topicTimer = setTimeout(() => { state.topic = topicInput.value.trim(); state.page = 0; load(); }, 250);
  });
  let section;
  const pause = autoRefresh('groups-auto-refresh', load, () => section);
  const refresh = h('button', { type: 'button', id: 'groups-refresh', class: 'secondary', onclick: () => load() },
    'Refresh');

  load();
  section = h('section', { 'aria-labelledby': 'groups-title' },
    h('h1', { id: 'groups-title' }, 'Consumer groups'),
    h('div', { class: 'toolbar' },
      h('form', { role: 'search', class: 'filter', onsubmit: (e) => e.preventDefault() },
        h('div', { class: 'field' }, h('label', { for: 'group-filter' }, 'Filter by group id'), filterInput)),
      h('div', { class: 'field' }, h('label', { for: 'group-state-filter' }, 'State'), stateSelect),
      h('div', { class: 'field' }, h('label', { for: 'group-topic-filter' }, 'Topic (exact name)'), topicInput),
      refresh, pause),
    listArea);
  return section;
}
