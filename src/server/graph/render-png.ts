import type { AlertGraph } from './read-graph.js';

/** The picture's size in pixels. */
export const PNG_WIDTH = 800;
export const PNG_HEIGHT = 300;
/** The threshold lines' colour (tests look for it in the pixels). */
export const THRESHOLD_COLOUR = '#d62728';
/** Series colours: none of them red, so a threshold is never mistaken for a series. */
const SERIES_COLOURS = ['#1f77b4', '#2ca02c', '#9467bd', '#17becf', '#8c564b', '#7f7f7f', '#bcbd22', '#e377c2'];
const MARGIN = 12;
/** Series drawn at most: a picture in a chat message shows a few lines, not a fleet (the console shows them all). */
export const PNG_MAX_SERIES = 10;
/** Columns each series is reduced to (its lowest and highest value per column, so spikes stay visible). */
const COLUMNS = 400;

/**
 * The graph of an alert's first criterion as a PNG: its series, its thresholds (red, dashed-free so they are exact
 * pixels), the alerting periods shaded. No text: nothing depends on fonts being installed (resvg is told to load
 * none), and the message the picture goes with says what it is.
 */
export async function renderGraphPng(graph: AlertGraph): Promise<Buffer> {
  // Loaded on the first picture: the native renderer costs every other command (and server) nothing.
  const { Resvg } = await import('@resvg/resvg-js');
  return new Resvg(composeGraphSvg(graph), { font: { loadSystemFonts: false }, fitTo: { mode: 'original' } }).render().asPng();
}

/** The SVG the PNG is rendered from (every value is a number: nothing from the alert's text goes in). */
export function composeGraphSvg(graph: AlertGraph): string {
  const criterion = graph.criteria[0];
  const series = (criterion?.series ?? []).slice(0, PNG_MAX_SERIES).map((one) => ({ ...one, points: reduceToColumns(one.points, graph.from, graph.until) }));
  const thresholds = criterion?.thresholds ?? [];
  const values = [...thresholds, ...series.flatMap((one) => one.points.flatMap(([, value]) => (value === null ? [] : [value])))];
  let low = values.length > 0 ? Math.min(...values) : 0;
  let high = values.length > 0 ? Math.max(...values) : 1;
  if (high === low) {
    high += 1;
    low -= 1;
  }
  const pad = (high - low) * 0.1;
  low -= pad;
  high += pad;
  const span = Math.max(1, graph.until - graph.from);
  const x = (time: number) => round(MARGIN + ((time - graph.from) / span) * (PNG_WIDTH - 2 * MARGIN));
  const y = (value: number) => round(PNG_HEIGHT - MARGIN - ((value - low) / (high - low)) * (PNG_HEIGHT - 2 * MARGIN));

  const parts: string[] = [`<rect width="${PNG_WIDTH}" height="${PNG_HEIGHT}" fill="#ffffff"/>`];
  for (const period of graph.alerting) {
    const left = x(Math.max(period.from, graph.from));
    const right = x(Math.min(period.until ?? graph.until, graph.until));
    if (right > left) parts.push(`<rect x="${left}" y="${MARGIN}" width="${round(right - left)}" height="${PNG_HEIGHT - 2 * MARGIN}" fill="#fbe3e4"/>`);
  }
  parts.push(`<rect x="${MARGIN}" y="${MARGIN}" width="${PNG_WIDTH - 2 * MARGIN}" height="${PNG_HEIGHT - 2 * MARGIN}" fill="none" stroke="#cccccc"/>`);
  series.forEach((one, index) => {
    // A gap in the data is a gap in the line: each run of non-null points is a path of its own.
    const runs: string[] = [];
    let run: string[] = [];
    for (const [time, value] of one.points) {
      if (value === null) {
        if (run.length > 0) runs.push(run.join(' '));
        run = [];
      } else run.push(`${run.length === 0 ? 'M' : 'L'}${x(time)},${y(value)}`);
    }
    if (run.length > 0) runs.push(run.join(' '));
    const colour = SERIES_COLOURS[index % SERIES_COLOURS.length];
    for (const d of runs) parts.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.5" stroke-linejoin="round"/>`);
  });
  for (const threshold of thresholds) {
    const at = Math.round(y(threshold));
    parts.push(`<line x1="${MARGIN}" y1="${at}" x2="${PNG_WIDTH - MARGIN}" y2="${at}" stroke="${THRESHOLD_COLOUR}" stroke-width="2" shape-rendering="crispEdges"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PNG_WIDTH}" height="${PNG_HEIGHT}" viewBox="0 0 ${PNG_WIDTH} ${PNG_HEIGHT}">${parts.join('')}</svg>`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * A series reduced to at most two points (its lowest and highest, in time order) per column of the picture: the
 * same line as every point would draw, at a fraction of the path (a week of 10 s points is 60,000 of them).
 */
function reduceToColumns(points: readonly [number, number | null][], from: number, until: number): [number, number | null][] {
  if (points.length <= 2 * COLUMNS) return [...points];
  const width = Math.max(1, until - from) / COLUMNS;
  const out: [number, number | null][] = [];
  // Plain numbers, not a pair per point: this loop sees every point of a week.
  let column = -1;
  let count = 0;
  let lowTime = 0;
  let lowValue = 0;
  let highTime = 0;
  let highValue = 0;
  let gap = false;
  const flush = () => {
    if (count > 0) {
      if (lowTime === highTime) out.push([lowTime, lowValue]);
      else if (lowTime < highTime) out.push([lowTime, lowValue], [highTime, highValue]);
      else out.push([highTime, highValue], [lowTime, lowValue]);
    } else if (gap) out.push([from + (column + 1) * width, null]);
    count = 0;
    gap = false;
  };
  for (let i = 0; i < points.length; i += 1) {
    const time = points[i]![0];
    const value = points[i]![1];
    const at = Math.min(COLUMNS - 1, Math.floor((time - from) / width));
    if (at !== column) {
      flush();
      column = at;
    }
    if (value === null) {
      // A column without any value is a gap; one with values keeps the line going.
      gap = true;
      continue;
    }
    if (count === 0 || value < lowValue) {
      lowValue = value;
      lowTime = time;
    }
    if (count === 0 || value > highValue) {
      highValue = value;
      highTime = time;
    }
    count += 1;
  }
  flush();
  return out;
}
