// The Messages page's produce panel: a side panel (key, value, name=value headers, partition optional)
// opened by its button, that stays open, with what was typed, while the page's tables refresh.
import { announce, errorBox, h } from '../dom.js';

function field(id, label, control, hint) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint ? h('small', {}, hint) : null);
}

/** "name=value" lines as headers; throws for a line without a name. */
export function parseHeaders(text) {
  return text.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
    const at = line.indexOf('=');
    if (at <= 0) throw new Error(`Header "${line}" is not name=value.`);
    return { name: line.slice(0, at).trim(), value: line.slice(at + 1) };
  });
}

/**
 * { button, panel } for producing to topic (its partitions listed): produce(record) sends one and
 * answers { partition, offset }; produced(done) runs after each record went out.
 */
export function producePanel(topic, produce, produced) {
  const key = h('input', { id: 'produce-key', autocomplete: 'off' });
  const value = h('textarea', { id: 'produce-value', rows: 8, spellcheck: 'false' });
  const headers = h('textarea', { id: 'produce-headers', rows: 3, spellcheck: 'false',
    'aria-describedby': 'produce-headers-hint' });
  const target = h('select', { id: 'produce-partition' }, h('option', { value: '' }, 'Any (by key)'),
    topic.partitions.map((p) => h('option', { value: p.partition }, p.partition)));
  const message = h('div', { class: 'form-message', id: 'produce-message' });
  const send = h('button', { type: 'submit', id: 'produce-send' }, 'Produce');
  const close = h('button', { type: 'button', id: 'produce-close', class: 'secondary',
    'aria-label': 'Close the produce panel' }, '✕');
  const button = h('button', { type: 'button', id: 'produce-open', 'aria-expanded': 'false',
    'aria-controls': 'produce-panel' }, 'Produce a message…');
  const form = h('form', { id: 'produce-form', onsubmit: async (e) => {
    e.preventDefault();
    message.replaceChildren();
    let parsed;
    try {
      parsed = parseHeaders(headers.value);
    } catch (err) {
      message.replaceChildren(errorBox(err));
      return;
    }
    send.disabled = true;
    try {
      const done = await produce({ key: key.value || null, value: value.value, headers: parsed,
        partition: target.value === '' ? null : Number(target.value) });
      const text = `Produced to partition ${done.partition} at offset ${done.offset}.`;
      message.replaceChildren(h('p', { class: 'ok', id: 'produce-result' }, text));
      announce(text);
      produced(done);
    } catch (err) {
      message.replaceChildren(errorBox(err));
    } finally {
      send.disabled = false;
    }
  } },
  field('produce-key', 'Key', key, 'Optional; sent as UTF-8 text.'),
  field('produce-value', 'Value', value, 'Sent as UTF-8 text; JSON stays as typed.'),
  h('div', { class: 'field' }, h('label', { for: 'produce-headers' }, 'Headers'), headers,
    h('small', { id: 'produce-headers-hint' }, 'One per line, name=value.')),
  field('produce-partition', 'Partition', target, 'Optional.'),
  send, message);
  const panel = h('aside', { id: 'produce-panel', class: 'side-panel card', 'aria-labelledby': 'produce-title',
    hidden: true },
  h('div', { class: 'side-panel-head' }, h('h2', { id: 'produce-title' }, 'Produce a message'), close), form);
  const show = (open) => {
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) key.focus();
    else button.focus();
  };
  button.addEventListener('click', () => show(panel.hidden));
  close.addEventListener('click', () => show(false));
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') show(false);
  });
  return { button, panel };
}
