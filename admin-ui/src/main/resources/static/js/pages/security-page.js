// The frame the security pages (ACLs, SCRAM users, client quotas) share: the document title and the
// heading, the notice shown instead to a user the brokers do not let see the page, whether the user may
// change things there, the list area with its loading and error states, the confirmation dialog, and
// the layout: the list with the outcome of its actions, and beside it the page's form when allowed.
import { errorBox, h, latestOnly } from '../dom.js';
import { access, listDialog, refused } from './security-api.js';
import { allows, session } from '../session.js';

/** A labelled form field, with a hint under the control when given. */
export const field = (id, label, control, hint) => h('div', { class: 'field' }, h('label', { for: id }, label),
  control, hint ? h('small', {}, hint) : null);

/**
 * Starts a security page. `page` is its key in /api/access (acls, users, quotas) and the prefix of its
 * heading's id; `what` ends the refusal ("You may not see {what} on this cluster."); `alter` is the
 * cluster operation without which the brokers refuse changes (then the page offers no form and no buttons);
 * `listId` is the list area's id; `loading` is shown there until the first answer.
 * Answers { refusal } (a section to show instead of the page) when the user may not see it; else
 * { mayAlter, dialog, area, actionMessage, loader, section }.
 */
export async function securityPage({ page, heading, what, alter, listId, loading }) {
  document.title = `${heading} · Tributary admin`;
  const allowed = (await access())[page];
  const titleId = `${page}-title`;
  const title = h('h1', { id: titleId }, heading);
  if (!allowed.allowed) {
    return { refusal: h('section', { 'aria-labelledby': titleId }, title, refused(what, allowed.reason)) };
  }
  const mayAlter = allows((await session()).clusterOperations, alter);
  const dialog = listDialog();
  const area = h('div', { id: listId, 'aria-live': 'polite' });
  const actionMessage = h('div', { class: 'form-message' });
  return {
    mayAlter,
    dialog,
    area,
    actionMessage,
    /** The list's load (only the latest answer shown): fetch(), then the nodes show(answer) makes, or the error. */
    loader: (fetch, show) => latestOnly({
      start() {
        area.setAttribute('aria-busy', 'true');
        if (!area.hasChildNodes()) area.replaceChildren(h('p', { class: 'loading' }, loading));
      },
      fetch,
      ok: (answer) => area.replaceChildren(...show(answer)),
      fail: (e) => area.replaceChildren(errorBox(e)),
      end: () => area.removeAttribute('aria-busy'),
    }),
    /** The page: heading, `above` (hints, filters; nodes or arrays), the list, and `side` when the user may alter. */
    section: (above, side) => h('section', { 'aria-labelledby': titleId }, title, above,
      h('div', { class: 'columns' },
        h('div', { class: 'main-column' }, area, actionMessage),
        mayAlter ? h('div', { class: 'side-column' }, side) : null),
      dialog.element),
  };
}
