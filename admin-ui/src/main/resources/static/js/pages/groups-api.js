// The /api/groups calls of the consumer group pages.
import { request } from '../api.js';

const path = (id) => `/api/groups/${encodeURIComponent(id)}`;

/**
 * One page of groups whose id contains filter, in state (Kafka's name; '' any) with offsets or partitions in
 * topic ('' any): { total, page, size, groups: [{ id, state, members, totalLag, coordinator }] }.
 */
export const groups = (filter, page, size, state = '', topic = '') =>
  request('GET', `/api/groups?${new URLSearchParams({ filter, page, size, state, topic })}`);

/** A group's state, members and per-partition offsets. */
export const group = (id) => request('GET', path(id));

/** Resets offsets: { mode: earliest|latest|offset|timestamp, offset?, timestamp? (ms), topic? (null: all) }. */
export const resetOffsets = (id, body) => request('POST', `${path(id)}/offsets:reset`, body);

/** Deletes an empty group. */
export const deleteGroup = (id) => request('DELETE', path(id));

/** Kafka's state name for people: PREPARING_REBALANCE → "Preparing rebalance". */
export function stateLabel(state) {
  if (!state) return 'Unknown';
  const words = state.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A modal <dialog> asking to confirm; ask(title, text, action) resolves true when confirmed. */
export function confirmDialog() {
  const title = h2();
  const text = document.createElement('p');
  text.id = 'confirm-text';
  const cancel = button('confirm-cancel', 'cancel', 'Cancel');
  const ok = button('confirm-ok', 'ok', 'OK');
  ok.className = 'danger';
  const actions = document.createElement('div');
  actions.className = 'actions';
  actions.append(cancel, ok);
  const element = document.createElement('dialog');
  element.id = 'confirm';
  element.setAttribute('aria-labelledby', 'confirm-title');
  element.setAttribute('aria-describedby', 'confirm-text');
  element.append(title, text, actions);
  let resolve = () => {};
  cancel.addEventListener('click', () => element.close('cancel'));
  ok.addEventListener('click', () => element.close('ok'));
  element.addEventListener('close', () => resolve(element.returnValue === 'ok'));
  return {
    element,
    ask(heading, message, action) {
      title.textContent = heading;
      text.textContent = message;
      ok.textContent = action;
      element.returnValue = '';
      element.showModal();
      cancel.focus();
      return new Promise((r) => { resolve = r; });
    },
  };

  function h2() {
    const el = document.createElement('h2');
    el.id = 'confirm-title';
    return el;
  }

  function button(id, value, label) {
    const el = document.createElement('button');
    el.type = 'button';
    el.id = id;
    el.value = value;
    el.textContent = label;
    return el;
  }
}
