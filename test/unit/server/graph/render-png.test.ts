import { describe, expect, it } from 'vitest';
import { composeGraphSvg, PNG_MAX_SERIES, renderGraphPng, PNG_HEIGHT, PNG_WIDTH, THRESHOLD_COLOUR } from '../../../../src/server/graph/render-png.js';
import type { AlertGraph } from '../../../../src/server/graph/read-graph.js';
import { countColour, decodePng } from '../../../helpers/decode-png.js';

const from = 1_700_000_000;
const until = from + 7 * 86_400;

function graphOf(series: AlertGraph['criteria'][number]['series'], thresholds = [90]): AlertGraph {
  return { from, until, criteria: [{ name: 'alert_criteria', metric: 'm', type: 'above', thresholds, series }], alerting: [], settle_seconds: 60, error: null };
}

describe('the graph picture', () => {
  it('draws a week of 10 s points as a few hundred segments per series, keeping a one-point spike', () => {
    const points: [number, number | null][] = [];
    for (let t = from; t <= until; t += 10) points.push([t, t === from + 86_400 ? 500 : 10]);
    const svg = composeGraphSvg(graphOf([{ target: 'a', points }]));
    const path = /<path d="([^"]+)"/.exec(svg)![1]!;
    expect(path.split(/[ML]/).length - 1).toBeLessThanOrEqual(800);
    // The spike is the highest value: its y is the top of the plot's range (500 plus the 10% margin).
    const ys = path.split(/[ML]/).filter(Boolean).map((p) => Number(p.split(',')[1]));
    expect(Math.min(...ys)).toBeLessThan(40);
  });

  it('draws at most ten series, gaps as breaks, and the threshold in exact red pixels without any font', async () => {
    const series = Array.from({ length: 15 }, (_, i) => ({ target: `s${i}`, points: [[from, 1], [from + 60, null], [until, 2]] as [number, number | null][] }));
    const svg = composeGraphSvg(graphOf(series));
    expect(svg.match(/<path /g)).toHaveLength(PNG_MAX_SERIES * 2);
    expect(svg).not.toContain('<text');
    const png = decodePng(await renderGraphPng(graphOf(series)));
    expect([png.width, png.height]).toEqual([PNG_WIDTH, PNG_HEIGHT]);
    expect(countColour(png, THRESHOLD_COLOUR)).toBeGreaterThanOrEqual(2 * (PNG_WIDTH - 30));
  });
});
