import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WINDOW_LIMITS } from '../../../../src/server/validation/window-rules.js';

const schema = JSON.parse(readFileSync(new URL('../../../../schemas/maintenance-window.schema.json', import.meta.url), 'utf8'));

describe("a maintenance window's limits", () => {
  it('are the same in the definitions schema as in the API, so validate refuses what the server would', () => {
    const fields = schema.$defs.fields.properties;
    expect(fields.name.maxLength).toBe(WINDOW_LIMITS.nameLength);
    expect(fields.reason.maxLength).toBe(WINDOW_LIMITS.reasonLength);
    for (const key of ['alert_names', 'metrics', 'channels']) {
      expect(fields.match.properties[key].maxItems, key).toBe(WINDOW_LIMITS.patternsPerKey);
      expect(fields.match.properties[key].items.maxLength, key).toBe(WINDOW_LIMITS.patternLength);
    }
    expect(fields.duration.maximum).toBe(WINDOW_LIMITS.maxDuration);
  });
});
