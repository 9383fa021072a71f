// A small SVG line chart of a consumer group's total lag since its page opened: one point per answer
// of the page's refreshes, at most MAX_POINTS (the oldest drop off). No library: a polyline in a viewBox.
import { h } from '../dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 120;
const PAD = 4;
/** An hour of 5 s refreshes. */
export const MAX_POINTS = 720;

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

/**
 * The x/y coordinates of points [{ t (ms), lag }] in a WIDTH × HEIGHT box, lag 0 at the bottom, the largest
 * lag (at least 1) at the top; a single point is drawn as a flat line.
 */
export function coordinates(points) {
  if (points.length === 0) return [];
  const t0 = points[0].t;
  const span = Math.max(1, points[points.length - 1].t - t0);
  const max = Math.max(1, ...points.map((p) => p.lag));
  const y = (lag) => PAD + (HEIGHT - 2 * PAD) * (1 - lag / max);
  if (points.length === 1) return [[0, y(points[0].lag)], [WIDTH, y(points[0].lag)]];
  return points.map((p) => [((p.t - t0) / span) * WIDTH, y(p.lag)]);
}

/** The chart: add(lag) records a point at now and redraws; element is the figure to put on the page. */
export function lagChart() {
  const points = [];
  const line = svg('polyline', { fill: 'none', stroke: 'currentColor', 'stroke-width': '2',
    'vector-effect': 'non-scaling-stroke' });
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', class: 'lag-chart',
    id: 'lag-chart', role: 'img', 'aria-labelledby': 'lag-chart-caption' }, line);
  const caption = h('figcaption', { id: 'lag-chart-caption' });
  const element = h('figure', { class: 'lag-history' }, chart, caption);

  function add(lag, t = Date.now()) {
    points.push({ t, lag });
    if (points.length > MAX_POINTS) points.shift();
    line.setAttribute('points', coordinates(points).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '));
    chart.dataset.points = String(points.length);
    chart.dataset.last = String(lag);
    const max = Math.max(...points.map((p) => p.lag));
    const since = new Date(points[0].t).toLocaleTimeString();
    caption.textContent = `Total lag since ${since}: now ${lag}, highest ${max} (${points.length} `
      + `reading${points.length === 1 ? '' : 's'})`;
  }
  return { element, add };
}
