import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

type Operation = { operationId: string; security?: unknown[]; parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, unknown> };

/**
 * Every operation of the OpenAPI document, called with bad input of every kind it can take (no key, an unknown id,
 * a query of wrong values, bodies that are not JSON, not an object, or of wrong fields), must answer a status the
 * document lists for it: a client generated from the document meets no status it was not told of.
 */
describe('the OpenAPI document lists every status the server answers', () => {
  let server: TestServer;
  let doc: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    server = await startTestServer({ graphiteUrl: 'http://127.0.0.1:9', allowPrivateDestinations: true });
    doc = (await server.request('GET', '/v2/openapi.json', undefined, { key: null })).body;
  });
  afterAll(() => server?.close());

  /** Bad-input requests for one operation: [what, path with query, body, key]. */
  function probes(path: string, op: Operation): [string, string, unknown, string | null | undefined][] {
    const concrete = path.replaceAll('{id}', 'no-such-id').replace(/\{[^}]+\}/g, 'no-such-token');
    const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => `${encodeURIComponent(p.name)}=%00not-a-value-%3C%3E`);
    const body = op.requestBody !== undefined;
    const secured = op.security === undefined || op.security.length > 0;
    return [
      ...(secured ? ([['no key', concrete, undefined, null]] as const) : []),
      ['unknown id', concrete, body ? {} : undefined, undefined],
      ...(query.length > 0
        ? ([
            ['every query parameter wrong', `${concrete}?${query.join('&')}`, undefined, undefined],
            ['one query parameter wrong at a time', `${concrete}?${query[0]}`, undefined, undefined],
            ['a parameter it does not take', `${concrete}?no_such_parameter=1`, undefined, undefined],
          ] as const)
        : []),
      ...(body
        ? ([
            ['a body that is not JSON', concrete, '{"unterminated', undefined],
            ['a body that is not an object', concrete, [1, 2], undefined],
            ['a body of wrong fields', concrete, { name: 5, type: 'nope', destination: [], by: 7, until: 'soon', start_time: 99 }, undefined],
          ] as const)
        : []),
    ] as [string, string, unknown, string | null | undefined][];
  }

  it('for every operation and every kind of bad input', async () => {
    const undocumented: string[] = [];
    let calls = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [what, url, body, key] of probes(path, op)) {
          const answer = await server.request(method.toUpperCase(), url, body, key === undefined ? {} : { key });
          calls += 1;
          const documented = Object.keys(op.responses);
          const family = `${String(answer.status)[0]}XX`;
          if (!documented.includes(String(answer.status)) && !documented.includes(family)) {
            undocumented.push(`${method.toUpperCase()} ${path} (${op.operationId}), ${what}: ${answer.status} ${answer.text.slice(0, 120)}; documented ${documented.join(', ')}`);
          }
          // Bad input is a 4xx with the JSON error shape, never a 500.
          if (answer.status >= 500) undocumented.push(`${method.toUpperCase()} ${path}, ${what}: ${answer.status}`);
        }
      }
    }
    expect(calls).toBeGreaterThan(100);
    expect(undocumented).toEqual([]);
  }, 120_000);
});
