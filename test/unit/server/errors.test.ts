import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpError, ERROR_CATALOGUE, conflict, invalidBody, invalidQuery, notFound } from '../../../src/server/errors.js';
import type { ApiErrorCode } from '../../../src/model/types.js';

const CODES: ApiErrorCode[] = ['unauthorized', 'not_found', 'invalid_body', 'invalid_query', 'conflict', 'payload_too_large', 'quota_exceeded', 'rate_limited', 'internal', 'unavailable'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('the error catalogue', () => {
  it('has exactly the codes of api-semantics.md, each with a 4xx/5xx status and a message', () => {
    expect(Object.keys(ERROR_CATALOGUE).sort()).toEqual([...CODES].sort());
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      expect(entry.message.length, code).toBeGreaterThan(0);
    }
    expect(ERROR_CATALOGUE.internal.status).toBe(500);
    expect(ERROR_CATALOGUE.unavailable.status).toBe(503);
    expect(Object.entries(ERROR_CATALOGUE).filter(([, e]) => e.status >= 500).map(([c]) => c)).toEqual(['internal', 'unavailable']);
  });

  it('builds the documented body, with details only when there are some', () => {
    expect(new HttpError('conflict').toBody()).toEqual({ error: { code: 'conflict', message: 'already exists' } });
    expect(invalidBody([{ path: 'name', message: 'is required' }]).toBody()).toEqual({
      error: { code: 'invalid_body', message: 'name: is required', details: [{ path: 'name', message: 'is required' }] },
    });
    expect(invalidQuery([{ path: 'max', message: 'bad' }]).status).toBe(400);
  });

  it('lets a route answer the seed\'s odd statuses while the code says what happened', () => {
    expect(notFound('alert', 400)).toMatchObject({ status: 400, code: 'not_found' });
    expect(invalidBody([], 404)).toMatchObject({ status: 404, code: 'invalid_body' });
    expect(conflict('name', 'x')).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('is the only source of codes: the server never spells a code the catalogue lacks', () => {
    const root = new URL('../../../src/server/', import.meta.url).pathname;
    for (const file of sourcesUnder(root)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/new HttpError\('([a-z_]+)'/g)) {
        expect(CODES, `${file}: ${match[1]}`).toContain(match[1]);
      }
    }
  });
});
