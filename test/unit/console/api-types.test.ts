import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSOLE_API_SCHEMA, consoleApiSchema } from '../../../scripts/console-api-types.js';

// That the console's code is checked against these types: test/integration/console/api-types-typecheck.test.ts.
describe("the console's API types", () => {
  it('are what scripts/console-api-types.ts generates from the OpenAPI document now (run it after an API change)', async () => {
    expect(readFileSync(CONSOLE_API_SCHEMA, 'utf8')).toBe(await consoleApiSchema());
  });
});
