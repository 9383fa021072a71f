// The /api calls of the security pages (ACLs, SCRAM users, client quotas), which of them the user may
// open, and a confirmation dialog that lists what an action will remove.
import { request } from '../api.js';
import { h } from '../dom.js';

let accessOnce;

/**
 * { acls, users, quotas }, each { allowed, reason }: asked of the proxy as the user once per page load;
 * a failed ask (the proxy not up yet) is asked again next time.
 */
export function access() {
  if (!accessOnce) {
    accessOnce = request('GET', '/api/access');
    accessOnce.catch(() => { accessOnce = undefined; });
  }
  return accessOnce;
}

const query = (filter) => new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== '' && v != null));

/** The ACLs matching filter { resourceType, resourceName, patternType, principal, host, operation, permission }. */
export const acls = (filter) => request('GET', `/api/acls?${query(filter)}`);
/** Creates an ACL. */
export const createAcl = (acl) => request('POST', '/api/acls', acl);
/** Deletes the ACLs matching filter (resourceType required, ANY allowed); answers those deleted. */
export const deleteAcls = (filter) => request('DELETE', `/api/acls?${query(filter)}`);

/** Every SCRAM user: [{ name, credentials: [{ mechanism, iterations }] }]. */
export const users = () => request('GET', '/api/users');
/** Sets a user's password for a mechanism (creates the user when new). */
export const setPassword = (name, body) => request('PUT', `/api/users/${encodeURIComponent(name)}`, body);
/** Deletes a user's SCRAM credentials. */
export const deleteUser = (name) => request('DELETE', `/api/users/${encodeURIComponent(name)}`);

/** Every entity's quotas: [{ entity: [{ type, name }], values: { producer_byte_rate, ... } }]. */
export const quotas = () => request('GET', '/api/quotas');
/** Sets and removes quota values of one entity: { entity, set, remove }. */
export const alterQuotas = (body) => request('PUT', '/api/quotas', body);

/** A notice for a page the user may not open, with the proxy's reason. */
export function refused(what, reason) {
  return h('div', { class: 'card', id: 'access-refused', role: 'alert' },
    h('p', {}, `You may not see ${what} on this cluster.`),
    reason ? h('p', { class: 'hint' }, reason) : null);
}

/**
 * A modal dialog listing items; ask(heading, intro, items, action) resolves true when confirmed.
 * Uses the ids of the groups pages' dialog (confirm, confirm-text, confirm-ok, confirm-cancel).
 */
export function listDialog() {
  const title = h('h2', { id: 'confirm-title' });
  const text = h('p', { id: 'confirm-text' });
  const items = h('ul', { id: 'confirm-list', class: 'confirm-list' });
  const cancel = h('button', { type: 'button', id: 'confirm-cancel', value: 'cancel' }, 'Cancel');
  const ok = h('button', { type: 'button', id: 'confirm-ok', value: 'ok', class: 'danger' }, 'OK');
  const element = h('dialog', { id: 'confirm', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text' },
    title, text, items, h('div', { class: 'actions' }, cancel, ok));
  let resolve = () => {};
  cancel.addEventListener('click', () => element.close('cancel'));
  ok.addEventListener('click', () => element.close('ok'));
  element.addEventListener('close', () => resolve(element.returnValue === 'ok'));
  return {
    element,
    ask(heading, intro, list, action) {
      title.textContent = heading;
      text.textContent = intro;
      items.replaceChildren(...list.map((item) => h('li', {}, item)));
      ok.textContent = action;
      element.returnValue = '';
      element.showModal();
      cancel.focus();
      return new Promise((r) => { resolve = r; });
    },
  };
}
