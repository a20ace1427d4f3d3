/**
 * The examples of the public Hosted Graphite documentation, replayed request by request against our server (real,
 * port 0), checking what a client written from those pages would parse: the status, and the fields it reads, with
 * the types the pages show. Sources (see docs/server.md, "The public documentation"):
 *   alerts:        https://docs.hostedgraphite.com/alerting-guide/alerts-api
 *   channels:      https://docs.hostedgraphite.com/alerting-guide/notification-channels-api
 *   schedules:     https://docs.hostedgraphite.com/alerting-guide/scheduled-mutes-api
 * The key travels as the URL's user-info (https://YOUR-API-KEY@host/...), which HTTP clients send as Basic auth.
 * Where the pages and the seed disagree the seed wins; those cases assert the seed's answer and are marked SEED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** One request as the docs' curl line sends it (`-H "Content-Type: application/json"` unless `form` is set). */
async function replay(method: string, path: string, body?: unknown, options: { form?: boolean } = {}) {
  const headers = options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : undefined;
  return server.request(method, path, body === undefined ? undefined : JSON.stringify(body), headers ? { headers } : {});
}

/**
 * What a client parses from a 201 create: `id` and `url` (`/v2/<kind>/<id>`), plus alertform's additive `warnings`
 * on an alert that would notify nobody (these alerts go to this account's `Email me`, which has no address).
 */
function expectCreated(response: { status: number; body: any; text: string }, kind: string): string {
  expect(response.status, response.text).toBe(201);
  const { warnings, ...documented } = response.body;
  expect(documented).toEqual({ id: expect.any(String), url: `/v2/${kind}/${response.body.id}` });
  if (warnings !== undefined) expect(warnings).toEqual([expect.stringContaining('"Email me" has no address')]);
  return response.body.id;
}

const ids: Record<string, string> = {};

describe('Notification Channels API page', () => {
  it('Create: the curl example answers 201 {id, url}; a duplicate 409; invalid form data 404', async () => {
    const example = { type: 'email', description: 'A test notification', destination: 'email@example.com' };
    ids.email = expectCreated(await replay('POST', '/v2/notifications/', example), 'notifications');
    expect((await replay('POST', '/v2/notifications/', example)).status).toBe(409);
    expect((await replay('POST', '/v2/notifications/', { type: 'email', description: 'no destination' })).status).toBe(404);
    // The older page's HipChat example: a type the service no longer has is invalid form data.
    const hipchat = await replay('POST', '/v2/notifications/', { type: 'hipchat', description: 'Three HipChat rooms', hipchat_rooms: ['1111111', '2222222', '3333333'] });
    expect(hipchat.status).toBe(404);
    for (const [type, destination] of [['slack', 'https://hooks.slack.com/services/T/B/X'], ['pagerduty', 'pd-integration-key'], ['webhook', 'https://example.com/hook'], ['victorops', 'https://alert.victorops.com/integrations/generic/1/alert/k/route'], ['opsgenie', 'og-key']]) {
      ids[type!] = expectCreated(await replay('POST', '/v2/notifications/', { type, description: `${type} channel`, destination, auto_resolve: type === 'pagerduty' }), 'notifications');
    }
  });

  it('Search: ?type=email&type=slack, &descriptions=, &id=, auto_resolve as Python sends it, page/max', async () => {
    const byType = await replay('GET', '/v2/notifications/?type=email&type=slack');
    expect(byType.status).toBe(200);
    expect(byType.body.next_page).toBe(false);
    expect(byType.body.notifications.map((c: any) => c.type).sort()).toEqual(['email', 'email', 'slack']);
    for (const channel of byType.body.notifications) {
      // The documented fields, plus alertform's additive `template` extension (null: the default message).
      expect(channel).toEqual({ type: expect.any(String), description: expect.any(String), destination: expect.any(String), id: expect.any(String), auto_resolve: expect.any(Boolean), throttle: null, template: null, group_by: null });
    }
    const byDescriptions = await replay('GET', '/v2/notifications/?descriptions=A%20test%20notification&descriptions=slack%20channel');
    expect(byDescriptions.body.notifications.map((c: any) => c.id).sort()).toEqual([ids.email, ids.slack].sort());
    expect((await replay('GET', `/v2/notifications/?id=${ids.webhook}`)).body.notifications[0].description).toBe('webhook channel');
    expect((await replay('GET', '/v2/notifications/?auto_resolve=True')).body.notifications.map((c: any) => c.id)).toEqual([ids.pagerduty]);
    const paged = await replay('GET', '/v2/notifications/?page=1&max=2');
    expect(paged.body.notifications).toHaveLength(2);
    expect(paged.body.next_page).toBe(true);
  });

  it('Read one: GET /v2/notifications/<id>/ answers the channel object; a missing one 400 (SEED)', async () => {
    const read = await replay('GET', `/v2/notifications/${ids.email}/`);
    expect(read.status).toBe(200);
    // Plus alertform's extension (noise control), null when unused: additive, a client of the public API ignores it.
    expect(read.body).toEqual({ type: 'email', description: 'A test notification', destination: 'email@example.com', id: ids.email, auto_resolve: false, throttle: null, template: null, group_by: null });
    expect((await replay('GET', '/v2/notifications/no-such-channel/')).status).toBe(400);
    // The page's curl example for this operation says /v2/notification/ (singular): not an endpoint (SEED).
    const singular = await replay('GET', `/v2/notification/${ids.email}/`);
    expect([singular.status, singular.body.error.code]).toEqual([404, 'not_found']);
  });

  it('Update and delete: PUT any subset answers the channel; 404 for a missing one; DELETE 200 then 404', async () => {
    const put = await replay('PUT', `/v2/notifications/${ids.slack}/`, { description: 'Renamed slack' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: ids.slack, description: 'Renamed slack', type: 'slack' });
    expect((await replay('PUT', `/v2/notifications/${ids.slack}/`, { description: 'A test notification' })).status).toBe(409);
    expect((await replay('PUT', '/v2/notifications/no-such-channel/', { description: 'x' })).status).toBe(404);
    expect((await replay('DELETE', `/v2/notifications/${ids.opsgenie}/`)).status).toBe(200);
    expect((await replay('DELETE', `/v2/notifications/${ids.opsgenie}/`)).status).toBe(404);
  });
});

describe('Scheduled Mutes API page', () => {
  it('Create: "Mute on weekends" answers 201 {id, url}; invalid form data 400; a duplicate name 409', async () => {
    const example = { name: 'Mute on weekends', start_time: '00:00', duration: 1440, timezone: 'UTC+2', repeat: ['sat', 'sun'] };
    ids.weekends = expectCreated(await replay('POST', '/v2/schedules/', example), 'schedules');
    expect((await replay('POST', '/v2/schedules/', example)).status).toBe(409);
    expect((await replay('POST', '/v2/schedules/', { name: 'bad', start_time: '14:20', duration: 123, timezone: 'UTC+15' })).status).toBe(400);
    // The request-format example, with every week day.
    ids.daily = expectCreated(await replay('POST', '/v2/schedules/', { name: 'string', start_time: '14:20', duration: 123, timezone: 'UTC-2', repeat: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] }), 'schedules');
  });

  it('Search: GET /v2/schedules/? answers {scheduled_mutes, next_page}; name, id, duration, start_time OR-ed', async () => {
    const all = await replay('GET', '/v2/schedules/?');
    expect(all.status).toBe(200);
    expect(all.body.next_page).toBe(false);
    expect(all.body.scheduled_mutes).toHaveLength(2);
    for (const schedule of all.body.scheduled_mutes) {
      expect(schedule).toEqual({ name: expect.any(String), id: expect.any(String), duration: expect.any(Number), alerts: expect.any(Array), start_time: expect.stringMatching(/^\d\d:\d\d$/), timezone: expect.stringMatching(/^UTC/), repeat: expect.any(Array) });
    }
    const names = async (query: string) => (await replay('GET', `/v2/schedules/?${query}`)).body.scheduled_mutes.map((s: any) => s.name).sort();
    expect(await names('name=Mute%20on%20weekends&name=string')).toEqual(['Mute on weekends', 'string']);
    expect(await names(`id=${ids.weekends}`)).toEqual(['Mute on weekends']);
    expect(await names('duration=10&duration=1440')).toEqual(['Mute on weekends']);
    expect(await names('start_time=12:00&start_time=14:20')).toEqual(['string']);
    expect(await names('timezone=UTC-2')).toEqual(['string']);
    expect(await names('repeat=mon')).toEqual(['string']);
    // A client that follows next_page as the page number.
    const first = await replay('GET', '/v2/schedules/?max=1');
    expect(first.body.next_page).toBe(2);
    expect((await replay('GET', `/v2/schedules/?max=1&page=${first.body.next_page}`)).body.scheduled_mutes).toHaveLength(1);
  });

  it('Read one, update, delete: GET 200 object; PUT 200; DELETE 200; a missing one 404', async () => {
    const read = await replay('GET', `/v2/schedules/${ids.weekends}/`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id: ids.weekends, name: 'Mute on weekends', start_time: '00:00', duration: 1440, timezone: 'UTC+2', repeat: ['sat', 'sun'], alerts: [] });
    const put = await replay('PUT', `/v2/schedules/${ids.daily}/`, { duration: 60 });
    expect(put.status).toBe(200);
    expect(put.body.duration).toBe(60);
    expect((await replay('GET', '/v2/schedules/no-such-schedule/')).status).toBe(404);
    expect((await replay('DELETE', `/v2/schedules/${ids.daily}/`)).status).toBe(200);
    expect((await replay('DELETE', `/v2/schedules/${ids.daily}/`)).status).toBe(404);
  });
});

describe('Alerts API page', () => {
  const base = (name: string) => ({ name, metric: `docs.${name.replace(/\W+/g, '_')}` });

  it('Create: each alert criteria example, the composite examples and the full request format answer 201', async () => {
    const criteria = [
      { type: 'missing', time_period: 10 },
      { type: 'above', above_value: 5.6 },
      { type: 'outside_bounds', above_value: 5.6, below_value: 2.1 },
      { type: 'outside_bounds', above_value: 5.6, below_value: 2.1, time_period: 10 },
    ];
    for (const [index, alert_criteria] of criteria.entries()) {
      ids[`criteria${index}`] = expectCreated(await replay('POST', '/v2/alerts/', { ...base(`criteria example ${index}`), alert_criteria }), 'alerts');
    }
    ids.composite = expectCreated(await replay('POST', '/v2/alerts/', {
      name: 'composite example', metric: 'my.first.metric', alert_criteria: { type: 'above', above_value: 80 },
      additional_criteria: { b: { type: 'below', below_value: 20, metric: 'my.second.metric' } }, expression: 'a && b',
    }), 'alerts');
    ids.compositeOr = expectCreated(await replay('POST', '/v2/alerts/', {
      name: 'composite or example', metric: 'my.first.metric', alert_criteria: { type: 'below', below_value: 50 },
      additional_criteria: { c: { type: 'below', below_value: 30, metric: 'my.third.metric' } }, expression: 'a || c',
    }), 'alerts');
    // The full request format: channel ids and names mixed, scheduled mutes by id, every notification_type form.
    for (const [index, notification_type] of (['state_change', ['state_change'], ['every', 123]] as const).entries()) {
      ids[`full${index}`] = expectCreated(await replay('POST', '/v2/alerts/', {
        name: `full example ${index}`, metric: 'sumSeries(docs.full.*)',
        alert_criteria: { type: 'above', above_value: 123, below_value: 123, time_period: 123 },
        additional_criteria: { b: { type: 'above', above_value: 123, time_period: 123, metric: 'docs.full.b' } },
        expression: 'a && b', scheduled_mutes: [ids.weekends], notification_channels: [ids.email, 'Renamed slack'],
        notification_type, info: 'string', on_query_failure: 'ignore',
      }), 'alerts');
    }
    // Defaults: no channels is the "Email me" channel; no notification_type is every 60 minutes.
    const plain = await replay('GET', `/v2/alerts/${ids.criteria1}/`);
    expect(plain.body.notification_type).toEqual(['every', 60]);
    const emailMe = (await replay('GET', '/v2/notifications/?description=Email%20me')).body.notifications[0];
    expect(plain.body.notification_channels).toEqual([emailMe.id]);
    // Statuses: a duplicate name 409, invalid format 400 (the parameter table's `above_vale` spelling included).
    expect((await replay('POST', '/v2/alerts/', { ...base('criteria example 1'), alert_criteria: { type: 'above', above_value: 1 } })).status).toBe(409);
    expect((await replay('POST', '/v2/alerts/', { ...base('typo'), alert_criteria: { type: 'above', above_vale: 1 } })).status).toBe(400);
  });

  it('Create without a JSON Content-Type (curl -d without -H) is read as JSON all the same', async () => {
    expectCreated(await replay('POST', '/v2/alerts/', { ...base('form content type'), alert_criteria: { type: 'below', below_value: 1 } }, { form: true }), 'alerts');
  });

  it('Search: name, id (OR), search (AND), page and max; answers {alerts, next_page}', async () => {
    const found = await replay('GET', `/v2/alerts/?name=composite%20example&id=${ids.compositeOr}`);
    expect(found.status).toBe(200);
    expect(found.body.next_page).toBe(false);
    expect(found.body.alerts.map((a: any) => a.id).sort()).toEqual([ids.composite, ids.compositeOr].sort());
    // search also matches an additional criterion's metric.
    expect((await replay('GET', '/v2/alerts/?search=my.second')).body.alerts.map((a: any) => a.id)).toEqual([ids.composite]);
    const paged = await replay('GET', '/v2/alerts/?page=1&max=2');
    expect(paged.body.alerts).toHaveLength(2);
    expect(paged.body.next_page).toBe(true);
  });

  it('Read one: the fields the page lists, with their types; a missing alert 404', async () => {
    const read = await replay('GET', `/v2/alerts/${ids.full2}/`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: ids.full2, name: 'full example 2', metric: 'sumSeries(docs.full.*)',
      alert_criteria: { type: 'above', above_value: 123, below_value: 123, time_period: 123 },
      additional_criteria: { b: { type: 'above', above_value: 123, time_period: 123, metric: 'docs.full.b' } },
      expression: 'a && b', notification_channels: [ids.email, ids.slack], notification_type: ['every', 123],
      scheduled_mutes: [ids.weekends], currently_triggered_metrics: [], muted: expect.any(Boolean), status: 'healthy',
      info: 'string', on_query_failure: 'ignore',
    });
    expect((await replay('GET', `/v2/alerts/${ids.full0}/`)).body.notification_type).toEqual(['state_change']);
    expect((await replay('GET', '/v2/alerts/no-such-alert/')).status).toBe(404);
  });

  it('Update: any subset of fields; the answer carries name, metric, info, criteria, mutes, channels, type', async () => {
    const put = await replay('PUT', `/v2/alerts/${ids.criteria0}/`, { info: 'new info', notification_type: ['every', 30] });
    expect(put.status).toBe(200);
    for (const field of ['name', 'metric', 'info', 'alert_criteria', 'scheduled_mutes', 'notification_channels', 'notification_type']) {
      expect(put.body, field).toHaveProperty(field);
    }
    expect(put.body).toMatchObject({ info: 'new info', notification_type: ['every', 30], alert_criteria: { type: 'missing', time_period: 10 } });
    expect((await replay('PUT', `/v2/alerts/${ids.criteria0}/`, { alert_criteria: { type: 'sideways' } })).status).toBe(400);
    expect((await replay('PUT', '/v2/alerts/no-such-alert/', { info: 'x' })).status).toBe(404);
  });

  it('Mute, check, unmute one alert: {duration}; {id, name, muted, duration, scheduled_mutes}; 404 when missing', async () => {
    const mute = await replay('POST', `/v2/alerts/${ids.criteria1}/muted/`, { duration: 30 });
    expect(mute.status).toBe(200);
    expect(mute.body).toEqual({ duration: 30 });
    const status = await replay('GET', `/v2/alerts/${ids.criteria1}/muted/`);
    expect(status.body).toEqual({ id: ids.criteria1, name: 'criteria example 1', muted: true, duration: 30, scheduled_mutes: [] });
    expect((await replay('DELETE', `/v2/alerts/${ids.criteria1}/muted/`)).status).toBe(200);
    expect((await replay('GET', `/v2/alerts/${ids.criteria1}/muted/`)).body.muted).toBe(false);
    expect((await replay('POST', `/v2/alerts/${ids.criteria1}/muted/`, {})).status).toBe(400);
    for (const method of ['POST', 'DELETE', 'GET']) {
      expect((await replay(method, '/v2/alerts/no-such-alert/muted/', method === 'POST' ? { duration: 5 } : undefined)).status).toBe(404);
    }
  });

  it('Mute and unmute several: ids and/or search; the answer lists the ids; an unknown id 404', async () => {
    const mute = await replay('POST', '/v2/alerts/muted/', { ids: [ids.criteria2], search: 'composite', duration: 15 });
    expect(mute.status).toBe(200);
    expect(mute.body.duration).toBe(15);
    expect(mute.body.ids.sort()).toEqual([ids.criteria2, ids.composite, ids.compositeOr].sort());
    const unmute = await replay('DELETE', '/v2/alerts/muted/', { search: 'composite' });
    expect(unmute.status).toBe(200);
    expect(unmute.body.ids.sort()).toEqual([ids.composite, ids.compositeOr].sort());
    expect((await replay('POST', '/v2/alerts/muted/', { ids: ['no-such-alert'], duration: 5 })).status).toBe(404);
    expect((await replay('POST', '/v2/alerts/muted/', { ids: [ids.criteria2] })).status).toBe(400);
  });

  it('History: ?id= (and alert_id=), days, status; an object keyed by alert id', async () => {
    const history = await replay('GET', `/v2/alerts/history/?id=${ids.criteria1}&days=7&status=alerting`);
    expect(history.status).toBe(200);
    expect(history.body).toEqual({});
    expect((await replay('GET', `/v2/alerts/history/?alert_id=${ids.criteria1}`)).status).toBe(200);
    expect((await replay('GET', '/v2/alerts/history/?days=many')).status).toBe(400);
  });

  it('Delete: 200, then a missing alert 400 (SEED)', async () => {
    expect((await replay('DELETE', `/v2/alerts/${ids.criteria3}/`)).status).toBe(200);
    expect((await replay('DELETE', `/v2/alerts/${ids.criteria3}/`)).status).toBe(400);
  });
});
