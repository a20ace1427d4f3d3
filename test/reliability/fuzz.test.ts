import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.js';

// Bounded so the file runs in seconds; FUZZ_RUNS=1000 for a longer hunt (the seed is printed on failure).
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

let server: TestServer;
const seeded = { alert: '', channel: '', schedule: '' };

beforeAll(async () => {
  server = await startTestServer();
  seeded.channel = (await server.request('POST', '/v2/notifications/', {
    type: 'webhook',
    description: 'fuzz hook',
    destination: 'https://example.com/hook',
  })).body.id;
  seeded.schedule = (await server.request('POST', '/v2/schedules/', {
    name: 'fuzz schedule',
    start_time: '03:00',
    duration: 10,
  })).body.id;
  seeded.alert = (await server.request('POST', '/v2/alerts/', {
    name: 'fuzz alert',
    metric: 'sumSeries(fuzz.*)',
    alert_criteria: { type: 'above', above_value: 1 },
  })).body.id;
  for (const id of Object.values(seeded)) expect(id).toMatch(/^[0-9a-f]{32}$/);
});
afterAll(() => server.close());

// Values ------------------------------------------------------------------------------------------------------

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', 'a', 'Email me', 'fuzz hook', '%', '\u0000', '\ud800', '🔥'.repeat(100), 'x'.repeat(5000)),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1, -1, 1e308, -1e308, 5e-324, 2 ** 53, 2 ** 53 + 2, 10_080, 10_081, 525_600, 525_601),
);
/** Anything JSON can carry, biased towards values the validators must look at twice. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: text },
  { weight: 2, arbitrary: number },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]], { a: {} }) },
);
/** The id of a seeded resource, read when a value is generated (the seeds are made in beforeAll). */
function seededId(kind: keyof typeof seeded): fc.Arbitrary<string> {
  return fc.constant(null).map(() => seeded[kind]);
}
const idLike = fc.oneof(
  text,
  seededId('channel'),
  fc.constant('0'.repeat(32)),
);
const letters = fc.constantFrom('a', 'b', 'c', 'd', 'z', 'A', 'B', 'aa', '', '1', 'é');

function fieldOr<T>(arbitrary: fc.Arbitrary<T>) {
  return fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: anything });
}

const criteria = fc.record(
  {
    type: fieldOr(fc.constantFrom('above', 'below', 'outside_bounds', 'missing', 'ABOVE', '')),
    above_value: fieldOr(number),
    below_value: fieldOr(number),
    time_period: fieldOr(fc.oneof(fc.integer({ min: -5, max: 20_000 }), fc.constantFrom(null, '', '5', 1.5))),
    metric: fieldOr(text),
  },
  { requiredKeys: [] },
);

const alertBody = fc.record(
  {
    name: fieldOr(text),
    metric: fieldOr(fc.oneof(text, fc.constantFrom('sumSeries(a.*)', 'a.b.c', 'f(', ')('))),
    alert_criteria: fieldOr(criteria),
    additional_criteria: fieldOr(fc.dictionary(letters, fieldOr(criteria), { maxKeys: 5 })),
    expression: fieldOr(fc.oneof(fc.stringMatching(/^[a-eA-E&|() ]{0,30}$/), text)),
    notification_channels: fieldOr(fc.array(fc.oneof(idLike, fc.constant('Email me')), { maxLength: 4 })),
    notification_type: fieldOr(
      fc.oneof(
        fc.constantFrom('state_change', ['state_change'], [], '', null, 'every', ['every']),
        fc.tuple(fc.constant('every'), number),
      ),
    ),
    scheduled_mutes: fieldOr(fc.array(fc.oneof(idLike, seededId('schedule')), { maxLength: 3 })),
    info: fieldOr(fc.oneof(text, fc.constant(null))),
    on_query_failure: fieldOr(fc.constantFrom(null, 'ignore', 'notify', 'NOTIFY', '')),
    above_vale: number,
    [`x-${'unknown'}`]: anything,
  },
  { requiredKeys: [] },
);

const channelBody = fc.record(
  {
    type: fieldOr(fc.constantFrom('email', 'pagerduty', 'slack', 'webhook', 'victorops', 'opsgenie', 'sms')),
    description: fieldOr(text),
    destination: fieldOr(
      fc.oneof(text, fc.constantFrom('a@example.com', 'a@b.c, d@e.f', 'https://example.com/x', 'http://', 'key')),
    ),
    auto_resolve: fieldOr(fc.boolean()),
    unknown: anything,
  },
  { requiredKeys: [] },
);

const scheduleBody = fc.record(
  {
    name: fieldOr(text),
    start_time: fieldOr(fc.oneof(fc.stringMatching(/^\d{1,2}:\d{1,2}$/), fc.constantFrom('24:00', '23:59', '00:00', '7:5'))),
    duration: fieldOr(fc.oneof(fc.integer({ min: -2, max: 2_000_000 }), number)),
    timezone: fieldOr(fc.oneof(fc.constantFrom('UTC', 'UTC+14', 'UTC-12', 'UTC+15', 'UTC+5:30', 'utc'), text)),
    repeat: fieldOr(fc.array(fc.constantFrom('mon', 'tue', 'sun', 'MON', 'xyz', ''), { maxLength: 8 })),
    unknown: anything,
  },
  { requiredKeys: [] },
);

const muteBody = fc.record(
  {
    duration: fieldOr(fc.oneof(fc.integer({ min: -1, max: 600_000 }), number)),
    ids: fieldOr(fc.array(fc.oneof(idLike, seededId('alert')), { maxLength: 3 })),
    search: fieldOr(text),
  },
  { requiredKeys: [] },
);

/** A body as sent: mostly shaped objects, sometimes any JSON, sometimes not JSON at all. */
function bodyOf(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    // A string is sent as it is: JSON fragments, broken JSON, binary-ish text.
    { weight: 1, arbitrary: fc.oneof(fc.string(), fc.constantFrom('{', '{"name":', '[]', 'null', '1e999', '"x"', '\u0000')) },
  );
}

/** A query string: known parameter names (and aliases, and unknown ones), each with any value, repeated at will. */
function queryOf(names: string[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    text,
    number.map(String),
    fc.constantFrom('', '0', '1', '100', '101', '-1', '1.5', 'true', 'false', 'alerting', 'NaN', 'Infinity', '1e3'),
  );
  return fc.oneof(
    fc
      .array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: text }), value), {
        maxLength: 6,
      })
      .map((pairs) => new URLSearchParams(pairs).toString()),
    // Raw, not form-encoded: stray %, &&, = without a name.
    fc.constantFrom('%', '%zz', '&&&', '=', 'page=%FF', 'max=1&max=2', 'id', 'page=1e2', `name=${'%41'.repeat(2000)}`),
  );
}

// Checks -------------------------------------------------------------------------------------------------------

function assertAnswered(response: TestResponse, what: string): void {
  // Never a 5xx, and every error is the JSON error body of the API.
  expect(response.status, `${what} -> ${response.status} ${response.text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status >= 400) expect(response.body?.error?.code, `${what}: ${response.text.slice(0, 300)}`).toBeTypeOf('string');
}

async function stillServes(): Promise<void> {
  expect((await server.request('GET', '/healthz')).status).toBe(200);
  const name = `after fuzz ${Math.random()}`;
  const created = await server.request('POST', '/v2/alerts/', {
    name,
    metric: 'ok.metric',
    alert_criteria: { type: 'below', below_value: 3 },
  });
  expect(created.status).toBe(201);
  // The seeded alert may have been deleted by the path fuzzing: read the new one.
  const read = await server.request('GET', `/v2/alerts/${created.body.id}/`);
  expect(read.body.name).toBe(name);
}

async function fuzzBodies(method: string, path: () => string, body: fc.Arbitrary<unknown>): Promise<void> {
  await fc.assert(
    fc.asyncProperty(body, async (sent) => {
      const response = await server.request(method, path(), sent);
      assertAnswered(response, `${method} ${path()} ${JSON.stringify(sent)?.slice(0, 300)}`);
    }),
    { numRuns: RUNS },
  );
  await stillServes();
}

async function fuzzQuery(path: string, names: string[]): Promise<void> {
  await fc.assert(
    fc.asyncProperty(queryOf(names), async (query) => {
      const response = await server.request('GET', `${path}?${query}`);
      assertAnswered(response, `GET ${path}?${query.slice(0, 300)}`);
    }),
    { numRuns: RUNS },
  );
  await stillServes();
}

describe('fuzzed bodies never get a 5xx and the server keeps serving', () => {
  it('POST /v2/alerts/', () => fuzzBodies('POST', () => '/v2/alerts/', bodyOf(alertBody)));
  it('PUT /v2/alerts/{id}/', () => fuzzBodies('PUT', () => `/v2/alerts/${seeded.alert}/`, bodyOf(alertBody)));
  it('POST /v2/notifications/', () => fuzzBodies('POST', () => '/v2/notifications/', bodyOf(channelBody)));
  it('PUT /v2/notifications/{id}/', () =>
    fuzzBodies('PUT', () => `/v2/notifications/${seeded.channel}/`, bodyOf(channelBody)));
  it('POST /v2/schedules/', () => fuzzBodies('POST', () => '/v2/schedules/', bodyOf(scheduleBody)));
  it('PUT /v2/schedules/{id}/', () => fuzzBodies('PUT', () => `/v2/schedules/${seeded.schedule}/`, bodyOf(scheduleBody)));
  it('POST /v2/alerts/{id}/muted/', () => fuzzBodies('POST', () => `/v2/alerts/${seeded.alert}/muted/`, bodyOf(muteBody)));
  it('POST and DELETE /v2/alerts/muted/', async () => {
    await fuzzBodies('POST', () => '/v2/alerts/muted/', bodyOf(muteBody));
    await fuzzBodies('DELETE', () => '/v2/alerts/muted/', bodyOf(muteBody));
  });
});

describe('fuzzed queries never get a 5xx and the server keeps serving', () => {
  it('GET /v2/alerts/', () => fuzzQuery('/v2/alerts/', ['name', 'id', 'search', 'page', 'max']));
  it('GET /v2/notifications/', () =>
    fuzzQuery('/v2/notifications/', ['type', 'description', 'descriptions', 'id', 'auto_resolve', 'page', 'max']));
  it('GET /v2/schedules/', () => fuzzQuery('/v2/schedules/', ['name', 'id', 'page', 'max']));
  it('GET /v2/alerts/history/', () =>
    fuzzQuery('/v2/alerts/history/', ['id', 'alert_id', 'days', 'status', 'value', 'time']));
});

/** UTF-8 bytes percent-encoded one by one (lone surrogates become U+FFFD, as any client would send them). */
function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}
/** Path pieces no encoder produces: broken escapes, dots, the seeded id. */
const rawPathPiece = fc.oneof(
  fc.constantFrom('%', '%ff', '%E0%A4%A', '%00', '..', '.', '%2e%2e', '%2F', 'history', 'muted'),
  seededId('alert'),
);

describe('fuzzed paths never get a 5xx', () => {
  it('GET, PUT, DELETE of items and mutes with any id', async () => {
    const method = fc.constantFrom('GET', 'PUT', 'DELETE', 'POST', 'PATCH');
    const prefix = fc.constantFrom('/v2/alerts/', '/v2/notifications/', '/v2/schedules/', '/v2/alerts/muted/', '/v2/');
    const suffix = fc.constantFrom('', '/', '/muted/', '/muted', '//');
    await fc.assert(
      fc.asyncProperty(method, prefix, fc.oneof(text.map(percentEncode), rawPathPiece), suffix, async (m, p, id, s) => {
        const path = `${p}${id}${s}`;
        const response = await server.request(m, path, m === 'GET' || m === 'DELETE' ? undefined : {});
        assertAnswered(response, `${m} ${path.slice(0, 300)}`);
      }),
      { numRuns: RUNS * 2 },
    );
    await stillServes();
  });
});

describe('hand-picked hostile bodies', () => {
  const deep = (n: number, open: string, close: string, inner: string) => `${open.repeat(n)}${inner}${close.repeat(n)}`;
  const cases: Array<[string, string, string]> = [
    ['JSON nested 100,000 deep', '/v2/alerts/', `{"name":${deep(100_000, '[', ']', '1')}}`],
    ['an expression with 50,000 nested parentheses', '/v2/alerts/', JSON.stringify({
      name: 'deep expression',
      metric: 'm',
      alert_criteria: { type: 'above', above_value: 1 },
      additional_criteria: { b: { type: 'above', above_value: 1, metric: 'n' } },
      expression: deep(50_000, '(', ')', 'a && b'),
    })],
    ['an expression of 200,000 operators', '/v2/alerts/', JSON.stringify({
      name: 'long expression',
      metric: 'm',
      alert_criteria: { type: 'above', above_value: 1 },
      additional_criteria: { b: { type: 'above', above_value: 1, metric: 'n' } },
      expression: Array.from({ length: 100_000 }, () => 'a && b').join(' || '),
    })],
    ['a metric of 900 KiB', '/v2/alerts/', JSON.stringify({ name: 'big', metric: 'm'.repeat(900 * 1024), alert_criteria: { type: 'above', above_value: 1 } })],
    ['50,000 notification channels', '/v2/alerts/', JSON.stringify({
      name: 'many channels',
      metric: 'm',
      alert_criteria: { type: 'above', above_value: 1 },
      notification_channels: Array.from({ length: 50_000 }, (_, i) => `c${i}`),
    })],
    ['50,000 ids to mute', '/v2/alerts/muted/', JSON.stringify({ duration: 5, ids: Array.from({ length: 50_000 }, (_, i) => `${i}`) })],
    ['a __proto__ key', '/v2/alerts/', '{"__proto__":{"polluted":true},"name":"p","metric":"m","alert_criteria":{"type":"above","above_value":1}}'],
    ['a lone surrogate in a name', '/v2/alerts/', '{"name":"\\ud800","metric":"m","alert_criteria":{"type":"above","above_value":1}}'],
    ['a NUL in a name', '/v2/notifications/', '{"type":"webhook","description":"a\\u0000b","destination":"https://example.com/"}'],
  ];
  for (const [what, path, body] of cases) {
    it(`${what}: answered below 500, quickly`, async () => {
      const started = performance.now();
      const response = await server.request('POST', path, body);
      assertAnswered(response, what);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await stillServes();
    });
  }
});
