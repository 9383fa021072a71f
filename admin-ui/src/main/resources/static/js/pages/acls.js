// ACLs: list with Kafka's filters (ANY matches all; pattern MATCH finds what applies to a name: the
// literal name, the wildcard and the prefixes), create one with a form, delete one or every ACL the
// filter matches after a confirmation listing them. Needs DESCRIBE (list) and ALTER (change) on the cluster.
import { announce, errorBox, h, table } from '../dom.js';
import * as api from './security-api.js';
import { field, securityPage } from './security-page.js';

const RESOURCE_TYPES = ['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID', 'DELEGATION_TOKEN', 'USER'];
const OPERATIONS = ['ALL', 'READ', 'WRITE', 'CREATE', 'DELETE', 'ALTER', 'DESCRIBE', 'CLUSTER_ACTION',
  'DESCRIBE_CONFIGS', 'ALTER_CONFIGS', 'IDEMPOTENT_WRITE', 'CREATE_TOKENS', 'DESCRIBE_TOKENS', 'TWO_PHASE_COMMIT'];
const FIELDS = ['principal', 'resourceType', 'resourceName', 'patternType', 'operation', 'permission'];

/** One line for people: "User:alice ALLOW READ on TOPIC orders (PREFIXED) from *". */
export function describe(a) {
  return `${a.principal} ${a.permission} ${a.operation} on ${a.resourceType} ${a.resourceName} (${a.patternType}) `
    + `from ${a.host}`;
}

const select = (id, values, first) => h('select', { id, name: id },
  first ? h('option', { value: first.value }, first.label) : null,
  values.map((v) => h('option', { value: v }, v)));

/** Builds the ACLs page. */
export async function render() {
  const page = await securityPage({ page: 'acls', heading: 'ACLs', what: 'ACLs', alter: 'ALTER', listId: 'acl-list',
    loading: 'Loading ACLs…' });
  if (page.refusal) return page.refusal;
  // (mayAlter || null) && element: h() skips null, not false.
  const { mayAlter, dialog, actionMessage } = page;
  const filters = {
    principal: h('input', { id: 'acl-filter-principal', type: 'search', placeholder: 'User:alice', autocomplete: 'off' }),
    resourceType: select('acl-filter-resourceType', RESOURCE_TYPES, { value: 'ANY', label: 'Any' }),
    resourceName: h('input', { id: 'acl-filter-resourceName', type: 'search', autocomplete: 'off' }),
    patternType: select('acl-filter-patternType', ['LITERAL', 'PREFIXED', 'MATCH'], { value: 'ANY', label: 'Any' }),
    operation: select('acl-filter-operation', OPERATIONS, { value: 'ANY', label: 'Any' }),
    permission: select('acl-filter-permission', ['ALLOW', 'DENY'], { value: 'ANY', label: 'Any' }),
  };
  const filter = () => Object.fromEntries(FIELDS.map((f) => [f, filters[f].value.trim()]));
  let shown = [];

  const load = page.loader(() => api.acls(filter()), (list) => {
    shown = list;
    return content(list);
  });

  function content(list) {
    const summary = h('p', { id: 'acl-total' }, list.length === 1 ? '1 ACL' : `${list.length} ACLs`);
    if (list.length === 0) return [summary, h('p', { class: 'empty' }, 'No ACLs match.')];
    const rows = list.map((a) => h('tr', { 'data-acl': describe(a) },
      h('th', { scope: 'row' }, a.principal), h('td', {}, a.resourceType), h('td', { class: 'wrap' }, a.resourceName),
      h('td', {}, a.patternType), h('td', {}, a.host), h('td', {}, a.operation), h('td', {}, a.permission),
      (mayAlter || null) && h('td', {}, h('button', { type: 'button', class: 'danger', 'data-delete-acl': describe(a),
        'aria-label': `Delete ${describe(a)}`, onclick: () => remove(a, [a]) }, 'Delete'))));
    return [summary,
      table('ACLs', ['Principal', 'Resource type', 'Resource name', 'Pattern', 'Host', 'Operation', 'Permission',
        ...(mayAlter ? ['Action'] : [])], rows, { id: 'acls' }),
      (mayAlter || null) && h('button', { type: 'button', id: 'delete-matching-acls', class: 'danger',
        onclick: () => remove({ ...filter(), resourceType: filter().resourceType || 'ANY' }, shown) },
      `Delete all ${list.length} shown`)];
  }

  async function remove(deleteFilter, listed) {
    actionMessage.replaceChildren();
    // A delete filter of a listed ACL is the ACL itself; of the whole list, the filter that listed it.
    const exact = listed.length === 1 && deleteFilter === listed[0];
    const n = listed.length;
    if (!(await dialog.ask(n === 1 ? 'Delete ACL?' : `Delete ${n} ACLs?`, exact ? 'This ACL will be deleted:'
        : `Every ACL matching the filter will be deleted; now ${n === 1 ? 'this one' : `these ${n}`}:`,
    listed.map(describe), 'Delete'))) return;
    try {
      const deleted = await api.deleteAcls(deleteFilter);
      announce(`${deleted.length} ACL${deleted.length === 1 ? '' : 's'} deleted.`);
      await load();
    } catch (e) {
      actionMessage.replaceChildren(errorBox(e));
    }
  }

  const filterForm = h('form', { role: 'search', id: 'acl-filters', class: 'toolbar',
    onsubmit: (e) => { e.preventDefault(); load(); } },
  field('acl-filter-principal', 'Principal', filters.principal),
  field('acl-filter-resourceType', 'Resource type', filters.resourceType),
  field('acl-filter-resourceName', 'Resource name', filters.resourceName),
  field('acl-filter-patternType', 'Pattern type', filters.patternType),
  field('acl-filter-operation', 'Operation', filters.operation),
  field('acl-filter-permission', 'Permission', filters.permission),
  h('button', { type: 'submit', id: 'acl-filter-apply' }, 'Apply filter'));

  load();
  return page.section([
    h('p', { class: 'hint' }, 'Pattern type MATCH with a resource name shows every ACL that applies to that name: '
      + 'the literal name, the wildcard * and the prefixes of the name.'),
    filterForm], createForm(load));
}

function createForm(reload) {
  const principal = h('input', { id: 'acl-principal', required: true, placeholder: 'User:alice', autocomplete: 'off' });
  const resourceType = select('acl-resourceType', RESOURCE_TYPES);
  const resourceName = h('input', { id: 'acl-resourceName', autocomplete: 'off' });
  const patternType = select('acl-patternType', ['LITERAL', 'PREFIXED']);
  const host = h('input', { id: 'acl-host', value: '*', autocomplete: 'off' });
  const operation = select('acl-operation', OPERATIONS);
  const permission = select('acl-permission', ['ALLOW', 'DENY']);
  const message = h('div', { class: 'form-message' });
  const submit = h('button', { type: 'submit', id: 'acl-create' }, 'Create ACL');
  const form = h('form', { class: 'card', id: 'acl-form', 'aria-labelledby': 'acl-form-title' },
    h('h2', { id: 'acl-form-title' }, 'Create an ACL'),
    field('acl-principal', 'Principal', principal, 'type:name, e.g. User:alice'),
    field('acl-resourceType', 'Resource type', resourceType),
    field('acl-resourceName', 'Resource name', resourceName, '* for every resource of the type; none for CLUSTER'),
    field('acl-patternType', 'Pattern type', patternType),
    field('acl-host', 'Host', host, '* for every host'),
    field('acl-operation', 'Operation', operation),
    field('acl-permission', 'Permission', permission),
    submit, message);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.replaceChildren();
    const acl = { principal: principal.value.trim(), resourceType: resourceType.value,
      resourceName: resourceName.value.trim() || (resourceType.value === 'CLUSTER' ? 'kafka-cluster' : ''),
      patternType: patternType.value, host: host.value.trim() || '*', operation: operation.value,
      permission: permission.value };
    if (!/^[^:]+:.+$/.test(acl.principal) || !acl.resourceName) {
      message.replaceChildren(errorBox(new Error('Enter a principal as type:name and a resource name.')));
      return;
    }
    submit.disabled = true;
    try {
      await api.createAcl(acl);
      message.replaceChildren(h('p', { class: 'ok', role: 'status', id: 'acl-created' }, `Created: ${describe(acl)}`));
      await reload();
    } catch (err) {
      message.replaceChildren(errorBox(err));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
