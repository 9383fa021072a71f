// Client quotas: every entity's values (users, client ids, their defaults), set values with a form
// (a value left blank that the entity had is removed), remove all of an entity's values after a
// confirmation. Needs DESCRIBE_CONFIGS (list) and ALTER_CONFIGS (change) on the cluster.
import { announce, errorBox, h, table } from '../dom.js';
import * as api from './security-api.js';
import { field, securityPage } from './security-page.js';

const QUOTAS = [
  { key: 'producer_byte_rate', label: 'Produce bytes/s' },
  { key: 'consumer_byte_rate', label: 'Fetch bytes/s' },
  { key: 'request_percentage', label: 'Request time %' },
  { key: 'controller_mutation_rate', label: 'Mutations/s' },
];

/** "User alice, client id (default)". */
export function entityLabel(entity) {
  return entity.map((p) => `${p.type === 'user' ? 'User' : p.type === 'client-id' ? 'Client id' : p.type} `
    + (p.name === null ? '(default)' : p.name)).join(', ');
}

/** Builds the client quotas page. */
export async function render() {
  const page = await securityPage({ page: 'quotas', heading: 'Client quotas', what: 'client quotas',
    alter: 'ALTER_CONFIGS', listId: 'quota-list', loading: 'Loading quotas…' });
  if (page.refusal) return page.refusal;
  // (mayAlter || null) && element: h() skips null, not false.
  const { mayAlter, dialog, actionMessage } = page;
  const form = quotaForm(() => load());
  const load = page.loader(api.quotas, (list) => content(list));

  function content(list) {
    if (list.length === 0) return [h('p', { class: 'empty', id: 'no-quotas' }, 'No client quotas are set.')];
    return [table('Client quotas', ['Entity', ...QUOTAS.map((q) => q.label), ...(mayAlter ? ['Actions'] : [])],
      list.map((q) => {
      const label = entityLabel(q.entity);
      return h('tr', { 'data-quota': label },
        h('th', { scope: 'row' }, label),
        QUOTAS.map((k) => h('td', { class: 'num', 'data-key': k.key }, q.values[k.key] ?? '–')),
        (mayAlter || null) && h('td', {},
          h('button', { type: 'button', class: 'secondary', 'aria-label': `Edit the quotas of ${label}`,
            onclick: () => form.edit(q) }, 'Edit'), ' ',
          h('button', { type: 'button', class: 'danger', 'data-remove-quotas': label,
            'aria-label': `Remove the quotas of ${label}`, onclick: () => remove(q, label) }, 'Remove')));
    }), { id: 'quotas' })];
  }

  async function remove(q, label) {
    actionMessage.replaceChildren();
    const names = Object.keys(q.values);
    if (!(await dialog.ask('Remove quotas?', `These quotas of ${label} will be removed:`,
      names.map((n) => `${n} = ${q.values[n]}`), 'Remove'))) return;
    try {
      await api.alterQuotas({ entity: q.entity, set: {}, remove: names });
      announce(`Quotas of ${label} removed.`);
      await load();
    } catch (e) {
      actionMessage.replaceChildren(errorBox(e));
    }
  }

  load();
  return page.section(
    h('p', { class: 'hint' }, 'Byte rates are per broker; request time is a percentage of one network or I/O thread.'),
    form.element);
}

function quotaForm(reload) {
  const user = h('input', { id: 'quota-user', autocomplete: 'off' });
  const userDefault = h('input', { id: 'quota-user-default', type: 'checkbox' });
  const client = h('input', { id: 'quota-client', autocomplete: 'off' });
  const clientDefault = h('input', { id: 'quota-client-default', type: 'checkbox' });
  const inputs = Object.fromEntries(QUOTAS.map((q) => [q.key,
    h('input', { id: `quota-${q.key}`, type: 'number', min: '0', step: 'any', inputmode: 'decimal' })]));
  let current = {};
  const message = h('div', { class: 'form-message' });
  const submit = h('button', { type: 'submit', id: 'quota-save' }, 'Save quotas');
  const element = h('form', { class: 'card', id: 'quota-form', 'aria-labelledby': 'quota-form-title' },
    h('h2', { id: 'quota-form-title' }, 'Set quotas'),
    field('quota-user', 'User', user),
    h('div', { class: 'choice' }, userDefault, h('label', { for: 'quota-user-default' }, 'Default for users')),
    field('quota-client', 'Client id', client),
    h('div', { class: 'choice' }, clientDefault, h('label', { for: 'quota-client-default' }, 'Default for client ids')),
    QUOTAS.map((q) => field(`quota-${q.key}`, `${q.label} (${q.key})`, inputs[q.key])),
    h('p', { class: 'hint' }, 'A value left blank is removed.'),
    submit, message);
  element.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.replaceChildren();
    const entity = [];
    if (userDefault.checked) entity.push({ type: 'user', name: null });
    else if (user.value.trim()) entity.push({ type: 'user', name: user.value.trim() });
    if (clientDefault.checked) entity.push({ type: 'client-id', name: null });
    else if (client.value.trim()) entity.push({ type: 'client-id', name: client.value.trim() });
    const set = {};
    const remove = [];
    for (const q of QUOTAS) {
      const value = inputs[q.key].value.trim();
      if (value !== '') set[q.key] = Number(value);
      else if (current[q.key] !== undefined) remove.push(q.key);
    }
    if (entity.length === 0 || (Object.keys(set).length === 0 && remove.length === 0)) {
      message.replaceChildren(errorBox(new Error('Name a user and/or a client id (or a default) and enter a value.')));
      return;
    }
    submit.disabled = true;
    try {
      await api.alterQuotas({ entity, set, remove });
      current = set;
      message.replaceChildren(h('p', { class: 'ok', role: 'status', id: 'quota-saved' },
        `Saved the quotas of ${entityLabel(entity)}.`));
      await reload();
    } catch (err) {
      message.replaceChildren(errorBox(err));
    } finally {
      submit.disabled = false;
    }
  });
  return {
    element,
    edit(q) {
      const part = (type) => q.entity.find((p) => p.type === type);
      user.value = part('user')?.name ?? '';
      userDefault.checked = part('user') !== undefined && part('user').name === null;
      client.value = part('client-id')?.name ?? '';
      clientDefault.checked = part('client-id') !== undefined && part('client-id').name === null;
      current = { ...q.values };
      for (const k of QUOTAS) inputs[k.key].value = q.values[k.key] ?? '';
      message.replaceChildren();
      user.focus();
    },
  };
}
