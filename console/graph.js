// @ts-check
/**
 * One uPlot chart per criterion: its series, the threshold as a dashed line, and the alerting periods shaded (drawn
 * in uPlot's drawClear hook, under the lines). A caption says in words what the chart shows.
 */
import uPlot from './vendor/uplot.esm.js';
import { h } from './dom.js';
import { formatTime, formatValue } from './format.js';

const COLORS = ['#0a58ca', '#8250df', '#1a7f37', '#bc4c00', '#bf3989', '#57606a'];
const THRESHOLD = '#a40e26';
const SHADE = 'rgba(164, 14, 38, 0.13)';
/** The settle delay's band: data there may still be arriving, so the evaluator has not judged it yet. */
const UNSETTLED = 'rgba(87, 96, 106, 0.16)';

/**
 * @typedef {import('./api-types').Schema<'AlertGraph'>} Graph
 * @typedef {Graph['criteria'][number]} Criterion
 */

/**
 * Draws every criterion of a graph answer into `container`; returns a function that destroys the charts.
 * @param {HTMLElement} container
 * @param {Graph} graph
 * @returns {() => void}
 */
export function drawGraph(container, graph) {
  /** @type {any[]} */
  const plots = [];
  for (const criterion of graph.criteria) {
    const chart = h('div', { class: 'chart-canvas' });
    const caption = describe(criterion, graph);
    const figure = h(
      'figure',
      { class: 'chart' },
      h('figcaption', {}, h('div', { class: 'chart-title' }, `${criterion.name}: ${criterion.metric} (${criterion.type} ${criterion.thresholds.join(', ')})`), h('div', { class: 'hint' }, caption)),
      chart,
    );
    container.appendChild(figure);
    // uPlot's types want typed arrays; it reads plain ones with nulls for gaps alike.
    const tables = /** @type {any[]} */ (criterion.series.map((s) => [s.points.map((p) => p[0]), s.points.map((p) => p[1])]));
    /** @type {any[]} */
    let data = tables.length ? uPlot.join(tables) : [[graph.from, graph.until]];
    const xs = data[0].length ? data[0] : [graph.from, graph.until];
    data = [xs, ...data.slice(1)];
    for (const threshold of criterion.thresholds) data.push(xs.map(() => threshold));
    const width = chartWidth(container);
    const plot = new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: true, range: () => [graph.from, graph.until] } },
        series: [
          { label: 'time' },
          ...criterion.series.map((s, i) => ({ label: s.target, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: false })),
          ...criterion.thresholds.map((/** @type {number} */ t) => ({ label: `threshold ${formatValue(t)}`, stroke: THRESHOLD, width: 1.5, dash: [6, 4], points: { show: false } })),
        ],
        axes: [{}, { size: 60 }],
        hooks: {
          drawClear: [
            (/** @type {any} */ u) => {
              const ctx = u.ctx;
              ctx.save();
              ctx.fillStyle = SHADE;
              for (const period of graph.alerting) {
                const left = u.valToPos(Math.max(period.from, graph.from), 'x', true);
                const right = u.valToPos(Math.min(period.until ?? graph.until, graph.until), 'x', true);
                if (right > left) ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
              }
              const settle = graph.settle_seconds ?? 0;
              if (settle > 0) {
                // The 30 s bucket that reaches into the delay is not judged either: the band starts at its start.
                const cutoff = Math.floor((graph.until - settle) / 30) * 30;
                const left = u.valToPos(Math.max(cutoff, graph.from), 'x', true);
                const right = u.valToPos(graph.until, 'x', true);
                ctx.fillStyle = UNSETTLED;
                if (right > left) ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
                ctx.fillStyle = '#57606a';
                ctx.font = `${Math.round(11 * devicePixelRatio)}px system-ui, sans-serif`;
                ctx.textAlign = 'right';
                ctx.fillText('not yet judged', right - 4 * devicePixelRatio, u.bbox.top + 14 * devicePixelRatio);
              }
              ctx.restore();
            },
          ],
        },
      },
      data,
      chart,
    );
    plots.push(plot);
  }
  const resize = () => {
    for (const plot of plots) plot.setSize({ width: chartWidth(container), height: 220 });
  };
  window.addEventListener('resize', resize);
  return () => {
    window.removeEventListener('resize', resize);
    for (const plot of plots) plot.destroy();
  };
}

/**
 * The width a chart gets: its section's, a little less for the plot's own padding, never under a phone's.
 * @param {HTMLElement} container
 */
function chartWidth(container) {
  return Math.max(240, Math.floor((container.clientWidth || 600) - 8));
}

/**
 * The chart in words, for everyone who cannot see it.
 * @param {Criterion} criterion
 * @param {Graph} graph
 */
function describe(criterion, graph) {
  const latest = criterion.series
    .map((s) => {
      const last = [...s.points].reverse().find((p) => p[1] !== null);
      return last ? `${s.target} latest ${formatValue(last[1])}` : `${s.target} no data`;
    })
    .join('; ');
  const periods = graph.alerting.length
    ? `Alerting ${graph.alerting.map((p) => `${formatTime(p.from)} – ${p.until ? formatTime(p.until) : 'now'}`).join(', ')} (shaded).`
    : 'Not alerting in this range.';
  const settle = graph.settle_seconds ?? 0;
  const unsettled = settle > 0 ? ` The last ${settle} s, where points may still be arriving, are not judged yet (grey band).` : '';
  return `${latest || 'No series.'} Threshold ${criterion.thresholds.map(formatValue).join(', ')} (dashed). ${periods}${unsettled}`;
}
