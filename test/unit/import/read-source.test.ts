import nock from 'nock';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importSources } from '../../../src/import/index.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/import/', import.meta.url));
const fixture = (path: string) => readFileSync(`${FIXTURES}${path}`, 'utf8');

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

describe('import from a URL', () => {
  it("reads Moira's triggers and user settings with the token from MOIRA_TOKEN, read-only", async () => {
    nock('https://moira.example.com', { reqheaders: { authorization: 'Bearer moira-secret' } })
      .get('/api/trigger').reply(200, fixture('moira/triggers.json'))
      .get('/api/user/settings').reply(200, fixture('moira/settings.json'));
    const { result, origins } = await importSources('moira', ['https://moira.example.com/'], { MOIRA_TOKEN: 'moira-secret' });
    expect(origins).toEqual(['https://moira.example.com/api/trigger', 'https://moira.example.com/api/user/settings']);
    expect(result.rules).toHaveLength(6);
    expect(result.channels.map((c) => c.description)).toContain('Ops PagerDuty');
  });

  it("reads Grafana's rule export, and its contact points without decrypt when the token may not decrypt", async () => {
    nock('https://grafana.example.com', { reqheaders: { authorization: 'Bearer g-token' } })
      .get('/api/v1/provisioning/alert-rules/export').query({ format: 'json' }).reply(200, fixture('grafana/rules.yaml'))
      .get('/api/v1/provisioning/contact-points/export').query({ format: 'json', decrypt: 'true' }).reply(403, { message: 'forbidden' })
      .get('/api/v1/provisioning/contact-points/export').query({ format: 'json' }).reply(200, fixture('grafana/contact-points.yaml'));
    const { result } = await importSources('grafana', ['https://grafana.example.com'], { GRAFANA_TOKEN: 'g-token' });
    expect(result.rules).toHaveLength(5);
  });

  it('follows no redirect (the token would go along) and names only the origin it points to', async () => {
    nock('https://moira.example.com').get('/api/trigger').reply(302, '', { location: 'https://elsewhere.example.net/steal?token=1' });
    await expect(importSources('moira', ['https://moira.example.com'], { MOIRA_TOKEN: 't' })).rejects.toThrow(
      'GET https://moira.example.com/api/trigger answered with a redirect (HTTP 302 to https://elsewhere.example.net): not followed, the token would go along; pass the URL it names',
    );
  });

  it('says which variable to set when the tool refuses the token, and refuses a token in the URL', async () => {
    nock('https://grafana.example.com').get('/api/v1/provisioning/alert-rules/export').query(true).reply(401, {});
    await expect(importSources('grafana', ['https://grafana.example.com'], {})).rejects.toThrow(/answered 401: set GRAFANA_TOKEN/);
    await expect(importSources('grafana', ['https://user:pass@grafana.example.com'], {})).rejects.toThrow('put the grafana token in GRAFANA_TOKEN, not in the URL');
  });

  it('stops reading an answer larger than the cap', async () => {
    nock('https://moira.example.com').get('/api/trigger').reply(200, 'x'.repeat(2048));
    await expect(importSources('moira', ['https://moira.example.com'], { ALERTFORM_MAX_ANSWER_BYTES: '1024' })).rejects.toThrow(/answered more than 1,024 bytes/);
  });
});
