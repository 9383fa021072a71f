// SCRAM users: each user's mechanisms and iteration counts (never a password), create a user with a
// password, change a password, delete a user after a confirmation. Needs DESCRIBE (list) and ALTER
// (change) on the cluster.
import { announce, errorBox, h, table } from '../dom.js';
import * as api from './security-api.js';
import { field, securityPage } from './security-page.js';

const credentials = (u) => u.credentials.map((c) => `${c.mechanism} (${c.iterations} iterations)`).join(', ');

/** Builds the SCRAM users page. */
export async function render() {
  const page = await securityPage({ page: 'users', heading: 'SCRAM users', what: 'SCRAM users', alter: 'ALTER',
    listId: 'user-list', loading: 'Loading users…' });
  if (page.refusal) return page.refusal;
  // (mayAlter || null) && element: h() skips null, not false.
  const { mayAlter, dialog, actionMessage } = page;
  const form = passwordForm(() => load());
  const load = page.loader(api.users, (list) => content(list));

  function content(list) {
    const summary = h('p', { id: 'user-total' }, list.length === 1 ? '1 user' : `${list.length} users`);
    if (list.length === 0) return [summary, h('p', { class: 'empty' }, 'No SCRAM users.')];
    return [summary, table('SCRAM users', ['User', 'Mechanisms', ...(mayAlter ? ['Actions'] : [])],
      list.map((u) => h('tr', { 'data-user': u.name },
      h('th', { scope: 'row' }, u.name),
      h('td', { class: 'user-mechanisms' }, credentials(u)),
      (mayAlter || null) && h('td', {},
        h('button', { type: 'button', class: 'secondary', 'data-change-password': u.name,
          'aria-label': `Change the password of ${u.name}`, onclick: () => form.edit(u.name) }, 'Change password'),
        ' ',
        h('button', { type: 'button', class: 'danger', 'data-delete-user': u.name, 'aria-label': `Delete ${u.name}`,
          onclick: () => remove(u) }, 'Delete')))), { id: 'users' })];
  }

  async function remove(u) {
    actionMessage.replaceChildren();
    if (!(await dialog.ask('Delete user?', `User “${u.name}” loses these credentials and can no longer sign in with `
        + 'SCRAM (its ACLs stay):', u.credentials.map((c) => c.mechanism), 'Delete'))) return;
    try {
      await api.deleteUser(u.name);
      announce(`User ${u.name} deleted.`);
      await load();
    } catch (e) {
      actionMessage.replaceChildren(errorBox(e));
    }
  }

  load();
  return page.section(null, form.element);
}

function passwordForm(reload) {
  const name = h('input', { id: 'user-name', required: true, autocomplete: 'off' });
  const password = h('input', { id: 'user-password', type: 'password', required: true, autocomplete: 'new-password' });
  const mechanism = h('select', { id: 'user-mechanism' },
    h('option', { value: 'SCRAM-SHA-512' }, 'SCRAM-SHA-512'), h('option', { value: 'SCRAM-SHA-256' }, 'SCRAM-SHA-256'));
  const iterations = h('input', { id: 'user-iterations', type: 'number', min: '4096', max: '16384', step: '1',
    value: '4096', inputmode: 'numeric' });
  const title = h('h2', { id: 'user-form-title' }, 'Create a user');
  const submit = h('button', { type: 'submit', id: 'user-save' }, 'Create user');
  const message = h('div', { class: 'form-message' });
  const element = h('form', { class: 'card', id: 'user-form', 'aria-labelledby': 'user-form-title' }, title,
    field('user-name', 'User name', name),
    field('user-password', 'Password', password, 'Sent to the brokers, which keep only a salted hash'),
    field('user-mechanism', 'Mechanism', mechanism),
    field('user-iterations', 'Iterations', iterations, '4096 to 16384'),
    submit, message);
  element.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.replaceChildren();
    const user = name.value.trim();
    if (!user || !password.value) {
      message.replaceChildren(errorBox(new Error('Enter a user name and a password.')));
      return;
    }
    submit.disabled = true;
    try {
      const saved = await api.setPassword(user, { mechanism: mechanism.value, password: password.value,
        iterations: Number(iterations.value || 4096) });
      password.value = '';
      message.replaceChildren(h('p', { class: 'ok', role: 'status', id: 'user-saved' },
        `Saved ${saved.name}: ${credentials(saved)}.`));
      await reload();
    } catch (err) {
      message.replaceChildren(errorBox(err));
    } finally {
      submit.disabled = false;
    }
  });
  return {
    element,
    edit(user) {
      name.value = user;
      title.textContent = `Change the password of ${user}`;
      submit.textContent = 'Change password';
      message.replaceChildren();
      password.focus();
    },
  };
}
