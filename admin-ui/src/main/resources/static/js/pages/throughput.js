// The overview's throughput chart: cluster-wide bytes in/out per second and messages in per second of
// the last 15 minutes (GET /api/throughput, from the brokers' Prometheus counters), drawn with uPlot
// (WebJar, loaded on first use) and refreshed every scrape interval while the section is on the page.
import * as api from '../api.js';
import { h } from '../dom.js';

const UPLOT = '../../webjars/uplot/1.6.30/dist/';
const ANNOUNCE_EVERY_MS = 60000;
const WINDOW_S = 15 * 60;

function stylesheet(href) {
  const url = new URL(href, import.meta.url).href;
  if (![...document.querySelectorAll('link[rel=stylesheet]')].some((l) => l.href === url)) {
    document.head.append(h('link', { rel: 'stylesheet', href: url }));
  }
}

let uPlotModule;
function loadUPlot() {
  stylesheet(`${UPLOT}uPlot.min.css`);
  uPlotModule ??= import(`${UPLOT}uPlot.esm.js`).then((m) => m.default);
  return uPlotModule;
}

/** 1234 → "1.2 kB/s". */
export function bytesRate(value) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = value;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}/s`;
}

/** 12.34 → "12.3 messages/s". */
export function messagesRate(value) {
  const v = value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${v.toLocaleString('en')} ${v === 1 ? 'message' : 'messages'}/s`;
}

/**
 * A colour variable of css/theme.css as the canvas can use it: the variables are light-dark() pairs,
 * so the colour is resolved on a probe element in the current theme.
 */
function cssVar(name) {
  const probe = h('span', { hidden: true });
  probe.style.color = `var(${name})`;
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

/** "dark" or "light": the theme chosen in the header, else the system's. */
function theme() {
  const chosen = document.documentElement.dataset.theme;
  if (chosen) return chosen;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function time(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Builds the section; it polls until it is no longer in the document. */
export function throughputSection() {
  stylesheet('../../css/throughput.css');
  const summary = h('p', { id: 'throughput-summary', class: 'throughput-summary' }, 'Loading throughput…');
  const live = h('p', { id: 'throughput-live', class: 'visually-hidden', 'aria-live': 'polite' });
  const missing = h('p', { id: 'throughput-missing', class: 'throughput-missing', hidden: true });
  const bytesBox = h('figure', { class: 'throughput-chart', id: 'throughput-bytes', hidden: true },
    h('figcaption', {}, 'Bytes per second, in and out'));
  const messagesBox = h('figure', { class: 'throughput-chart', id: 'throughput-messages', hidden: true },
    h('figcaption', {}, 'Messages in per second'));
  const section = h('section', { class: 'throughput', 'aria-labelledby': 'throughput-title' },
    h('h2', { id: 'throughput-title' }, 'Throughput'),
    summary, live, missing,
    h('div', { class: 'throughput-charts' }, bytesBox, messagesBox));

  const scheme = window.matchMedia('(prefers-color-scheme: dark)');
  let charts = null;
  let data = null;
  let lastAnnounced = 0;
  let lastText = '';
  let lastWasEmpty = null;
  let timer;

  function destroyCharts() {
    if (charts) charts.forEach((c) => c.destroy());
    charts = null;
  }

  async function draw() {
    const uPlot = await loadUPlot();
    if (!section.isConnected || !data) return;
    const grid = cssVar('--border');
    const axis = { stroke: cssVar('--muted'), grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const xs = data.points.map((p) => p.time / 1000);
    const width = (box) => Math.max(240, box.clientWidth - 2);
    if (!charts) {
      // The x axis spans what was collected (at least a minute, at most 15), with a little room on the right.
      const pad = data.intervalSeconds || 5;
      // (From the points themselves: uPlot widens a single point's time range to a day.)
      const x = { time: true,
        range: () => {
          const first = data.points[0].time / 1000;
          const last = data.points[data.points.length - 1].time / 1000;
          return [last - Math.min(WINDOW_S, Math.max(60, last - first)), last + pad];
        } };
      const common = { height: 200, legend: { show: true }, cursor: { drag: { x: false, y: false } } };
      charts = [
        new uPlot({
          ...common, width: width(bytesBox),
          series: [{}, { label: 'In', points: { show: true }, stroke: cssVar('--accent'), width: 2, value: (u, v) => (v == null ? '–' : bytesRate(v)) },
            { label: 'Out', points: { show: true }, stroke: cssVar('--ok'), width: 2, dash: [6, 3], value: (u, v) => (v == null ? '–' : bytesRate(v)) }],
          axes: [{ ...axis }, { ...axis, size: 70, values: (u, vals) => vals.map((v) => bytesRate(v).replace('/s', '')) }],
          scales: { x, y: { range: (u, min, max) => [0, Math.max(max * 1.1, 1)] } },
        }, [xs, data.points.map((p) => p.bytesIn), data.points.map((p) => p.bytesOut)], bytesBox),
        new uPlot({
          ...common, width: width(messagesBox),
          series: [{}, { label: 'Messages in', points: { show: true }, stroke: cssVar('--warn-fg'), width: 2,
            value: (u, v) => (v == null ? '–' : messagesRate(v)) }],
          axes: [{ ...axis }, { ...axis, size: 60 }],
          scales: { x, y: { range: (u, min, max) => [0, Math.max(max * 1.1, 1)] } },
        }, [xs, data.points.map((p) => p.messagesIn)], messagesBox),
      ];
      section.dataset.theme = theme();
    } else {
      charts[0].setData([xs, data.points.map((p) => p.bytesIn), data.points.map((p) => p.bytesOut)]);
      charts[1].setData([xs, data.points.map((p) => p.messagesIn)]);
    }
  }

  function show(answer) {
    data = answer;
    const last = answer.points[answer.points.length - 1];
    const text = last
      ? `At ${time(last.time)}: ${bytesRate(last.bytesIn)} in, ${bytesRate(last.bytesOut)} out, `
        + `${messagesRate(last.messagesIn)} in.`
      : `Collecting… the first rates come after two scrapes, ${answer.intervalSeconds} s apart.`;
    summary.textContent = text;
    summary.classList.toggle('empty', !last);
    // Screen readers hear the summary when it changes: at once from or to "collecting", else at most once a minute.
    const now = Date.now();
    const stateChanged = (last == null) !== lastWasEmpty;
    if (text !== lastText && (stateChanged || now - lastAnnounced >= ANNOUNCE_EVERY_MS)) {
      lastWasEmpty = last == null;
      live.textContent = text;
      lastText = text;
      lastAnnounced = now;
    }
    const gone = answer.missingBrokers || [];
    missing.hidden = gone.length === 0;
    missing.textContent = gone.length === 0 ? ''
      : `${gone.length === 1 ? 'Broker' : 'Brokers'} ${gone.join(', ')} could not be scraped: the rates leave `
        + `${gone.length === 1 ? 'it' : 'them'} out.`;
    bytesBox.hidden = !last;
    messagesBox.hidden = !last;
    if (last) {
      draw().catch((e) => {
        summary.textContent = `${text} (The chart could not be drawn: ${e.message})`;
      });
    }
  }

  async function poll() {
    if (!section.isConnected && timer !== undefined) {
      destroyCharts();
      window.removeEventListener('resize', resized);
      scheme.removeEventListener('change', resized);
      document.removeEventListener('themechange', resized);
      return;
    }
    let interval = 5;
    try {
      const answer = await api.throughput();
      interval = answer.intervalSeconds || interval;
      if (section.isConnected || timer === undefined) show(answer);
    } catch (e) {
      summary.textContent = `Throughput unavailable: ${e.message}`;
    }
    timer = setTimeout(poll, interval * 1000);
  }

  let resizeTimer;
  const resized = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (!section.isConnected) return;
      destroyCharts();
      draw().catch(() => {});
    }, 150);
  };
  window.addEventListener('resize', resized);
  scheme.addEventListener('change', resized);
  document.addEventListener('themechange', resized);
  poll();
  return section;
}
