// Auto-refresh for list and detail pages: calls load every intervalMs while the page's element is in
// the document and the user has not paused it; a toggle button pauses and resumes. Overlapping answers
// are the caller's to order (latestOnly in dom.js applies only the latest).
import { h } from '../dom.js';

/** Every 5 s by default. */
export const INTERVAL_MS = 5000;

/**
 * Starts refreshing; returns the pause/resume toggle (id given) to put on the page. The timer stops for
 * good once `page()` (the page's root element, read lazily) has left the document.
 */
export function autoRefresh(id, load, page, intervalMs = INTERVAL_MS) {
  let paused = false;
  const button = h('button', { type: 'button', id, class: 'secondary', 'aria-pressed': 'false' },
    'Pause auto-refresh');
  button.addEventListener('click', () => {
    paused = !paused;
    button.setAttribute('aria-pressed', String(paused));
    button.textContent = paused ? 'Resume auto-refresh' : 'Pause auto-refresh';
    if (!paused) load();
  });
  const timer = setInterval(() => {
    const root = page();
    if (root && !root.isConnected) {
      clearInterval(timer);
      return;
    }
    if (!paused && !document.hidden) load();
  }, intervalMs);
  return button;
}
