// Share groups (KIP-932): filter by group id and state, paging (server side); state, member count,
// coordinator and total lag per group. Refreshed by its button, as the consumer groups page is.
import { errorBox, h, latestOnly, table } from '../dom.js';
import { stateLabel } from './groups-api.js';
import * as api from './share-groups-api.js';

const PAGE_SIZE = 20;
/** Kafka's share group states, offered in the filter even before a group is in them. */
const STATES = ['STABLE', 'EMPTY'];

/** Builds the share groups page. */
export async function render() {
  document.title = 'Share groups · Tributary admin';
  const state = { filter: '', state: '', page: 0 };
  const listArea = h('div', { id: 'share-group-list', 'aria-live': 'polite' });
  const stateSelect = h('select', { id: 'share-group-state', name: 'state',
    onchange: () => { state.state = stateSelect.value; state.page = 0; load(); } });
  stateOptions([]);

  // Only the latest request's answer is shown: an earlier one (another filter) may arrive after it.
  const load = latestOnly({
    start() {
      listArea.setAttribute('aria-busy', 'true');
      if (!listArea.hasChildNodes()) listArea.replaceChildren(h('p', { class: 'loading' }, 'Loading share groups…'));
    },
    fetch: () => api.shareGroups(state.filter, state.state, state.page, PAGE_SIZE),
    ok(result) {
      stateOptions(result.states);
      listArea.replaceChildren(...list(result));
    },
    fail: (e) => listArea.replaceChildren(errorBox(e)),
    end: () => listArea.removeAttribute('aria-busy'),
  });

  /** The state filter's choices: Kafka's states and any other state a group is in now. */
  function stateOptions(seen) {
    const states = [...new Set([...STATES, ...(seen || [])])];
    stateSelect.replaceChildren(h('option', { value: '' }, 'All states'),
      ...states.map((s) => h('option', { value: s, selected: s === state.state }, stateLabel(s))));
  }

  function list(result) {
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    const rows = result.groups.map((g) => h('tr', { 'data-share-group': g.groupId },
      h('th', { scope: 'row' }, h('a', { href: `#/share-groups/${encodeURIComponent(g.groupId)}` }, g.groupId)),
      h('td', { class: 'share-group-state' }, stateLabel(g.state)),
      h('td', { class: 'num share-group-members' }, g.members),
      h('td', { class: 'num share-group-coordinator' }, g.coordinator ?? '–'),
      h('td', { class: 'num share-group-lag' }, g.lag ?? '–')));
    const filters = [state.filter ? ` matching “${state.filter}”` : '',
      state.state ? ` in state ${stateLabel(state.state).toLowerCase()}` : ''].join('');
    const summary = h('p', { id: 'share-group-total' },
      result.total === 1 ? '1 share group' : `${result.total} share groups`, filters);
    if (result.groups.length === 0) return [summary, h('p', { class: 'empty' }, 'No share groups to show.')];
    return [summary,
      table('Share groups', ['Group', 'State', 'Members', 'Coordinator', 'Lag'], rows, { id: 'share-groups' }),
      h('nav', { class: 'pager', 'aria-label': 'Pages' },
        h('button', { type: 'button', disabled: state.page === 0,
          onclick: () => { state.page -= 1; load(); } }, 'Previous'),
        h('span', {}, `Page ${state.page + 1} of ${pages}`),
        h('button', { type: 'button', disabled: state.page + 1 >= pages,
          onclick: () => { state.page += 1; load(); } }, 'Next'))];
  }

  const filterInput = h('input', { id: 'share-group-filter', type: 'search', name: 'filter', autocomplete: 'off' });
  let timer;
  filterInput.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { state.filter = filterInput.value.trim(); state.page = 0; load(); }, 250);
  });
  const refresh = h('button', { type: 'button', id: 'share-groups-refresh', class: 'secondary',
    onclick: () => load() }, 'Refresh');

  load();
  return h('section', { 'aria-labelledby': 'share-groups-title' },
    h('h1', { id: 'share-groups-title' }, 'Share groups'),
    h('p', { class: 'hint' }, 'Queues (KIP-932): the members of a share group share the records of its topics, '
      + 'each record delivered to one member at a time.'),
    h('div', { class: 'toolbar' },
      h('form', { role: 'search', class: 'filter', onsubmit: (e) => e.preventDefault() },
        h('div', { class: 'field' }, h('label', { for: 'share-group-filter' }, 'Filter by group id'), filterInput)),
      h('div', { class: 'field' }, h('label', { for: 'share-group-state' }, 'State'), stateSelect),
      refresh),
    listArea);
}
