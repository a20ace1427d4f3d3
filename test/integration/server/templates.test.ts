import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/store-backends.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Both stores: templates, severity and priority are stored and read back the same on SQLite and PostgreSQL.
describeEachStore('on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: await backend.createDb() });
  });
  afterAll(() => server.close());

  describe('message templates (extension)', () => {
    it('stores a channel template and reads it back; a PUT without it keeps it, null removes it', async () => {
      const template = { title: '{{event}}: {{name}}', body: '{{#triggered}}{{metric}} = {{value}}\n{{/triggered}}' };
      const created = await server.request('POST', '/v2/notifications/', { type: 'slack', description: 'tmpl', destination: 'https://hooks.example/x', template });
      expect(created.status, created.text).toBe(201);
      const read = await server.request('GET', `/v2/notifications/${created.body.id}/`);
      expect(read.body).toMatchObject({ description: 'tmpl', template });
      const renamed = await server.request('PUT', `/v2/notifications/${created.body.id}/`, { description: 'tmpl2' });
      expect(renamed.body.template).toEqual(template);
      const titleOnly = await server.request('PUT', `/v2/notifications/${created.body.id}/`, { template: { title: '{{summary}}' } });
      expect(titleOnly.body.template).toEqual({ title: '{{summary}}' });
      const cleared = await server.request('PUT', `/v2/notifications/${created.body.id}/`, { template: null });
      expect(cleared.body.template).toBeNull();
    });

    it('refuses a bad template with 400 and details that say which part, what, and where in the template', async () => {
      const bad = await server.request('POST', '/v2/notifications/', {
        type: 'webhook',
        description: 'bad template',
        destination: 'https://hooks.example/y',
        template: { title: 'ok {{nmae}}', body: 'line one\n{{#triggered}}{{metric}}' },
      });
      expect(bad.status).toBe(404); // the seed documents 404 for an invalid create body
      expect(bad.body.error.code).toBe('invalid_body');
      expect(bad.body.error.details).toEqual([
        { path: 'template.title', message: expect.stringMatching(/^unknown field "nmae"; known fields: .* \(template line 1, column 4\)$/) },
        { path: 'template.body', message: 'unclosed section "triggered": add {{/triggered}} (template line 2, column 1)' },
      ]);
      const unknownPart = await server.request('POST', '/v2/notifications/', {
        type: 'webhook',
        description: 'bad part',
        destination: 'https://hooks.example/y',
        template: { subject: 'x' },
      });
      expect(unknownPart.status).toBe(404);
      expect(unknownPart.body.error.details[0].path).toMatch(/^template/);
      const existing = await server.request('POST', '/v2/notifications/', { type: 'webhook', description: 'fine', destination: 'https://hooks.example/z' });
      const badPut = await server.request('PUT', `/v2/notifications/${existing.body.id}/`, { template: { body: '{{{name}}}' } });
      expect(badPut.status).toBe(400);
      expect(badPut.body.error.details).toEqual([
        { path: 'template.body', message: 'unescaped output is not allowed: write {{name}} (template line 1, column 1)' },
      ]);
    });

    it('stores an alert\'s pagerduty_severity and opsgenie_priority, keeps them across a PUT, and refuses others', async () => {
      const body = { name: 'sev', metric: 'a.b', alert_criteria: { type: 'above', above_value: 1 }, pagerduty_severity: 'warning', opsgenie_priority: 'P3' };
      const created = await server.request('POST', '/v2/alerts/', body);
      expect(created.status, created.text).toBe(201);
      const read = await server.request('GET', `/v2/alerts/${created.body.id}/`);
      expect(read.body).toMatchObject({ pagerduty_severity: 'warning', opsgenie_priority: 'P3' });
      const put = await server.request('PUT', `/v2/alerts/${created.body.id}/`, { info: 'x' });
      expect(put.body).toMatchObject({ pagerduty_severity: 'warning', opsgenie_priority: 'P3' });
      const cleared = await server.request('PUT', `/v2/alerts/${created.body.id}/`, { pagerduty_severity: null });
      expect(cleared.body).toMatchObject({ pagerduty_severity: null, opsgenie_priority: 'P3' });
      const bad = await server.request('POST', '/v2/alerts/', { ...body, name: 'bad', pagerduty_severity: 'loud', opsgenie_priority: 'P9' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['opsgenie_priority', 'pagerduty_severity']);
    });
  });
});
