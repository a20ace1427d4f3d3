import { describe, expect, it } from 'vitest';
import { renderImpactMarkdown } from '../../../src/impact/render-impact.js';
import type { PlanImpact } from '../../../src/impact/types.js';

/** A backtest whose one alert notifies a channel named by someone hostile. */
function impactNotifying(channel: string): PlanImpact {
  return {
    window_seconds: 7 * 86_400,
    from: '2026-11-17T00:00:00.000Z',
    until: '2026-11-24T00:00:00.000Z',
    step_seconds: 30,
    alerts: [
      { name: 'cpu', action: 'create', step_seconds: 30, fired: 1, alerting_minutes: 5, longest_episode_minutes: 5, notifications: { [channel]: 1 }, episodes: [] },
    ],
    skipped: [],
  };
}

describe('the backtest table in a PR comment', () => {
  it('keeps a channel name with a pipe, HTML and a line break inside its own cell', () => {
    const lines = renderImpactMarkdown(impactNotifying('pager | </details>\n# Fake'));
    const row = lines.find((line) => line.startsWith('| `cpu`'))!;
    expect(row).toBeDefined();
    // Five cells: the pipe in the name is escaped, so it adds none.
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(5);
    expect(row).not.toContain('</details>');
    expect(row).toContain('&lt;/details&gt;');
    expect(lines.join('\n')).not.toMatch(/^# Fake/m);
  });
});
