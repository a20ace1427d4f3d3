import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WINDOW_LIMITS } from '../../../src/model/window-rules.js';

const schema = JSON.parse(readFileSync(new URL('../../../schemas/maintenance-window.schema.json', import.meta.url), 'utf8'));

describe("a maintenance window's limits", () => {
  it('are the same in the definitions schema as in the API, so validate refuses what the server would', () => {
    const fields = schema.$defs.fields.properties;
    expect(fields.name.maxLength).toBe(WINDOW_LIMITS.nameLength);
    expect(fields.reason.maxLength).toBe(WINDOW_LIMITS.reasonLength);
    for (const key of ['alert_names', 'metrics', 'channels']) {
      expect(fields.match.properties[key].maxItems, key).toBe(WINDOW_LIMITS.patternsPerKey);
      expect(fields.match.properties[key].items.maxLength, key).toBe(WINDOW_LIMITS.patternLength);
    }
    expect(schema.$defs.minutes.maximum).toBe(WINDOW_LIMITS.maxDuration);
    expect(schema.$defs.definition.properties.duration.anyOf[0].maximum).toBe(WINDOW_LIMITS.maxDuration);
  });
});

describe("a maintenance window's rules, written once", () => {
  const weekly = { name: 'w', match: { metrics: ['web.*.**'] }, start_time: '02:00', repeat: ['sun' as const], duration: 60 };

  it('refuse a ** glob (one * in Graphite, never recursive) in definitions and in the API, in the same words', async () => {
    const { checkWindowBody, checkWindowRules } = await import('../../../src/model/window-rules.js');
    const words = 'uses **, which is not recursive in a Graphite glob (a wildcard never crosses a dot: ** is one *); write one * per path node, e.g. web.*.*, and a pattern per depth';
    expect(checkWindowRules(weekly)).toEqual([{ path: 'match.metrics.0', message: words }]);
    const api = checkWindowBody(weekly);
    expect(api.ok ? [] : api.problems).toEqual([{ path: 'match.metrics[0]', message: words }]);
  });

  it('say a start without offset, an unknown zone and a too-long duration alike for both', async () => {
    const { checkWindowBody, checkWindowRules } = await import('../../../src/model/window-rules.js');
    const window = { name: 'w', match: { alert_names: ['*'] }, starts_at: '2026-12-24T22:00:00', timezone: 'Mars/Base', duration: 525_601 };
    const fromRules = checkWindowRules(window);
    const api = checkWindowBody(window);
    expect(fromRules.map((problem) => problem.path)).toEqual(['starts_at', 'timezone', 'duration']);
    expect(api.ok ? [] : api.problems).toEqual(fromRules);
    // Definitions may also write the duration in the grammar; the API takes minutes only.
    expect(checkWindowRules({ ...weekly, match: {}, duration: '1h30m' })).toEqual([]);
    const text = checkWindowBody({ ...weekly, match: { alert_names: ['*'] }, duration: '1h30m' });
    expect(text.ok ? [] : text.problems.map((problem) => problem.path)).toEqual(['duration']);
  });
});
