// The colour theme: "system" (follow prefers-color-scheme), "light" or "dark", remembered in
// localStorage. A classic script loaded in <head>, so the page is painted in the chosen theme from
// the start; it wires the header's Theme control once the document is parsed. css/theme.css reads
// <html data-theme>. Pages that draw with colours (the throughput chart) listen for "themechange".
(() => {
  const KEY = 'tributary.theme';
  const CHOICES = ['system', 'light', 'dark'];

  function stored() {
    try {
      const value = localStorage.getItem(KEY);
      return CHOICES.includes(value) ? value : 'system';
    } catch (e) {
      return 'system';
    }
  }

  function apply(choice) {
    if (choice === 'system') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', choice);
  }

  apply(stored());

  document.addEventListener('DOMContentLoaded', () => {
    const select = document.getElementById('theme');
    if (!select) return;
    select.value = stored();
    select.addEventListener('change', () => {
      try {
        if (select.value === 'system') localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, select.value);
      } catch (e) {
        // Storage refused (private mode): the choice holds for this page only.
      }
      apply(select.value);
      document.dispatchEvent(new Event('themechange'));
    });
  });
})();
