// Small DOM helpers shared by the pages.

/** Creates an element: h('td', { class: 'num' }, 'text', childNode). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** An error message for people, announced by screen readers. */
export function errorBox(error) {
  return h('p', { class: 'error', role: 'alert' }, error.message || String(error));
}

/** A table inside a horizontally scrolling, focusable region. */
export function table(caption, headers, rows, attrs = {}) {
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption },
    h('table', attrs,
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, rows)));
}

/** Says something in the shared status line (aria-live). */
export function announce(text) {
  document.getElementById('status').textContent = text;
}

/**
 * Wraps a load so that only the latest call's outcome is shown: an earlier answer (another filter,
 * an overlapping refresh) that arrives late is dropped. `start` runs before every load; `ok`,
 * `fail` and `end` only for the latest one.
 */
export function latestOnly({ start, fetch, ok, fail, end }) {
  let latest = 0;
  return async () => {
    const token = ++latest;
    if (start) start();
    try {
      const value = await fetch();
      if (token === latest) ok(value);
    } catch (e) {
      if (token === latest) fail(e);
    } finally {
      if (token === latest && end) end();
    }
  };
}

/** A list of broker ids, e.g. [0, 1]. */
export const ids = (list) => `[${(list || []).join(', ')}]`;
